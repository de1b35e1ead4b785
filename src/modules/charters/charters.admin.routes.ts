import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { paymentsOf } from '../payments/payments.service.js';
import { Captain, CaptainsQuery, RequiredReasonBody, ReviewBody, UserIdParams } from './charters.schemas.js';
import * as service from './charters.service.js';

/** /api/admin/charter/captains: verifying captain applications (Admin/Owner), audit-logged. */
export const chartersAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const ctx: service.ChartersDeps = { ...serviceDeps(deps), payments: paymentsOf(deps) };
  app.addSchema(Captain);
  const tags = ['admin: charters'];
  const config = { access: 'admin' as const };
  const captain = Type.Ref('CharterCaptain');

  app.get(
    '/api/admin/charter/captains',
    {
      config,
      schema: { tags, operationId: 'adminListCharterCaptains', summary: 'Captain applications', description: 'Oldest first; `status=Pending` is the verification queue.', querystring: CaptainsQuery, response: { 200: { ...Type.Array(captain), headers: paginationHeaders } } },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listCaptains(ctx, request.query.status, page)),
  );

  app.get(
    '/api/admin/charter/captains/:userId',
    { config, schema: { tags, operationId: 'adminGetCharterCaptain', summary: 'One captain application', params: UserIdParams, response: { 200: captain, ...errorResponses(404) } } },
    async (request) => service.getCaptain(ctx, request.params.userId),
  );

  app.post(
    '/api/admin/charter/captains/:userId/verify',
    {
      config,
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: { tags, operationId: 'adminVerifyCharterCaptain', summary: 'Verify a pending application', description: 'The captain may then publish listings. Audit-logged.', params: UserIdParams, body: ReviewBody, response: { 200: captain, ...errorResponses(404, 409) } },
    },
    async (request) => service.reviewCaptain(ctx, auditContextOf(request), request.params.userId, 'Verified', request.body.reason),
  );

  app.post(
    '/api/admin/charter/captains/:userId/reject',
    {
      config,
      schema: { tags, operationId: 'adminRejectCharterCaptain', summary: 'Reject a pending application', description: 'A reason is required; the captain may re-apply. Audit-logged.', params: UserIdParams, body: RequiredReasonBody, response: { 200: captain, ...errorResponses(404, 409) } },
    },
    async (request) => service.reviewCaptain(ctx, auditContextOf(request), request.params.userId, 'Rejected', request.body.reason),
  );
};
