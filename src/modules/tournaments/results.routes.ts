import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { errorResponses } from '../../core/http/schemas.js';
import { TournamentParams } from './tournaments.schemas.js';
import { AddResultBody, CsvResponse } from './results.schemas.js';
import * as service from './results.service.js';

/** /api/tournament/:tournamentId/results: leaderboard and official results. */
export const resultsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

  app.get(
    '/api/tournament/:tournamentId/results',
    {
      schema: {
        tags,
        operationId: 'getTournamentResults',
        summary: 'Leaderboard and official results',
        description:
          'Per division, from verified catches: the best N per angler (culling), minus penalties, ranked by total, then the biggest single fish, then the earliest capture of the last counted fish. ' +
          'Anglers appear by their leaderboard name only. Official placings once published. Visible like the tournament.',
        params: TournamentParams,
        response: { 200: ref('TournamentResults'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getResults(services, principalOf(request), request.params.tournamentId),
  );

  app.post(
    '/api/tournament/:tournamentId/results',
    {
      schema: {
        tags,
        operationId: 'addTournamentResult',
        summary: 'Add a result (organizer)',
        description:
          '`kind`: `catch` (a catch judged at the scale, recorded Verified), `penalty` (one of the division’s penalty rules), `placing` (one official placing; changing one needs a reason) ' +
          'or `publish` (every division’s placings from the leaderboard, after the end; republishing needs a reason). Audit-logged. Answers the results.',
        params: TournamentParams,
        body: AddResultBody,
        response: { 201: ref('TournamentResults'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addResult(services, principalOf(request), auditContextOf(request), request.params.tournamentId, request.body)),
  );
};

/** /api/tournament/:tournamentId/export: registrations and results as CSV. */
export const exportsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const csv = { 200: { description: 'CSV, header row first', content: { 'text/csv': { schema: CsvResponse } } } };
  const tags = ['tournaments'];

  const exports = [
    { what: 'registrations', operationId: 'exportTournamentRegistrations', summary: 'Registrations as CSV (organizer)', build: service.exportRegistrations },
    { what: 'results', operationId: 'exportTournamentResults', summary: 'Leaderboard and placings as CSV (organizer)', build: service.exportResults },
  ];
  for (const e of exports) {
    app.get(
      `/api/tournament/:tournamentId/export/${e.what}.csv`,
      {
        schema: {
          tags,
          operationId: e.operationId,
          summary: e.summary,
          description: 'A download (Content-Disposition: attachment); a leading = + - @ in a text field is prefixed with an apostrophe so spreadsheets do not run it.',
          params: TournamentParams,
          produces: ['text/csv'],
          response: { ...csv, ...errorResponses(403, 404) },
        },
      },
      async (request, reply) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${e.what}-${request.params.tournamentId}.csv"`)
          .send(await e.build(serviceDeps(deps), principalOf(request), request.params.tournamentId)),
    );
  }
};
