import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { users } from '../users/index.js';
import { circleMembers, friendLinks } from './friends.tables.js';

export type FriendStatus = 'friends' | 'pending-incoming' | 'pending-outgoing';

export interface RelatedUser {
  userId: string;
  username: string;
  since: Date;
}

/** Adds the edge user→friend; true when it is new. */
export async function addLink(db: DbOrTx, userId: string, friendId: string): Promise<boolean> {
  const rows = await db.insert(friendLinks).values({ userId, friendId }).onConflictDoNothing().returning({ userId: friendLinks.userId });
  return rows.length > 0;
}

export async function linkStatus(db: DbOrTx, userId: string, otherId: string): Promise<FriendStatus | undefined> {
  const rows = await db
    .select({ userId: friendLinks.userId })
    .from(friendLinks)
    .where(or(and(eq(friendLinks.userId, userId), eq(friendLinks.friendId, otherId)), and(eq(friendLinks.userId, otherId), eq(friendLinks.friendId, userId))));
  const outgoing = rows.some((r) => r.userId === userId);
  const incoming = rows.some((r) => r.userId === otherId);
  if (outgoing && incoming) return 'friends';
  if (outgoing) return 'pending-outgoing';
  if (incoming) return 'pending-incoming';
  return undefined;
}

/** Locks the links between two users (FOR SHARE) until the end of the transaction. */
export async function lockLinks(db: DbOrTx, a: string, b: string): Promise<void> {
  await db
    .select({ userId: friendLinks.userId })
    .from(friendLinks)
    .where(or(and(eq(friendLinks.userId, a), eq(friendLinks.friendId, b)), and(eq(friendLinks.userId, b), eq(friendLinks.friendId, a))))
    .for('share');
}

/** Removes both edges and both circle memberships; true when anything was removed. */
export async function removeRelation(db: DbOrTx, a: string, b: string): Promise<boolean> {
  const links = await db
    .delete(friendLinks)
    .where(or(and(eq(friendLinks.userId, a), eq(friendLinks.friendId, b)), and(eq(friendLinks.userId, b), eq(friendLinks.friendId, a))))
    .returning({ userId: friendLinks.userId });
  await db
    .delete(circleMembers)
    .where(or(and(eq(circleMembers.ownerId, a), eq(circleMembers.memberId, b)), and(eq(circleMembers.ownerId, b), eq(circleMembers.memberId, a))));
  return links.length > 0;
}

/** Friends in force (since = when the second edge was added), or pending requests. */
export async function listRelated(
  db: DbOrTx,
  userId: string,
  status: FriendStatus,
  page: { limit: number; offset: number },
): Promise<{ items: RelatedUser[]; total: number }> {
  const other = status === 'pending-incoming' ? friendLinks.userId : friendLinks.friendId;
  const mine = status === 'pending-incoming' ? friendLinks.friendId : friendLinks.userId;
  // The reverse of the row's edge: present for friends, absent for pending requests.
  const back = sql`EXISTS (SELECT 1 FROM friend_links b WHERE b.user_id = ${friendLinks.friendId} AND b.friend_id = ${friendLinks.userId})`;
  const where = and(eq(mine, userId), status === 'friends' ? back : sql`NOT ${back}`);
  const since =
    status === 'friends'
      ? sql<Date>`GREATEST(${friendLinks.createdAt}, (SELECT b.created_at FROM friend_links b WHERE b.user_id = ${friendLinks.friendId} AND b.friend_id = ${friendLinks.userId}))`
      : sql<Date>`${friendLinks.createdAt}`;
  const [items, [count]] = await Promise.all([
    db
      .select({ userId: users.id, username: users.username, since: since.mapWith((v: string | Date) => new Date(v)) })
      .from(friendLinks)
      .innerJoin(users, eq(users.id, other))
      .where(where)
      .orderBy(desc(since), users.id)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(friendLinks).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function addCircleMember(db: DbOrTx, ownerId: string, memberId: string): Promise<boolean> {
  const rows = await db.insert(circleMembers).values({ ownerId, memberId }).onConflictDoNothing().returning({ ownerId: circleMembers.ownerId });
  return rows.length > 0;
}

export async function removeCircleMember(db: DbOrTx, ownerId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .delete(circleMembers)
    .where(and(eq(circleMembers.ownerId, ownerId), eq(circleMembers.memberId, memberId)))
    .returning({ ownerId: circleMembers.ownerId });
  return rows.length > 0;
}

export async function listCircle(db: DbOrTx, ownerId: string, page: { limit: number; offset: number }): Promise<{ items: RelatedUser[]; total: number }> {
  const where = eq(circleMembers.ownerId, ownerId);
  const [items, [count]] = await Promise.all([
    db
      .select({ userId: users.id, username: users.username, since: circleMembers.createdAt })
      .from(circleMembers)
      .innerJoin(users, eq(users.id, circleMembers.memberId))
      .where(where)
      .orderBy(desc(circleMembers.createdAt), users.id)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(circleMembers).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function circleMemberIds(db: DbOrTx, ownerId: string, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const rows = await db
    .select({ memberId: circleMembers.memberId })
    .from(circleMembers)
    .where(and(eq(circleMembers.ownerId, ownerId), sql`${circleMembers.memberId} IN (${sql.join(candidates.map((c) => sql`${c}`), sql`, `)})`));
  return new Set(rows.map((r) => r.memberId));
}

/** Users who are friends in force with `viewerId` (both edges present), as an SQL subquery. */
export function friendsOf(viewerId: string): SQL {
  return sql`SELECT f1.friend_id FROM ${friendLinks} f1
             JOIN ${friendLinks} f2 ON f2.user_id = f1.friend_id AND f2.friend_id = f1.user_id
             WHERE f1.user_id = ${viewerId}`;
}

/** Owners whose circle contains `viewerId`, as an SQL subquery. */
export function circleOwnersOf(viewerId: string): SQL {
  return sql`SELECT owner_id FROM ${circleMembers} WHERE member_id = ${viewerId}`;
}

export async function areFriends(db: DbOrTx, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(friendLinks)
    .where(sql`(${friendLinks.userId} = ${a} AND ${friendLinks.friendId} = ${b}) OR (${friendLinks.userId} = ${b} AND ${friendLinks.friendId} = ${a})`);
  return rows[0]?.n === 2;
}

export async function isInCircle(db: DbOrTx, ownerId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(circleMembers)
    .where(and(eq(circleMembers.ownerId, ownerId), eq(circleMembers.memberId, memberId)));
  return rows.length > 0;
}
