import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { TournamentParams } from './tournaments.schemas.js';
import { SponsorBody } from './sponsors.schemas.js';
import * as service from './sponsors.service.js';

/** /api/tournament/:tournamentId/sponsors: sponsors, by tier. */
export const sponsorsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

  app.get(
    '/api/tournament/:tournamentId/sponsors',
    {
      schema: {
        tags,
        operationId: 'listTournamentSponsors',
        summary: 'Sponsors, by tier',
        params: TournamentParams,
        response: { 200: Type.Array(ref('TournamentSponsor')), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.listSponsors(services, principalOf(request), request.params.tournamentId),
  );

  app.post(
    '/api/tournament/:tournamentId/sponsors',
    {
      schema: {
        tags,
        operationId: 'addTournamentSponsor',
        summary: 'Add a sponsor (organizer)',
        description:
          'Needs a verified organizer in good standing (403 otherwise) and a tournament not rejected, suspended or completed (409 otherwise). ' +
          `Limits per tournament: per tier ${Object.entries(service.SPONSOR_LIMITS.perTier)
            .map(([tier, n]) => `${tier} ${n}`)
            .join(', ')}; ${service.SPONSOR_LIMITS.total} sponsors; ${service.SPONSOR_LIMITS.amountCents} cents in all (409 beyond).`,
        params: TournamentParams,
        body: SponsorBody,
        response: { 201: ref('TournamentSponsor'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addSponsor(services, principalOf(request), request.params.tournamentId, request.body)),
  );
};
