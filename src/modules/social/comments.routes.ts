import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UserRef } from '../users/index.js';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Comment, CommentBody, CommentsQuery } from './comments.schemas.js';
import * as service from './comments.service.js';

export const commentsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(UserRef);
  app.addSchema(Comment);
  const tags = ['social: posts'];

  app.get(
    '/api/social/posts/:id/comments',
    {
      schema: {
        tags,
        operationId: 'listComments',
        summary: "A post's comments, oldest first",
        description: 'Needs the post visible to you (403). Shows published comments, and your own in any moderation status.',
        params: IdParams,
        querystring: CommentsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Comment')), headers: paginationHeaders }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listComments(services, principalOf(request).userId, request.params.id, page)),
  );

  app.post(
    '/api/social/posts/:id/comments',
    {
      schema: {
        tags,
        operationId: 'createComment',
        summary: 'Comment on a post',
        description: 'Needs the post visible to you (403) and published (409). Moderated like a post: Published, PendingReview or Rejected.',
        params: IdParams,
        body: CommentBody,
        response: { 201: Type.Ref('Comment'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addComment(services, principalOf(request).userId, request.params.id, request.body.text, request.log)),
  );

  app.put(
    '/api/social/comments/:id',
    {
      schema: {
        tags,
        operationId: 'updateComment',
        summary: 'Edit your comment',
        description: 'Author only; the new text is moderated again.',
        params: IdParams,
        body: CommentBody,
        response: { 200: Type.Ref('Comment'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.updateComment(services, principalOf(request).userId, request.params.id, request.body.text, request.log),
  );

  app.delete(
    '/api/social/comments/:id',
    {
      schema: {
        tags,
        operationId: 'deleteComment',
        summary: 'Delete a comment',
        description: 'Its author, or the author of the post it is on.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteComment(services, principalOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
