import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { FeatureBody } from '../../core/db/featured.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminClub, AdminClubsQuery, Club } from './clubs.schemas.js';
import * as admin from './clubs.admin.service.js';
import * as service from './clubs.service.js';

/** /api/admin/clubs: the list of every club, and deactivate, reactivate and feature (Admin and Owner); the actions audit-logged. */
export const clubsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Club);
  app.addSchema(AdminClub);
  const tags = ['admin: clubs'];
  const config = { access: 'admin' as const };
  const response = { 200: Type.Ref('Club'), ...errorResponses(400, 401, 403, 404, 409) };

  app.get(
    '/api/admin/clubs',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListClubs',
        summary: 'List clubs with usage statistics',
        description:
          'Every club, newest first: deactivated ones (`status` Active, Inactive or All, the default) and those whose owner’s account is deactivated or being deleted; ' +
          'filters `q` (name, description or home water), `state`, `privacy`, `featured`. Each with its usage (members, admins, pending requests), its deactivation and its featuring window.',
        querystring: AdminClubsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminClub'), { maxItems: 100 }), headers: paginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.adminListClubs(services, request.query, page)),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/clubs',
    access: config.access,
    tags,
    noun: 'club',
    response: Type.Ref('Club'),
    deactivationEffect: 'The club leaves the lists; members keep their memberships.',
    handler: (request, id, active, reason) => service.setClubActive(services, auditContextOf(request), principalOf(request), id, active, reason),
  });

  app.post(
    '/api/admin/clubs/:id/feature',
    { config, schema: { tags, operationId: 'adminFeatureClub', summary: 'Feature a club for a time window (listed first)', params: IdParams, body: FeatureBody, response } },
    async (request) => service.featureClub(services, auditContextOf(request), principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/clubs/:id/feature',
    { config, schema: { tags, operationId: 'adminUnfeatureClub', summary: 'Stop featuring a club', params: IdParams, response } },
    async (request) => service.featureClub(services, auditContextOf(request), principalOf(request), request.params.id, null),
  );
};
