import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  AddResultBody,
  ApplyOrganizerBody,
  CreateTournamentBody,
  CsvResponse,
  Judge,
  JudgeBody,
  JudgeBodyAdd,
  Organizer,
  RegisterBody,
  Registration,
  RegistrationParams,
  RegistrationsQuery,
  Results,
  Sponsor,
  SponsorBody,
  SubmissionParams,
  Submission,
  SubmissionsQuery,
  SubmitCatchBody,
  Tournament,
  TournamentParams,
  TournamentsQuery,
  UpdateTournamentBody,
} from './tournaments.schemas.js';
import * as results from './tournaments.results.service.js';
import * as service from './tournaments.service.js';
import { TOURNAMENT_STATUSES } from './tournaments.jobs.js';
import { paymentsOf } from '../payments/payments.service.js';

/**
 * /api/tournament: organizer applications, tournaments, registrations, catch submissions and
 * judging, leaderboard and results, sponsors, CSV exports. Record access: the tournaments policy.
 */
export const tournamentsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = deps.database.db;
  const tournamentsDeps: service.TournamentsDeps = { db, payments: paymentsOf(deps) };
  for (const schema of [Organizer, Tournament, Registration, Submission, Results, Sponsor, Judge]) app.addSchema(schema);
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);
  // Starts and completes tournaments by the clock, every minute on the job queue.
  deps.jobs.work(TOURNAMENT_STATUSES, () => service.advanceTournamentStatuses(db));
  const csv = { 200: { description: 'CSV, header row first', content: { 'text/csv': { schema: CsvResponse } } } };

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
    async (request, reply) => reply.code(201).send(await service.applyAsOrganizer(db, principalOf(request).userId, request.body)),
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
    async (request) => service.ownOrganizer(db, principalOf(request).userId),
  );

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
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listTournaments(db, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/tournament/:id',
    {
      schema: {
        tags,
        operationId: 'getTournament',
        summary: 'One tournament',
        description: 'With its divisions and registration state. 403 (tournaments.not_visible) when it exists but is not published and you neither organize nor entered it; 404 when it does not exist.',
        params: IdParams,
        response: { 200: ref('Tournament'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getTournament(db, principalOf(request), request.params.id),
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
    async (request, reply) => reply.code(201).send(await service.createTournament(db, principalOf(request), request.body)),
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
    async (request) => service.updateTournament(db, principalOf(request), request.params.id, request.body),
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
    async (request) => service.submitForApproval(db, principalOf(request), request.params.tournamentId),
  );

  app.post(
    '/api/tournament/:tournamentId/register',
    {
      schema: {
        tags,
        operationId: 'registerForTournament',
        summary: 'Register for a tournament',
        description:
          'An Approved tournament not yet started, before its registration deadline and under its capacity; once per person per division (409 otherwise). ' +
          'A tournament with an entry fee needs `paymentMethod` (400 tournaments.payment_method_required); the fee is charged through the payments service once the place is held ' +
          '(a declined card cancels the registration: 402 tournaments.payment_declined). The organizer and the judges cannot enter it (409). 403 for a tournament you cannot see.',
        params: TournamentParams,
        body: RegisterBody,
        response: { 201: ref('TournamentRegistration'), ...errorResponses(400, 402, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.register(tournamentsDeps, principalOf(request), auditContextOf(request), request.params.tournamentId, request.body)),
  );

  app.get(
    '/api/tournament/:tournamentId/registrations',
    {
      schema: {
        tags,
        operationId: 'listTournamentRegistrations',
        summary: 'Registrations: all for the organizer, your own for anyone else',
        params: TournamentParams,
        querystring: RegistrationsQuery,
        response: { 200: { ...Type.Array(ref('TournamentRegistration')), headers: paginationHeaders }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listRegistrations(db, principalOf(request), request.params.tournamentId, request.query, page)),
  );

  app.get(
    '/api/tournament/:tournamentId/registrations/:registrationId',
    {
      schema: {
        tags,
        operationId: 'getTournamentRegistration',
        summary: 'One registration (organizer or the registrant)',
        params: RegistrationParams,
        response: { 200: ref('TournamentRegistration'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getRegistration(db, principalOf(request), request.params.tournamentId, request.params.registrationId),
  );

  app.post(
    '/api/tournament/:tournamentId/registrations/:registrationId/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelTournamentRegistration',
        summary: 'Cancel your registration',
        description:
          'Before the start only. Up to `refundWindowHours` (default 48) before the start the fee is refunded through the payments service (fee status Refunded); after that it is forfeited.',
        params: RegistrationParams,
        response: { 200: ref('TournamentRegistration'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) =>
      service.cancelRegistration(tournamentsDeps, principalOf(request), auditContextOf(request), request.params.tournamentId, request.params.registrationId),
  );

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
    async (request, reply) => reply.code(201).send(await results.submitCatch(db, principalOf(request), request.params.tournamentId, request.body)),
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
    async (request, reply) => paginate(request, reply, request.query, (page) => results.listCatches(db, principalOf(request), request.params.tournamentId, request.query, page)),
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
    async (request) => results.judgeCatch(db, principalOf(request), auditContextOf(request), request.params.tournamentId, request.params.catchId, request.body),
  );

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
    async (request) => results.getResults(db, principalOf(request), request.params.tournamentId),
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
    async (request, reply) => reply.code(201).send(await results.addResult(db, principalOf(request), auditContextOf(request), request.params.tournamentId, request.body)),
  );

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
    async (request) => service.listJudges(db, principalOf(request), request.params.tournamentId),
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
    async (request, reply) => reply.code(201).send(await service.addJudge(db, principalOf(request), request.params.tournamentId, request.body.userId)),
  );

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
    async (request) => service.listSponsors(db, principalOf(request), request.params.tournamentId),
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
    async (request, reply) => reply.code(201).send(await service.addSponsor(db, principalOf(request), request.params.tournamentId, request.body)),
  );

  const exports = [
    { what: 'registrations', operationId: 'exportTournamentRegistrations', summary: 'Registrations as CSV (organizer)', build: results.exportRegistrations },
    { what: 'results', operationId: 'exportTournamentResults', summary: 'Leaderboard and placings as CSV (organizer)', build: results.exportResults },
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
          .send(await e.build(db, principalOf(request), request.params.tournamentId)),
    );
  }
};
