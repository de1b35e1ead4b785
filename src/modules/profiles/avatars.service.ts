import type { DbOrTx } from '../../core/db/client.js';
import { registryKey, type Registries } from '../../core/registries.js';
import type { ServiceDeps } from '../../core/service-deps.js';

/**
 * Avatars of profiles. The photos module keeps them (PUT /api/userprofile/me/avatar) and depends
 * on profiles (an avatar is seen as its profile is), so profiles cannot import it: the composition
 * the photos module (photos.module.ts) registers where avatars come from at start-up. Without one registered,
 * no profile has an avatar.
 */

/** An avatar as a profile view shows it (the photos module's `Photo`). */
export type Avatar = object;

/** The avatar of each user (null: none) as `viewerId` may see it; the caller checked the profiles' visibility. */
export type AvatarSource = (deps: ServiceDeps<DbOrTx>, viewerId: string, userIds: readonly string[]) => Promise<Map<string, Avatar | null>>;

/** The app's avatar source (`deps.registries`): none until the photos module registers it. */
const avatars = registryKey('profiles.avatars', (): { source?: AvatarSource } => ({}));

export function registerAvatarSource(deps: { registries: Registries }, source: AvatarSource): void {
  deps.registries.of(avatars).source = source;
}

/** The avatar of `userId` as `viewerId` may see it, or null. */
export async function avatarOf(deps: ServiceDeps<DbOrTx>, viewerId: string, userId: string): Promise<Avatar | null> {
  const { source } = deps.registries.of(avatars);
  if (!source) return null;
  return (await source(deps, viewerId, [userId])).get(userId) ?? null;
}
