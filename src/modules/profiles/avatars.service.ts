import type { DbOrTx } from '../../core/db/client.js';

/**
 * Avatars of profiles. The photos module keeps them (PUT /api/userprofile/me/avatar) and depends
 * on profiles (an avatar is seen as its profile is), so profiles cannot import it: the composition
 * the photos module (photos.module.ts) registers where avatars come from at start-up. Without one registered,
 * no profile has an avatar.
 */

/** An avatar as a profile view shows it (the photos module's `Photo`). */
export type Avatar = object;

/** The avatar of each user (null: none) as `viewerId` may see it; the caller checked the profiles' visibility. */
export type AvatarSource = (db: DbOrTx, viewerId: string, userIds: readonly string[]) => Promise<Map<string, Avatar | null>>;

let source: AvatarSource | undefined;

export function registerAvatarSource(avatars: AvatarSource): void {
  source = avatars;
}

/** The avatar of `userId` as `viewerId` may see it, or null. */
export async function avatarOf(db: DbOrTx, viewerId: string, userId: string): Promise<Avatar | null> {
  if (!source) return null;
  return (await source(db, viewerId, [userId])).get(userId) ?? null;
}
