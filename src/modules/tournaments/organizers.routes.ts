import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { ApplyOrganizerBody } from './organizers.schemas.js';
import * as service from './organizers.service.js';

/** /api/tournament/organizers: apply to organize tournaments, and your organizer profile. */
export const organizersRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

  app.post(
    '/api/tournament/organizers/apply',
    {
      schema: {
        tags,
        operationId: 'applyAsTournamentOrganizer',
        summary: 'Apply to become a tournament organizer',
        description:
          'Creates your organizer profile in status Pending; an administrator verifies or rejects it. A rejected application can be sent again. ' +
          '`takesPayments: true` asks to run paid tournaments. 409 when you already have a pending, verified or suspended profile.',
        body: ApplyOrganizerBody,
        response: { 201: ref('TournamentOrganizer'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.applyAsOrganizer(services, principalOf(request).userId, request.body)),
  );

  app.get(
    '/api/tournament/organizers/me',
    {
      schema: {
        tags,
        operationId: 'getOwnTournamentOrganizer',
        summary: 'Your organizer profile',
        description: 'Its status (Pending, Verified, Rejected, Suspended), the reason of a rejection or suspension, and whether paid tournaments are allowed. 404 when you never applied.',
        response: { 200: ref('TournamentOrganizer'), ...errorResponses(404) },
      },
    },
    async (request) => service.ownOrganizer(services, principalOf(request).userId),
  );
};
