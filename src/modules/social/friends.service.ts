import type { ServiceDeps } from '../../core/service-deps.js';
import { isSelf } from '../../core/access/policy.js';
import type { RelationshipProvider } from '../../core/access/visibility.js';
import type { Page } from '../../core/http/pagination.js';
import { findUserById as findById } from '../users/users.service.js';
import { FriendErrors } from './friends.errors.js';
import * as repo from './friends.repository.js';
import { FriendStatusEnum } from './friends.schemas.js';

/** Friends (mutual adds) and the circle (chosen among friends). Visibility reads these tables on every request. */

async function requireOther(deps: ServiceDeps, viewerId: string, otherId: string, self: () => Error) {
  if (isSelf(viewerId, otherId)) throw self();
  const other = await findById(deps, otherId);
  if (!other) throw FriendErrors.userNotFound(otherId);
  return other;
}

export async function addFriend(deps: ServiceDeps, viewerId: string, friendId: string) {
  const { db } = deps;
  const friend = await requireOther(deps, viewerId, friendId, FriendErrors.self);
  return db.transaction(async (tx) => {
    const created = await repo.addLink(tx, viewerId, friendId);
    const status = (await repo.linkStatus(tx, viewerId, friendId))!;
    return { created, friend: { userId: friend.id, username: friend.username, status: FriendStatusEnum.toApi(status), since: new Date().toISOString(), inCircle: false } };
  });
}

export async function removeFriend(deps: ServiceDeps, viewerId: string, friendId: string): Promise<void> {
  const { db } = deps;
  await requireOther(deps, viewerId, friendId, FriendErrors.self);
  await db.transaction((tx) => repo.removeRelation(tx, viewerId, friendId));
}

/** `sentStatus`: Friends, PendingIncoming, PendingOutgoing (or their older spellings). */
export async function listFriends(deps: ServiceDeps, viewerId: string, sentStatus: string, page: Page) {
  const { db } = deps;
  const status = FriendStatusEnum.fromApi(sentStatus);
  const { items, total } = await repo.listRelated(db, viewerId, status, page);
  const circle = status === 'friends' ? await repo.circleMemberIds(db, viewerId, items.map((i) => i.userId)) : new Set<string>();
  return {
    total,
    items: items.map((i) => ({ userId: i.userId, username: i.username, status: FriendStatusEnum.toApi(status), since: i.since.toISOString(), inCircle: circle.has(i.userId) })),
  };
}

export async function addToCircle(deps: ServiceDeps, viewerId: string, memberId: string) {
  const { db } = deps;
  const member = await requireOther(deps, viewerId, memberId, FriendErrors.selfCircle);
  return db.transaction(async (tx) => {
    // Lock both friend links so that a concurrent unfriending waits for (and then removes) this membership.
    await repo.lockLinks(tx, viewerId, memberId);
    if (!(await repo.areFriends(tx, viewerId, memberId))) throw FriendErrors.notAFriend();
    const created = await repo.addCircleMember(tx, viewerId, memberId);
    return { created, member: { userId: member.id, username: member.username, since: new Date().toISOString() } };
  });
}

export async function removeFromCircle(deps: ServiceDeps, viewerId: string, memberId: string): Promise<void> {
  const { db } = deps;
  await requireOther(deps, viewerId, memberId, FriendErrors.selfCircle);
  if (!(await repo.removeCircleMember(db, viewerId, memberId))) throw FriendErrors.notInCircle();
}

export async function listCircle(deps: ServiceDeps, viewerId: string, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listCircle(db, viewerId, page);
  return { total, items: items.map((i) => ({ userId: i.userId, username: i.username, since: i.since.toISOString() })) };
}

/** The social module's answer to who is whose friend, registered with core/access at start-up. */
export const relationships: RelationshipProvider = {
  friendsOf: repo.friendsOf,
  circleOwnersOf: repo.circleOwnersOf,
  areFriends: repo.areFriends,
  isInCircle: repo.isInCircle,
};
