import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminReportsQuery, FishingReport, NoteBody, RejectBody } from './fishing-reports.schemas.js';
import * as service from './fishing-reports.service.js';

/**
 * /api/admin/fishing-reports: the moderators' review of fishing reports held by moderation, with
 * the same permissions as posts and comments (moderation.approve = Content.Approve,
 * moderation.reject = Content.Moderate). Decisions are audit-logged.
 */
export const fishingReportsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(FishingReport);
  const tags = ['admin: fishing reports'];

  app.get(
    '/api/admin/fishing-reports',
    {
      config: { access: { permission: 'moderation.approve' } },
      schema: {
        tags,
        operationId: 'adminListFishingReports',
        summary: 'Fishing reports by moderation status (default: held for review)',
        description: 'Oldest first. Includes the rejection reason of rejected ones.',
        querystring: AdminReportsQuery,
        response: { 200: { ...Type.Array(Type.Ref('FishingReport')), headers: paginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listForReview(services, principalOf(request), (request.query.status ?? 'PendingReview') as never, page)),
  );

  app.post(
    '/api/admin/fishing-reports/:id/approve',
    {
      config: { access: { permission: 'moderation.approve' } },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        operationId: 'adminApproveFishingReport',
        summary: 'Publish a held or rejected fishing report',
        description: '409 when it is published already. Audit-logged (the optional note with it).',
        params: IdParams,
        body: NoteBody,
        response: { 200: Type.Ref('FishingReport'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.decide(services, auditContextOf(request), principalOf(request), request.params.id, 'approve', request.body.note ?? null),
  );

  app.post(
    '/api/admin/fishing-reports/:id/reject',
    {
      config: { access: { permission: 'moderation.reject' } },
      schema: {
        tags,
        operationId: 'adminRejectFishingReport',
        summary: 'Reject a fishing report, with a reason shown to its author',
        description: 'Only its author still sees it, with the reason. 409 when it is rejected already. Audit-logged.',
        params: IdParams,
        body: RejectBody,
        response: { 200: Type.Ref('FishingReport'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.decide(services, auditContextOf(request), principalOf(request), request.params.id, 'reject', request.body.reason.trim()),
  );
};
