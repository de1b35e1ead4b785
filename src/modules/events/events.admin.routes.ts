import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { FeatureBody } from '../../core/db/featured.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminEventsQuery, Event, EventRejectBody } from './events.schemas.js';
import * as service from './events.service.js';

/** /api/admin/events: review (Events.View, Events.Approve, Events.Reject) and featuring; audit-logged. */
export const eventsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Event);
  const tags = ['admin: events'];

  app.get(
    '/api/admin/events',
    {
      config: { access: { permission: 'Events.View' } },
      schema: {
        tags,
        operationId: 'adminListEvents',
        summary: 'Events by review status (default: pending approval), oldest first',
        querystring: AdminEventsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Event')), headers: paginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.adminListEvents(services, principalOf(request), (request.query.status ?? 'PendingApproval') as never, page)),
  );

  app.post(
    '/api/admin/events/:id/approve',
    {
      config: { access: { permission: 'Events.Approve' } },
      schema: {
        tags,
        operationId: 'adminApproveEvent',
        summary: 'Approve an event: it is listed publicly',
        description: '409 when approved already. Audit-logged.',
        params: IdParams,
        response: { 200: Type.Ref('Event'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.reviewEvent(services, auditContextOf(request), principalOf(request), request.params.id, 'approve', null),
  );

  app.post(
    '/api/admin/events/:id/reject',
    {
      config: { access: { permission: 'Events.Reject' } },
      schema: {
        tags,
        operationId: 'adminRejectEvent',
        summary: 'Reject an event, with a reason shown to its creator',
        description: 'Also withdraws an approved event from the lists. 409 when rejected already. Audit-logged.',
        params: IdParams,
        body: EventRejectBody,
        response: { 200: Type.Ref('Event'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.reviewEvent(services, auditContextOf(request), principalOf(request), request.params.id, 'reject', request.body.reason.trim()),
  );

  app.post(
    '/api/admin/events/:id/feature',
    {
      config: { access: { permission: 'Events.Approve' } },
      schema: {
        tags,
        operationId: 'adminFeatureEvent',
        summary: 'Feature an event for a time window (listed first)',
        params: IdParams,
        body: FeatureBody,
        response: { 200: Type.Ref('Event'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.featureEvent(services, auditContextOf(request), principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/events/:id/feature',
    {
      config: { access: { permission: 'Events.Approve' } },
      schema: {
        tags,
        operationId: 'adminUnfeatureEvent',
        summary: 'Stop featuring an event',
        params: IdParams,
        response: { 200: Type.Ref('Event'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.featureEvent(services, auditContextOf(request), principalOf(request), request.params.id, null),
  );
};
