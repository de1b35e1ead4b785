import type { ServiceDeps } from '../../core/service-deps.js';
import { profileCards } from '../profiles/profiles.service.js';
import { findByUsernamePrefix } from '../users/users.service.js';
import { USER_SEARCH_MAX } from './user-search.schemas.js';

/**
 * Users whose username starts with `prefix`, for adding friends: id, username, and — as far as
 * their profile's visibility admits the viewer — the display name. Never email or role.
 */
export async function searchUsers(deps: ServiceDeps, viewerId: string, prefix: string, limit: number = USER_SEARCH_MAX) {
  const found = await findByUsernamePrefix(deps, prefix.trim(), Math.min(limit, USER_SEARCH_MAX));
  const cards = await profileCards(deps, viewerId, found.map((u) => u.id));
  return found.map((u) => ({ userId: u.id, username: u.username, ...cards.get(u.id)! }));
}
