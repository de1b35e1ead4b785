import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { feedHeaders, paginateFeed } from '../../core/http/pagination.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import * as likes from './likes.service.js';
import { UserRef } from '../users/index.js';
import { CreatePostBody, FeedQuery, LikeState, LinkedCatch, LinkedEntry, Post, ReplacePostBody } from './posts.schemas.js';
import * as service from './posts.service.js';

export const postsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [UserRef, LinkedEntry, LinkedCatch, Post, LikeState]) app.addSchema(schema);
  const tags = ['social: posts'];

  app.get(
    '/api/social/posts',
    {
      schema: {
        tags,
        operationId: 'listPosts',
        summary: 'The feed: posts you may see, newest first',
        description:
          'Published posts of others that are Public, from your friends (Friends) or from users whose circle you are in (Circle), and your own posts in any moderation status. `authorId` narrows it to one author. ' +
          '`scope=friends`: only your friends\' published posts you may see (the "Following" feed: no stranger\'s Public posts, not your own). ' +
          'Paging: the `next` link of the Link header carries a `cursor` (keyset pagination); `page` reaches the first 10,000 rows. No X-Total-Count: counting a feed costs more than its page.',
        querystring: FeedQuery,
        response: { 200: { ...Type.Array(Type.Ref('Post')), headers: feedHeaders } },
      },
    },
    async (request, reply) =>
      paginateFeed(request, reply, request.query, (page) => service.listFeed(services, principalOf(request).userId, { authorId: request.query.authorId, scope: request.query.scope }, page)),
  );

  app.post(
    '/api/social/posts',
    {
      schema: {
        tags,
        operationId: 'createPost',
        summary: 'Create a post',
        description:
          'Moderation runs first: a clean post is Published; a flagged one is PendingReview (only you see it until a moderator decides); one that breaks a rejecting rule is Rejected with the reason. ' +
          'A post may link one of your fishing-log entries or catches; others see the link only as far as that entry is visible to them.',
        body: CreatePostBody,
        response: { 201: Type.Ref('Post') },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createPost(services, principalOf(request).userId, request.body, request.log)),
  );

  app.get(
    '/api/social/posts/:id',
    {
      schema: {
        tags,
        operationId: 'getPost',
        summary: 'One post',
        description: 'Visible to its author in any status; to others once published, as its visibility allows (403 otherwise).',
        params: IdParams,
        response: { 200: Type.Ref('Post'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getPost(services, principalOf(request).userId, request.params.id),
  );

  const edited = 'Author only. A change of text or photos is moderated again (as on creation); after a moderator rejected the post, an edit goes back to review.';

  app.put(
    '/api/social/posts/:id',
    {
      schema: {
        tags,
        operationId: 'replacePost',
        summary: 'Replace your post',
        description: `Send the whole post: \`text\` and \`visibility\` are required (a missing field is a 400 naming it); omitted photos and links become none. ${edited}`,
        params: IdParams,
        body: ReplacePostBody,
        response: { 200: Type.Ref('Post'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.updatePost(services, principalOf(request).userId, request.params.id, { replace: request.body }, request.log),
  );

  app.patch(
    '/api/social/posts/:id',
    {
      schema: {
        tags,
        operationId: 'updatePost',
        summary: 'Change some fields of your post',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change; `null` clears a link and is a 400 naming a required field. ' +
          `Linking an entry removes a linked catch and the other way round. ${edited}`,
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(ReplacePostBody, { examples: [{ visibility: 'Friends' }, { text: 'Edited: it was a 24-inch walleye', catchId: null }] }),
        response: { 200: Type.Ref('Post'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.updatePost(services, principalOf(request).userId, request.params.id, { patch: request.body }, request.log),
  );

  app.delete(
    '/api/social/posts/:id',
    {
      schema: {
        tags,
        operationId: 'deletePost',
        summary: 'Delete your post',
        description: 'Author only. Removes its likes and comments too.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deletePost(services, principalOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/social/posts/:id/like',
    {
      schema: {
        tags,
        operationId: 'likePost',
        summary: 'Like a post',
        description: 'Idempotent: liking twice counts once. The post must be visible to you (403) and published (409).',
        params: IdParams,
        response: { 200: Type.Ref('LikeState'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => likes.like(services, principalOf(request).userId, request.params.id),
  );

  app.delete(
    '/api/social/posts/:id/like',
    {
      schema: {
        tags,
        operationId: 'unlikePost',
        summary: 'Take back your like',
        description: 'Idempotent: 200 also when you had not liked it.',
        params: IdParams,
        response: { 200: Type.Ref('LikeState'), ...errorResponses(403, 404) },
      },
    },
    async (request) => likes.unlike(services, principalOf(request).userId, request.params.id),
  );
};
