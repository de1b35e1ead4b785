import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { USER_SEARCH_MAX, USER_SEARCH_PER_MINUTE, UserSearchQuery, UserSearchResult } from './user-search.schemas.js';
import { searchUsers } from './user-search.service.js';

export const userSearchRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(UserSearchResult);

  app.get(
    '/api/social/users',
    {
      config: { rateLimit: { max: USER_SEARCH_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags: ['social: friends'],
        operationId: 'searchUsers',
        summary: 'Find users by username, to add them as friends',
        description:
          `Case-insensitive prefix match on the username, by username, at most ${USER_SEARCH_MAX}. Each result has the user id (for ` +
          '`POST /api/social/friends/{friendId}`), the username, whether their profile is visible to you and, if it is, their display name. ' +
          `Never email or role. Deactivated users are left out. Limited to ${USER_SEARCH_PER_MINUTE} searches a minute per client.`,
        querystring: UserSearchQuery,
        response: { 200: Type.Array(Type.Ref('UserSearchResult'), { maxItems: USER_SEARCH_MAX }) },
      },
    },
    async (request) => searchUsers(services, principalOf(request).userId, request.query.username, request.query.limit),
  );
};
