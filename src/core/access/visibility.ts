import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import type { DbOrTx } from '../db/client.js';
import { circleMembers, friendLinks } from '../../modules/social/friends.tables.js';

/**
 * Record visibility (`Public`, `Private`, `Friends`, `Circle`), decided here for every module.
 * - The owner always sees their own record.
 * - Friends: both users added each other. Circle: the owner put the viewer in their circle.
 *
 * Lists use `visibilityBranches`: one condition per way of seeing a record, each written so an
 * index on (owner, time) or (visibility, time) serves it; the caller runs them as a UNION ALL
 * (a single OR across owner and visibility defeats the indexes: measured 30× slower).
 */

export const VISIBILITIES = ['Public', 'Private', 'Friends', 'Circle'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const VisibilitySchema = Type.Union(
  VISIBILITIES.map((v) => Type.Literal(v)),
  { description: 'Who may see the record: Public (everyone), Private (owner only), Friends (mutual friends), Circle (the owner’s circle)' },
);

/** Users who are friends in force with `viewerId` (both edges present). */
export function friendsOf(viewerId: string): SQL {
  return sql`SELECT f1.friend_id FROM ${friendLinks} f1
             JOIN ${friendLinks} f2 ON f2.user_id = f1.friend_id AND f2.friend_id = f1.user_id
             WHERE f1.user_id = ${viewerId}`;
}

/** Owners whose circle contains `viewerId`. */
export function circleOwnersOf(viewerId: string): SQL {
  return sql`SELECT owner_id FROM ${circleMembers} WHERE member_id = ${viewerId}`;
}

/** The disjoint conditions under which `viewerId` sees a row; OR-ing them is the full rule. */
export function visibilityBranches(viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): SQL[] {
  return [
    sql`${owner} = ${viewerId}`,
    sql`${visibility} = 'Public' AND ${owner} <> ${viewerId}`,
    sql`${visibility} = 'Friends' AND ${owner} <> ${viewerId} AND ${owner} IN (${friendsOf(viewerId)})`,
    sql`${visibility} = 'Circle' AND ${owner} <> ${viewerId} AND ${owner} IN (${circleOwnersOf(viewerId)})`,
  ];
}

/** The same rule as one condition, for small or already narrowed sets (e.g. one owner's rows). */
export function visibleTo(viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): SQL {
  return sql`(${sql.join(
    visibilityBranches(viewerId, owner, visibility).map((b) => sql`(${b})`),
    sql` OR `,
  )})`;
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

/** Whether `viewerId` may see one record of `ownerId` with `visibility`. */
export async function canSee(db: DbOrTx, viewerId: string, record: { ownerId: string; visibility: Visibility | string }): Promise<boolean> {
  if (record.ownerId === viewerId) return true;
  switch (record.visibility) {
    case 'Public':
      return true;
    case 'Friends':
      return areFriends(db, viewerId, record.ownerId);
    case 'Circle':
      return isInCircle(db, record.ownerId, viewerId);
    default:
      return false;
  }
}
