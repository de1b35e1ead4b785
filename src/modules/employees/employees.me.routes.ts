import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { serviceDeps } from '../../core/service-deps.js';
import { MyAccess } from './employees.me.schemas.js';
import { myAccess } from './employees.me.service.js';

export const employeesMeRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(MyAccess);

  app.get(
    '/api/admin/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['admin: employees'],
        operationId: 'getMyAccess',
        summary: "The caller's role and effective permissions",
        description:
          'What the access rules let the signed-in caller do: role, whether the Admin-only and Owner-only routes admit them, and every ' +
          'permission they hold (by role, or granted to a Moderator) with the restrictions of its grant (maxBanDays …). Any signed-in ' +
          'user may ask; a Standard, DNR or Researcher user gets `staff: false` and no permissions. A client uses it to show only what ' +
          'the caller may do; each route still decides for itself.',
        response: { 200: Type.Ref('MyAccess') },
      },
    },
    async (request) => myAccess(services, principalOf(request)),
  );
};
