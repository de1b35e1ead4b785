import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';

/** GET /api/social/users: finding a friend by username. */

export const USER_SEARCH_MAX = 20;
/** Requests per minute per client IP on the search (the general limit is RATE_LIMIT_PER_MINUTE). */
export const USER_SEARCH_PER_MINUTE = 30;

export const UserSearchQuery = Type.Object(
  {
    username: Type.String({
      minLength: 1,
      maxLength: 128,
      pattern: '\\S',
      description: 'The start of the username (case-insensitive prefix match)',
      examples: ['ang'],
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: USER_SEARCH_MAX, default: USER_SEARCH_MAX, description: `At most ${USER_SEARCH_MAX}` })),
  },
  { additionalProperties: false },
);

export const UserSearchResult = Type.Object(
  {
    userId: Uuid,
    username: Type.String({ examples: ['angler_jo'] }),
    displayName: Type.Union([Type.String(), Type.Null()], { description: 'The profile’s display name, when the profile is visible to you (null otherwise or when unset)' }),
    profileVisible: Type.Boolean({ description: 'Whether you may see this user’s profile (GET /api/userprofile/{userId})' }),
  },
  { additionalProperties: false, $id: 'UserSearchResult' },
);
