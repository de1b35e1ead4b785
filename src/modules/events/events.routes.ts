import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { legacyPoint } from '../../core/http/coordinates.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { CreateEventBody, Event, EventsQuery, RegistrationResult } from './events.schemas.js';
import * as service from './events.service.js';

/** /api/events: community events (expos, swap meets, seminars, tournaments). */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Event);
  app.addSchema(RegistrationResult);
  const tags = ['community: events'];

  app.post(
    '/api/events',
    {
      preValidation: legacyPoint('lat', 'lon'),
      schema: {
        tags,
        operationId: 'createEvent',
        summary: 'Propose an event',
        description: 'Any signed-in angler. The event is `PendingApproval` (seen by you and administrators) until an administrator approves or rejects it.',
        body: CreateEventBody,
        response: { 201: Type.Ref('Event'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createEvent(services, principalOf(request), request.body)),
  );

  app.get(
    '/api/events',
    {
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'Approved events, featured first, then soonest first',
        description:
          'Approved events not ended yet (or within `from`/`to`). Filters: `type`, `state` (ISO 3166-2), `lat`/`lon`/`radiusKm` (default 50, at most 100; adds `distanceKm`), ' +
          '`featured=true` (featured now only).',
        querystring: EventsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Event')), headers: paginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listEvents(services, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/events/:id',
    {
      schema: {
        tags,
        operationId: 'getEvent',
        summary: 'One event',
        description: 'An event pending approval or rejected is a 403 for everyone but its creator (who sees the rejection reason) and administrators; so is an event whose creator\'s account deletion is pending (403 `events.not_visible`) until they cancel.',
        params: IdParams,
        response: { 200: Type.Ref('Event'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.getEvent(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/events/:id/register',
    {
      schema: {
        tags,
        operationId: 'registerForEvent',
        summary: 'Register for an event',
        description: 'Approved events only: 409 events.not_open for an event its creator or an administrator sees before approval, 403 events.not_public for one you cannot see. 409 when already registered, full, or past the registration deadline.',
        params: IdParams,
        response: { 200: Type.Ref('EventRegistration'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.setRegistration(services, principalOf(request), request.params.id, true),
  );

  app.delete(
    '/api/events/:id/register',
    {
      schema: {
        tags,
        operationId: 'cancelEventRegistration',
        summary: 'Cancel your registration',
        description: '409 when you are not registered.',
        params: IdParams,
        response: { 200: Type.Ref('EventRegistration'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.setRegistration(services, principalOf(request), request.params.id, false),
  );
};
