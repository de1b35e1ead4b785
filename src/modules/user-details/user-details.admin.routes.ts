import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Appeal, Ban } from '../users/index.js';
import { AdminUserDetails, RoleChangeBody, TimelineItem, TimelineQuery } from './user-details.admin.schemas.js';
import * as service from './user-details.admin.service.js';

/** One user in the administration under /api/admin/users/{id}: details, role, activity timeline (the list and bans: the users module). */
export const userDetailsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  app.addSchema(Appeal);
  app.addSchema(Ban);
  app.addSchema(AdminUserDetails);
  app.addSchema(TimelineItem);
  const tags = ['admin: users'];

  app.get(
    '/api/admin/users/:id',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags,
        operationId: 'getAdminUser',
        summary: 'A user: profile, role, status, activity counts, bans, last sign-in',
        description: 'Counts come from the modules that own them (fishing log, social, bans, sign-ins) in a fixed number of queries.',
        params: IdParams,
        response: { 200: Type.Ref('AdminUserDetails'), ...errorResponses(404) },
      },
    },
    async (request) => service.getUser(services, request.params.id, now()),
  );

  app.put(
    '/api/admin/users/:id/role',
    {
      config: { access: { permission: 'Users.ChangeRole' } },
      schema: {
        tags,
        operationId: 'setUserRole',
        summary: "Change a user's role (with a reason)",
        description:
          'Between Standard, DNR and Researcher with `Users.ChangeRole`. To or from Admin and Moderator it is employee management: the Owner only (403 `users.employee_role_owner_only`). ' +
          "The Owner role is neither given nor taken here (403 / 409 `users.owner_role_protected`); the last Admin who can sign in cannot be demoted (409 `users.last_admin`). Audit-logged with the reason.",
        params: IdParams,
        body: RoleChangeBody,
        response: { 200: Type.Ref('AdminUserDetails'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) =>
      service.setRole(services, auditContextOf(request), principalOf(request), request.params.id, request.body, now(), (sub) => deps.authenticator.invalidate(sub)),
  );

  app.get(
    '/api/admin/users/:id/activity-timeline',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags,
        operationId: 'getUserActivityTimeline',
        summary: 'What the user did, newest first',
        description:
          'Entries, catches, posts, comments, reports filed, sign-ins, bans and lifts, role changes (from the audit log), in time order, paginated. ' +
          'Ids, entry titles, statuses and reasons only: no text of posts, comments or notes.',
        params: IdParams,
        querystring: TimelineQuery,
        response: { 200: { ...Type.Array(Type.Ref('TimelineItem'), { maxItems: 100 }), headers: paginationHeaders }, ...errorResponses(404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.timeline(services, request.params.id, page, now())),
  );
};
