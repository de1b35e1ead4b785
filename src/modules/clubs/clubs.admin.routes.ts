import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { FeatureBody } from '../../core/db/featured.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Club } from './clubs.schemas.js';
import * as service from './clubs.service.js';

/** /api/admin/clubs: deactivate, reactivate and feature clubs (Admin and Owner); audit-logged. */
export const clubsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Club);
  const tags = ['admin: clubs'];
  const config = { access: 'admin' as const };
  const response = { 200: Type.Ref('Club'), ...errorResponses(400, 401, 403, 404, 409) };

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
