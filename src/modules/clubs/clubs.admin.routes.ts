import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { AdminReasonBody, FeatureBody } from '../../core/db/featured.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Club } from './clubs.schemas.js';
import * as service from './clubs.service.js';

/** /api/admin/clubs: deactivate, reactivate and feature clubs (Admin and Owner); audit-logged. */
export const clubsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = deps.database.db;
  app.addSchema(Club);
  const tags = ['admin: clubs'];
  const config = { access: 'admin' as const };
  const response = { 200: Type.Ref('Club'), ...errorResponses(400, 401, 403, 404, 409) };

  for (const active of [false, true]) {
    app.post(
      `/api/admin/clubs/:id/${active ? 'reactivate' : 'deactivate'}`,
      {
        config,
        schema: {
          tags,
          operationId: active ? 'adminReactivateClub' : 'adminDeactivateClub',
          summary: active ? 'Reactivate a club' : 'Deactivate a club (it leaves the lists; members keep their memberships)',
          description: '409 when it already is. Reason required. Audit-logged.',
          params: IdParams,
          body: AdminReasonBody,
          response,
        },
      },
      async (request) => service.setClubActive(db, auditContextOf(request), principalOf(request), request.params.id, active, request.body.reason),
    );
  }

  app.post(
    '/api/admin/clubs/:id/feature',
    { config, schema: { tags, operationId: 'adminFeatureClub', summary: 'Feature a club for a time window (listed first)', params: IdParams, body: FeatureBody, response } },
    async (request) => service.featureClub(db, auditContextOf(request), principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/clubs/:id/feature',
    { config, schema: { tags, operationId: 'adminUnfeatureClub', summary: 'Stop featuring a club', params: IdParams, response } },
    async (request) => service.featureClub(db, auditContextOf(request), principalOf(request), request.params.id, null),
  );
};
