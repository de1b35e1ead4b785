import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Appeal, AppealsQuery, Ban, BanBody, BansQuery, BanStatusFilterEnum, DecideBody, LiftBody } from './bans.schemas.js';
import * as service from './bans.service.js';

/** Bans and appeals, administration side. */
export const bansAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  const invalidate = (sub: string) => deps.authenticator.invalidate(sub);
  app.addSchema(Appeal);
  app.addSchema(Ban);
  const tags = ['admin: bans'];

  app.post(
    '/api/admin/users/:id/bans',
    {
      config: { access: { permission: 'Users.Ban' } },
      schema: {
        tags,
        operationId: 'banUser',
        summary: 'Ban a user, for some days or permanently',
        description:
          'A reason is required; `durationDays: null` bans permanently. The grant\'s `maxBanDays` restriction caps the duration (403 `bans.duration_over_limit`, a permanent ban included). ' +
          'The Owner cannot be banned and nobody bans an employee of equal or higher rank (403). One ban in force per user (409 `bans.already_banned`, also under concurrent requests). ' +
          'From then on the user gets 403 `auth.banned` on every authenticated route but `GET /api/bans/me` and `POST /api/bans/{id}/appeal`; the ban ends by itself. Audit-logged.',
        params: IdParams,
        body: BanBody,
        response: { 201: Type.Ref('Ban'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.banUser(services, auditContextOf(request), principalOf(request), request.grantRestrictions, request.params.id, request.body, now(), invalidate)),
  );

  app.get(
    '/api/admin/bans',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags,
        operationId: 'listBans',
        summary: 'Bans, newest first',
        description: 'Filters: `status` (`active` in force, `expired` ended by itself, `lifted`), `userId`, `bannedBy`. Each ban carries its appeal.',
        querystring: BansQuery,
        response: { 200: { ...Type.Array(Type.Ref('Ban'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.listBans(services, { status: BanStatusFilterEnum.fromApi(request.query.status), userId: request.query.userId, bannedBy: request.query.bannedBy }, page, now()),
      ),
  );

  app.get(
    '/api/admin/bans/:id',
    {
      config: { access: { permission: 'Users.View' } },
      schema: { tags, operationId: 'getBan', summary: 'A ban with its appeal', params: IdParams, response: { 200: Type.Ref('Ban'), ...errorResponses(404) } },
    },
    async (request) => service.getBan(services, request.params.id, now()),
  );

  app.post(
    '/api/admin/bans/:id/lift',
    {
      config: { access: { permission: 'Users.Unban' } },
      schema: {
        tags,
        operationId: 'liftBan',
        summary: 'Lift a ban in force (unban)',
        description: 'A reason is required. 409 `bans.ban_not_in_force` when the ban already ended or was lifted. The user may sign in and act at once. Audit-logged.',
        params: IdParams,
        body: LiftBody,
        response: { 200: Type.Ref('Ban'), ...errorResponses(404, 409) },
      },
    },
    async (request) => service.liftBan(services, auditContextOf(request), request.params.id, request.body.reason, now(), invalidate),
  );

  app.get(
    '/api/admin/ban-appeals',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags,
        operationId: 'listBanAppeals',
        summary: 'Ban appeals, newest first, with their bans',
        description: 'Filter by `status` (`Open`, `Upheld`, `Overturned`). Each item is the appealed ban, its `appeal` set.',
        querystring: AppealsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Ban'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listAppeals(services, { status: request.query.status }, page, now())),
  );

  app.post(
    '/api/admin/ban-appeals/:id/decide',
    {
      config: { access: { permission: 'Users.Unban' } },
      schema: {
        tags,
        operationId: 'decideBanAppeal',
        summary: 'Decide an open appeal: Upheld or Overturned, with a reply the user reads',
        description:
          'Someone other than the employee who issued the ban decides (403 `bans.decider_is_banner`). `Overturned` lifts the ban at once. 409 when already decided (concurrent decisions: one wins). Audit-logged with the reply.',
        params: IdParams,
        body: DecideBody,
        response: { 200: Type.Ref('Ban'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.decideAppeal(services, auditContextOf(request), principalOf(request), request.params.id, request.body, now(), invalidate),
  );
};
