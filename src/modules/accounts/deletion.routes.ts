import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { bearerToken } from '../../core/auth/authenticate.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { serviceDeps } from '../../core/service-deps.js';
import { ACCOUNTS_ERASE } from './accounts.jobs.js';
import { AccountDeletion, AccountDeletionsQuery, AdminAccountDeletion, DeletionRequestBody, LegalHoldBody, UserIdParams } from './deletion.schemas.js';
import type { DeletionFilter } from './deletion.repository.js';
import * as service from './deletion.service.js';

/** Deleting one's account (/api/account/deletion, DELETE /api/userprofile/me) and its administration (/api/admin/account-deletions). */
export const deletionRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const deletionDeps: service.DeletionDeps = { ...services, idp: deps.idp, settings: deps.settings, log: app.log, invalidate: (sub) => deps.authenticator.invalidate(sub) };
  const now = () => new Date(deps.now());
  app.addSchema(AccountDeletion);
  app.addSchema(AdminAccountDeletion);
  deps.jobs.work(ACCOUNTS_ERASE, () => service.eraseDueAccounts(deletionDeps, now()));

  // Reading and cancelling one's deletion works while it is pending (the account is deactivated
  // then) and while banned: a person may always leave, and a ban outlives the account anyway.
  const own = { allowBanned: true, allowPendingDeletion: true };
  const requestDescription =
    'Proof that it is you: your password again (`password`), or a sign-in (POST /api/auth/login) under 5 minutes old; else 403 ' +
    '`accounts.reauthentication_required` (or `accounts.password_incorrect`). At once: every sign-in of yours ends, the account is ' +
    'deactivated and your content (entries, catches, posts, comments, spots, reports, profile, photos) leaves every other person’s view. ' +
    'You may still sign in to read (GET /api/account/deletion, `pendingDeletion` of GET /api/userprofile/me) or cancel the deletion ' +
    '(DELETE /api/account/deletion) until `eraseAfter` (system setting AccountDeletionGraceDays, default 30 days); every other route answers ' +
    '403 `auth.deletion_pending` meanwhile. Then the account is erased: what is deleted, and what is kept detached from you (tournament ' +
    'results, charter bookings and payments, published Master Angler awards, bans) and why: docs/guide/accounts-and-access.md. ' +
    '202 when scheduled; 200 with the same deletion when one is pending already (asking twice schedules one). The Owner’s account cannot be deleted (409).';
  const requestSchema = (operationId: string, summary: string) => ({
    tags: ['account'],
    operationId,
    summary,
    description: requestDescription,
    body: DeletionRequestBody,
    response: {
      200: Type.Ref('AccountDeletion', { description: 'A deletion was pending already: it, unchanged' }),
      202: Type.Ref('AccountDeletion', { description: 'Scheduled: erased at `eraseAfter` unless cancelled' }),
      403: Type.Ref('Problem', {
        description:
          'Not proven to be you: `accounts.reauthentication_required` (no password and the sign-in is over 5 minutes old), `accounts.password_incorrect`, ' +
          '`accounts.password_not_accepted`; or the account is deactivated by the administrators (`auth.account_deactivated`)',
      }),
      409: Type.Ref('Problem', { description: 'The Owner’s account (`accounts.owner_cannot_be_deleted`): give the Owner role to another account first' }),
      429: Type.Ref('Problem', { description: 'Too many wrong passwords (`auth.login_throttled`, Retry-After), counted with the sign-ins' }),
    },
  });
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as Static<typeof DeletionRequestBody>;
    const { created, deletion } = await service.requestDeletion(
      deletionDeps,
      auditContextOf(request),
      principalOf(request),
      { password: body.password, idToken: bearerToken(request.headers.authorization), ip: request.ip },
      now(),
    );
    return reply.code(created ? 202 : 200).send(deletion);
  };

  // The body may be left out (a fresh sign-in needs no password): it is read as `{}` then.
  const emptyBody = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    request.body ??= {};
    done();
  };
  app.post(
    '/api/account/deletion',
    { config: own, preValidation: emptyBody, schema: requestSchema('requestAccountDeletion', 'Delete your account (after a grace period)') },
    handler,
  );
  app.delete(
    '/api/userprofile/me',
    { config: own, preValidation: emptyBody, schema: requestSchema('deleteMyAccount', 'Delete your account (after a grace period); the same as POST /api/account/deletion') },
    handler,
  );

  app.get(
    '/api/account/deletion',
    {
      config: own,
      schema: {
        tags: ['account'],
        operationId: 'getAccountDeletion',
        summary: 'Your pending account deletion',
        description: 'When your account will be erased (`eraseAfter`); 404 `accounts.no_pending_deletion` when none is pending.',
        response: { 200: Type.Ref('AccountDeletion'), ...errorResponses(404) },
      },
    },
    async (request) => service.getDeletion(services, principalOf(request).userId),
  );

  app.delete(
    '/api/account/deletion',
    {
      config: own,
      schema: {
        tags: ['account'],
        operationId: 'cancelAccountDeletion',
        summary: 'Cancel your pending account deletion',
        description:
          'Until `eraseAfter`: the account is active again and your content shows again to whom it is shared with, at once. Sign in again first if ' +
          'your tokens have ended (asking for the deletion signed you out everywhere). 404 `accounts.no_pending_deletion` when none is pending.',
        response: { 200: Type.Ref('AccountDeletion', { description: 'The deletion, now Cancelled' }), ...errorResponses(404) },
      },
    },
    async (request) => service.cancelDeletion(deletionDeps, auditContextOf(request), principalOf(request), now()),
  );

  const adminTags = ['admin: users'];
  app.get(
    '/api/admin/account-deletions',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags: adminTags,
        operationId: 'listAccountDeletions',
        summary: 'Account deletions, newest request first',
        description: 'Filters: `status` (default `Pending`), `legalHold`, `dueBefore` (erasure due by then).',
        querystring: AccountDeletionsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminAccountDeletion'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filter: DeletionFilter = { status: q.status ?? 'Pending', legalHold: q.legalHold, dueBefore: q.dueBefore ? new Date(q.dueBefore) : undefined };
      return paginate(request, reply, q, (page) => service.listDeletions(services, filter, page));
    },
  );

  const holdSchema = (operationId: string, summary: string, description: string) => ({
    tags: adminTags,
    operationId,
    summary,
    description,
    params: UserIdParams,
    body: LegalHoldBody,
    response: {
      200: Type.Ref('AdminAccountDeletion'),
      404: Type.Ref('Problem', { description: 'No pending deletion of this user (`accounts.deletion_not_found`)' }),
      409: Type.Ref('Problem', { description: 'On hold already (`accounts.already_on_legal_hold`), or not on hold (`accounts.not_on_legal_hold`)' }),
    },
  });
  app.post(
    '/api/admin/account-deletions/:userId/legal-hold',
    {
      config: { access: { permission: 'Users.LegalHold' } },
      schema: holdSchema(
        'placeLegalHold',
        'Put a pending account deletion on legal hold',
        'Owner only (`Users.LegalHold`, also spelt `users.legalhold`). Erasure waits until the hold is lifted, even past `eraseAfter`; the person may still cancel. Audit-logged with the reason.',
      ),
    },
    async (request) => service.setLegalHold(services, auditContextOf(request), request.params.userId, true, request.body.reason, now()),
  );
  app.post(
    '/api/admin/account-deletions/:userId/legal-hold/lift',
    {
      config: { access: { permission: 'Users.LegalHold' } },
      schema: holdSchema(
        'liftLegalHold',
        'Lift the legal hold of a pending account deletion',
        'Owner only (`Users.LegalHold`). The erasure job erases the account at its next run when `eraseAfter` has passed. Audit-logged with the reason.',
      ),
    },
    async (request) => service.setLegalHold(services, auditContextOf(request), request.params.userId, false, request.body.reason, now()),
  );
};
