import type { Db } from '../../core/db/client.js';
import { profileCards } from '../profiles/profiles.service.js';
import { findByUsernamePrefix } from '../users/users.service.js';
import { USER_SEARCH_MAX } from './user-search.schemas.js';

/**
 * Users whose username starts with `prefix`, for adding friends: id, username, and — as far as
 * their profile's visibility admits the viewer — the display name. Never email or role.
 */
export async function searchUsers(db: Db, viewerId: string, prefix: string, limit: number = USER_SEARCH_MAX) {
  const found = await findByUsernamePrefix(db, prefix.trim(), Math.min(limit, USER_SEARCH_MAX));
  const cards = await profileCards(db, viewerId, found.map((u) => u.id));
  return found.map((u) => ({ userId: u.id, username: u.username, ...cards.get(u.id)! }));
}
