import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { TOURNAMENT_STATUSES } from './tournaments.jobs.js';
import { Organizer } from './organizers.schemas.js';
import { CreateTournamentBody, Tournament, TournamentParams, TournamentsQuery, UpdateTournamentBody } from './tournaments.schemas.js';
import { Registration } from './registrations.schemas.js';
import { Judge, Submission } from './judging.schemas.js';
import { Results } from './results.schemas.js';
import { Sponsor } from './sponsors.schemas.js';
import * as service from './tournaments.service.js';
import { organizersRoutes } from './organizers.routes.js';
import { registrationsRoutes } from './registrations.routes.js';
import { catchesRoutes, judgesRoutes } from './judging.routes.js';
import { exportsRoutes, resultsRoutes } from './results.routes.js';
import { sponsorsRoutes } from './sponsors.routes.js';

/**
 * /api/tournament: the module's public routes. Tournaments and their divisions are here; each other
 * area registers its own (organizers, registrations, catches and judges, results and exports,
 * sponsors), in the order of the OpenAPI document. Record access: the tournaments policy.
 */
export const tournamentsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [Organizer, Tournament, Registration, Submission, Results, Sponsor, Judge]) app.addSchema(schema);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);
  // Starts and completes tournaments by the clock, every minute on the job queue.
  deps.jobs.work(TOURNAMENT_STATUSES, () => service.advanceTournamentStatuses(services));

  await app.register(organizersRoutes, { deps });

  app.get(
    '/api/tournament',
    {
      schema: {
        tags,
        operationId: 'listTournaments',
        summary: 'Tournaments you can see',
        description:
          'Approved public tournaments (Approved, InProgress, Completed), plus the ones you organize and the ones you registered in, by start time. ' +
          'Filters: `status`, `state` (ISO 3166-2), `from`/`to` (date range), `speciesId` (counted in a division), `q` (text), `mine`.',
        querystring: TournamentsQuery,
        response: { 200: { ...Type.Array(ref('Tournament')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listTournaments(services, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/tournament/:id',
    {
      schema: {
        tags,
        operationId: 'getTournament',
        summary: 'One tournament',
        description: 'With its divisions and registration state. 403 (tournaments.not_visible) when it exists but is not published, or its organizer\'s account deletion is pending, and you neither organize, judge nor entered it; 404 when it does not exist.',
        params: IdParams,
        response: { 200: ref('Tournament'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getTournament(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/tournament',
    {
      schema: {
        tags,
        operationId: 'createTournament',
        summary: 'Create a tournament (verified organizers)',
        description:
          'Verified organizers only (403 tournaments.organizer_not_verified says how to get verified). A paid tournament (entryFeeCents > 0) needs an organizer verified to take payments. ' +
          'Goes to PendingApproval for an administrator (or stays Draft with `draft: true`). The identifier code anglers show in catch photos is generated.',
        body: CreateTournamentBody,
        response: { 201: ref('Tournament'), ...errorResponses(403) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createTournament(services, principalOf(request), request.body)),
  );

  app.put(
    '/api/tournament/:id',
    {
      schema: {
        tags,
        operationId: 'updateTournament',
        summary: 'Update a tournament (organizer)',
        description:
          'Replaces the tournament and its divisions (keep a division by giving its `id`; one with registrations cannot be removed). ' +
          'Once it has started, rules that change outcomes (format, schedule, limits, fee, divisions and scoring) are frozen: a change is a 409 tournaments.rules_frozen naming the fields.',
        params: IdParams,
        body: UpdateTournamentBody,
        response: { 200: ref('Tournament'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.updateTournament(services, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/tournament/:tournamentId/submit',
    {
      schema: {
        tags,
        operationId: 'submitTournamentForApproval',
        summary: 'Submit a draft or rejected tournament for approval (organizer)',
        params: TournamentParams,
        response: { 200: ref('Tournament'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.submitForApproval(services, principalOf(request), request.params.tournamentId),
  );

  for (const routes of [registrationsRoutes, catchesRoutes, resultsRoutes, judgesRoutes, sponsorsRoutes, exportsRoutes]) await app.register(routes, { deps });
};
