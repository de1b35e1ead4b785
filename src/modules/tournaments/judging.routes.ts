import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { SubmissionParams, TournamentParams } from './tournaments.schemas.js';
import { JudgeBody, JudgeBodyAdd, SubmissionsQuery, SubmitCatchBody } from './judging.schemas.js';
import * as service from './judging.service.js';

/** /api/tournament/:tournamentId/catches: catch submissions and their judging. */
export const catchesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

  app.post(
    '/api/tournament/:tournamentId/catches',
    {
      schema: {
        tags,
        operationId: 'submitTournamentCatch',
        summary: 'Submit a catch (registrants)',
        description:
          'For a division you are registered in: an eligible species, captured inside the fishing window (it may be sent later), the division’s measure ' +
          '(CPR lengths are rounded down to the ¼ inch), at least the minimum length, and for CPR a photo showing the identifier code. ' +
          'The same photo (photoHash) or fishing-log catch cannot be submitted twice (409). Starts Pending until the organizer judges it.',
        params: TournamentParams,
        body: SubmitCatchBody,
        response: { 201: ref('TournamentCatch'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.submitCatch(services, principalOf(request), request.params.tournamentId, request.body)),
  );

  app.get(
    '/api/tournament/:tournamentId/catches',
    {
      schema: {
        tags,
        operationId: 'listTournamentCatches',
        summary: 'Catch submissions: all for the organizer and judges (judging queue), your own for anglers',
        params: TournamentParams,
        querystring: SubmissionsQuery,
        response: { 200: { ...Type.Array(ref('TournamentCatch')), headers: paginationHeaders }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listCatches(services, principalOf(request), request.params.tournamentId, request.query, page)),
  );

  app.post(
    '/api/tournament/:tournamentId/catches/:catchId/judge',
    {
      schema: {
        tags,
        operationId: 'judgeTournamentCatch',
        summary: 'Verify or reject a catch (organizer or a judge they named)',
        description: 'A rejection needs a reason; changing a decision needs a reason too. Closed once results are published. Audit-logged.',
        params: SubmissionParams,
        body: JudgeBody,
        response: { 200: ref('TournamentCatch'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.judgeCatch(services, principalOf(request), auditContextOf(request), request.params.tournamentId, request.params.catchId, request.body),
  );

};

/** /api/tournament/:tournamentId/judges: the judges the organizer names. */
export const judgesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

  app.get(
    '/api/tournament/:tournamentId/judges',
    {
      schema: {
        tags,
        operationId: 'listTournamentJudges',
        summary: 'Judges of a tournament (organizer and judges)',
        description: 'The users the organizer named to judge catches.',
        params: TournamentParams,
        response: { 200: Type.Array(ref('TournamentJudge')), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.listJudges(services, principalOf(request), request.params.tournamentId),
  );

  app.post(
    '/api/tournament/:tournamentId/judges',
    {
      schema: {
        tags,
        operationId: 'addTournamentJudge',
        summary: 'Name a judge (organizer)',
        description: 'A judge sees the tournament, its judging queue and judges catches; they cannot register in it (nor can a registrant be named). Answers the judges.',
        params: TournamentParams,
        body: JudgeBodyAdd,
        response: { 201: Type.Array(ref('TournamentJudge')), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addJudge(services, principalOf(request), request.params.tournamentId, request.body.userId)),
  );
};
