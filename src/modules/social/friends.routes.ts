import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { CircleMember, CircleQuery, CircleUserParams, Friend, FriendIdParams, FriendsQuery } from './friends.schemas.js';
import * as service from './friends.service.js';

export const friendsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Friend);
  app.addSchema(CircleMember);
  const tags = ['social: friends'];

  app.get(
    '/api/social/friends',
    {
      schema: {
        tags,
        operationId: 'listFriends',
        summary: 'Your friends, or your pending friend requests',
        description: 'Without `status`: friends in force (both added each other), newest friendship first. `status=PendingIncoming` lists requests to you, `PendingOutgoing` yours.',
        querystring: FriendsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Friend')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listFriends(services, principalOf(request).userId, request.query.status ?? 'Friends', page)),
  );

  app.post(
    '/api/social/friends/:friendId',
    {
      schema: {
        tags,
        operationId: 'addFriend',
        summary: 'Add a friend (or accept their request)',
        description:
          'A friendship is in force once both users added each other; until then it is a pending request. 201 when the request is new, 200 when you had already added this user (idempotent).',
        params: FriendIdParams,
        response: { 200: Type.Ref('Friend'), 201: Type.Ref('Friend'), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { created, friend } = await service.addFriend(services, principalOf(request).userId, request.params.friendId);
      return reply.code(created ? 201 : 200).send(friend);
    },
  );

  app.delete(
    '/api/social/friends/:friendId',
    {
      schema: {
        tags,
        operationId: 'removeFriend',
        summary: 'Remove a friend, cancel or decline a request',
        description: 'Ends the friendship for both users and removes each from the other’s circle. Idempotent: 204 also when there was nothing to remove.',
        params: FriendIdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.removeFriend(services, principalOf(request).userId, request.params.friendId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/social/circle',
    {
      schema: {
        tags,
        operationId: 'listCircle',
        summary: 'Your circle',
        description: 'The friends who see records you share with `Circle` visibility.',
        querystring: CircleQuery,
        response: { 200: { ...Type.Array(Type.Ref('CircleMember')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listCircle(services, principalOf(request).userId, page)),
  );

  app.post(
    '/api/social/circle/:userId',
    {
      schema: {
        tags,
        operationId: 'addToCircle',
        summary: 'Put a friend in your circle',
        description: 'Only friends in force can join (409 otherwise). 201 when added, 200 when already there.',
        params: CircleUserParams,
        response: { 200: Type.Ref('CircleMember'), 201: Type.Ref('CircleMember'), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { created, member } = await service.addToCircle(services, principalOf(request).userId, request.params.userId);
      return reply.code(created ? 201 : 200).send(member);
    },
  );

  app.delete(
    '/api/social/circle/:userId',
    {
      schema: {
        tags,
        operationId: 'removeFromCircle',
        summary: 'Take a user out of your circle',
        params: CircleUserParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.removeFromCircle(services, principalOf(request).userId, request.params.userId);
      return reply.code(204).send(null);
    },
  );
};
