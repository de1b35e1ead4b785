import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { roleValue } from '../../core/access/roles.js';
import type { AppDeps } from '../../core/app-deps.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { AdminUser, UsersQuery, UserStatusFilterEnum } from './users.admin.schemas.js';
import * as service from './users.admin.service.js';

/** The user administration under /api/admin/users: the list (bans: bans.admin.routes.ts; one user's details, role and timeline: the user-details module). */
export const usersAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  app.addSchema(AdminUser);
  const tags = ['admin: users'];

  app.get(
    '/api/admin/users',
    {
      config: { access: { permission: 'Users.View' } },
      schema: {
        tags,
        operationId: 'listUsers',
        summary: 'Users, with role, status and last sign-in',
        description:
          'Filters: `role`, `status` (`active`, `banned`: a ban in force, `disabled`: deactivated or disabled in the identity provider), ' +
          '`createdFrom`/`createdTo`, `q` (start of the username or e-mail, any case). `sort`: `-createdAt` (default), `createdAt`, `username`, `-username`.',
        querystring: UsersQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminUser'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filter = {
        role: q.role === undefined ? undefined : roleValue(q.role),
        status: UserStatusFilterEnum.fromApi(q.status),
        createdFrom: q.createdFrom ? new Date(q.createdFrom) : undefined,
        createdTo: q.createdTo ? new Date(q.createdTo) : undefined,
        q: q.q?.trim() || undefined,
      };
      return paginate(request, reply, q, (page) => service.listUsers(services, filter, q.sort ?? '-createdAt', page, now()));
    },
  );
};
