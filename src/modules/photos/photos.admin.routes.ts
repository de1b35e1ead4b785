import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UserRef } from '../users/index.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { DecisionBody, PhotoDecision, PhotoQueueItem, PhotoQueueQuery } from './photos.admin.schemas.js';
import * as service from './photos.admin.service.js';
import { PhotoBytes, PhotoFileParams, PhotoParams } from './photos.schemas.js';
import type { PhotoDeps, PhotoSize } from './photos.service.js';
import { sendPhotoFile } from './photos.reply.js';

/**
 * The review queue of post and fishing report photos (held or rejected by the moderation
 * provider) and the decisions, with the permissions of the posts' and comments' queue
 * (src/modules/moderation/moderation.admin.routes.ts): Content.Moderate or Content.Approve to list
 * and look (whoever may act on a queue reads what awaits them), moderation.approve,
 * moderation.reject to decide. Registered by photosRoutes (same storage).
 */
export const adminPhotosRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps; photoDeps: PhotoDeps }> = async (app, { deps, photoDeps }) => {
  const services = serviceDeps(deps);
  app.addSchema(UserRef);
  app.addSchema(PhotoQueueItem);
  app.addSchema(PhotoDecision);
  const tags = ['admin: moderation'];

  app.get(
    '/api/admin/photos/review',
    {
      config: { access: { anyPermission: ['Content.Moderate', 'Content.Approve'] } },
      schema: {
        tags,
        operationId: 'listPhotoReviewQueue',
        summary: 'The photo review queue: post and fishing report photos held or rejected by moderation, newest first',
        description:
          'Filter by `state` (PendingReview, Rejected; default both) and `kind` of record (Post, FishingReport). Each item names the record the photo is on ' +
          '(kind, id, API path, its place among the record’s photos), its owner and its size; `displayUrl`/`thumbnailUrl` show it to moderators whatever its status. Audit-logged.',
        querystring: PhotoQueueQuery,
        response: { 200: { ...Type.Array(Type.Ref('PhotoQueueItem')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listQueue(services, auditContextOf(request), { state: request.query.state, kind: request.query.kind }, page)),
  );

  app.get(
    '/api/admin/photos/:id/:size',
    {
      config: { access: { anyPermission: ['Content.Moderate', 'Content.Approve'] } },
      schema: {
        tags,
        operationId: 'getPhotoForReview',
        summary: 'A post or fishing report photo’s display size or thumbnail, for review',
        description: 'Whatever its moderation status (readers get a 404 for a photo not published). 404 for an unknown photo or one of a record that is not moderated. `Cache-Control: private, no-cache`.',
        params: PhotoFileParams,
        response: { 200: PhotoBytes, 302: Type.Null({ description: 'Redirect to a presigned URL of the file (S3 storage with presigned reads)' }), ...errorResponses(403, 404) },
      } as never,
    },
    async (request, reply) => {
      const { id, size } = request.params as { id: string; size: PhotoSize };
      return sendPhotoFile(reply, await service.readForReview(photoDeps, id, size));
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/api/admin/photos/:id/${decision}`,
      {
        config: { access: { permission: decision === 'approve' ? 'moderation.approve' : 'moderation.reject' } },
        schema: {
          tags,
          operationId: decision === 'approve' ? 'approvePhoto' : 'rejectPhoto',
          summary: decision === 'approve' ? 'Approve a held or rejected photo: publish it' : 'Reject a photo: take it down',
          description:
            decision === 'approve'
              ? 'Publishes a post or fishing report photo that moderation held or rejected: its record’s readers see it. 409 `photos.already_published` when it is. The reason is kept in the audit log.'
              : 'Takes a held or published post or fishing report photo down: a 404 for everyone but its owner (who sees it Rejected in the record’s view). 409 `photos.already_rejected` when it is. The reason is kept in the audit log.',
          params: PhotoParams,
          body: DecisionBody,
          response: { 200: Type.Ref('PhotoDecision'), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => service.decide(services, auditContextOf(request), request.params.id, decision, request.body.reason.trim()),
    );
  }
};
