import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { paymentsOf } from '../payments/payments.service.js';
import { RegistrationParams, TournamentParams } from './tournaments.schemas.js';
import { RegisterBody, RegistrationsQuery } from './registrations.schemas.js';
import * as service from './registrations.service.js';

/** /api/tournament/:tournamentId/register and /registrations: registrations with the entry fee. */
export const registrationsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tournamentsDeps: service.TournamentsDeps = { ...serviceDeps(deps), payments: paymentsOf(deps) };
  const tags = ['tournaments'];
  const ref = (id: string) => Type.Ref(id);

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
      paginate(request, reply, request.query, (page) => service.listRegistrations(services, principalOf(request), request.params.tournamentId, request.query, page)),
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
    async (request) => service.getRegistration(services, principalOf(request), request.params.tournamentId, request.params.registrationId),
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
};
