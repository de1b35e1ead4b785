import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UserRef } from '../users/index.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { ApproveBody, ContentTypeEnum, Decision, PendingQuery, QueueItem, RejectBody } from './moderation.admin.schemas.js';
import * as service from './moderation.admin.service.js';
import { observeModeration } from './moderation.service.js';
import { serviceDeps } from '../../core/service-deps.js';

export const adminModerationRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const review = serviceDeps(deps);
  observeModeration(services, deps.metrics.registry);
  app.addSchema(UserRef);
  app.addSchema(QueueItem);
  app.addSchema(Decision);
  const tags = ['admin: moderation'];

  app.get(
    '/api/admin/moderation/pending',
    {
      config: { access: { anyPermission: ['Content.Moderate', 'Content.Approve'] } },
      schema: {
        tags,
        operationId: 'listModerationQueue',
        summary: 'The review queue: posts and comments held by moderation, oldest first',
        description: "Each item carries the provider's categories and scores, the rules that matched and why it was held. Audit-logged.",
        querystring: PendingQuery,
        response: { 200: { ...Type.Array(Type.Ref('ModerationQueueItem')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listPending(review, auditContextOf(request), { contentType: ContentTypeEnum.fromApi(request.query.contentType) }, page)),
  );

  for (const contentType of ['post', 'comment'] as const) {
    app.post(
      `/api/admin/moderation/${contentType}/:id/approve`,
      {
        config: { access: { permission: 'moderation.approve' } },
        schema: {
          tags,
          operationId: contentType === 'post' ? 'approvePost' : 'approveComment',
          summary: `Approve a ${contentType}: publish it`,
          description: `Publishes a held or rejected ${contentType}; its author sees it published. 409 when it already is. The body (a note for the audit log) may be left out. Audit-logged.`,
          params: IdParams,
          body: ApproveBody,
          response: { 200: Type.Ref('ModerationDecision'), ...errorResponses(404, 409) },
        },
        // The body is optional: a bare POST approves without a note.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => service.decide(review, auditContextOf(request), contentType, request.params.id, 'approve', request.body.note ?? null),
    );

    app.post(
      `/api/admin/moderation/${contentType}/:id/reject`,
      {
        config: { access: { permission: 'moderation.reject' } },
        schema: {
          tags,
          operationId: contentType === 'post' ? 'rejectPost' : 'rejectComment',
          summary: `Reject a ${contentType}, with a reason`,
          description: `Takes a held or published ${contentType} down; only its author still sees it, with the reason. 409 when it already is rejected. Audit-logged.`,
          params: IdParams,
          body: RejectBody,
          response: { 200: Type.Ref('ModerationDecision'), ...errorResponses(404, 409) },
        },
      },
      async (request) => service.decide(review, auditContextOf(request), contentType, request.params.id, 'reject', request.body.reason.trim()),
    );
  }
};
