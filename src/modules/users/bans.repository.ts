import { and, desc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { banAppeals, userBans, type AppealRow, type BanRow } from './bans.tables.js';
import { users } from './users.tables.js';

export type BanStatus = 'Active' | 'Expired' | 'Lifted';

/** A ban with the usernames of its user and banner, and its appeal. */
export interface BanWithNames extends BanRow {
  username: string;
  bannedByUsername: string | null;
  appeal: AppealRow | null;
}

const banned = alias(users, 'banned_user');
const banner = alias(users, 'banner');

/** SQL of "in force at `now`": not lifted, and permanent or ending after now. */
export function inForceAt(now: Date): SQL {
  return and(isNull(userBans.liftedAt), or(isNull(userBans.endsAt), gt(userBans.endsAt, now)))!;
}

function statusCondition(status: 'active' | 'expired' | 'lifted', now: Date): SQL {
  if (status === 'active') return inForceAt(now);
  if (status === 'lifted') return isNotNull(userBans.liftedAt);
  return and(isNull(userBans.liftedAt), isNotNull(userBans.endsAt), lte(userBans.endsAt, now))!;
}

function selectBans(db: DbOrTx) {
  return db
    .select({ ban: userBans, username: banned.username, bannedByUsername: banner.username, appeal: banAppeals })
    .from(userBans)
    .innerJoin(banned, eq(banned.id, userBans.userId))
    .leftJoin(banner, eq(banner.id, userBans.bannedBy))
    .leftJoin(banAppeals, eq(banAppeals.banId, userBans.id));
}

type Selected = { ban: BanRow; username: string; bannedByUsername: string | null; appeal: AppealRow | null };
const flatten = (r: Selected): BanWithNames => ({ ...r.ban, username: r.username, bannedByUsername: r.bannedByUsername, appeal: r.appeal });

export async function insertBan(db: DbOrTx, values: { userId: string; bannedBy: string | null; reason: string; startsAt: Date; endsAt: Date | null }): Promise<BanRow> {
  const [row] = await db.insert(userBans).values({ id: uuidv7(), ...values }).returning();
  return row!;
}

export async function findBan(db: DbOrTx, id: string): Promise<BanWithNames | undefined> {
  const [row] = await selectBans(db).where(eq(userBans.id, id));
  return row ? flatten(row) : undefined;
}

export async function lockBan(db: DbOrTx, id: string): Promise<BanRow | undefined> {
  const [row] = await db.select().from(userBans).where(eq(userBans.id, id)).for('update');
  return row;
}

/** The user's ban in force at `now` (the one ending last), if any. */
export async function banInForce(db: DbOrTx, userId: string, now: Date): Promise<BanRow | undefined> {
  const [row] = await db
    .select()
    .from(userBans)
    .where(and(eq(userBans.userId, userId), inForceAt(now)))
    .orderBy(sql`${userBans.endsAt} DESC NULLS FIRST`)
    .limit(1);
  return row;
}

/**
 * The user's unlifted ban that ends last (permanent first), whatever the time: the caller decides
 * with its own clock whether it is still in force (authentication caches it).
 */
export async function latestUnliftedBan(db: DbOrTx, userId: string): Promise<Pick<BanRow, 'id' | 'reason' | 'endsAt'> | undefined> {
  const [row] = await db
    .select({ id: userBans.id, reason: userBans.reason, endsAt: userBans.endsAt })
    .from(userBans)
    .where(and(eq(userBans.userId, userId), isNull(userBans.liftedAt)))
    .orderBy(sql`${userBans.endsAt} DESC NULLS FIRST`)
    .limit(1);
  return row;
}

export interface BanFilter {
  status?: 'active' | 'expired' | 'lifted' | undefined;
  userId?: string | undefined;
  bannedBy?: string | undefined;
}

export async function listBans(db: DbOrTx, filter: BanFilter, now: Date, page: Page): Promise<{ items: BanWithNames[]; total: number }> {
  const where = and(
    filter.status ? statusCondition(filter.status, now) : undefined,
    filter.userId ? eq(userBans.userId, filter.userId) : undefined,
    filter.bannedBy ? eq(userBans.bannedBy, filter.bannedBy) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    selectBans(db).where(where).orderBy(desc(userBans.startsAt), desc(userBans.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(userBans).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}

/** The user's bans, newest first (at most `limit`). */
export async function bansOfUser(db: DbOrTx, userId: string, limit: number): Promise<BanWithNames[]> {
  const rows = await selectBans(db).where(eq(userBans.userId, userId)).orderBy(desc(userBans.startsAt), desc(userBans.id)).limit(limit);
  return rows.map(flatten);
}

export async function liftBan(db: DbOrTx, id: string, values: { liftedBy: string | null; liftReason: string; liftedAt: Date }): Promise<void> {
  await db.update(userBans).set({ ...values, updatedAt: new Date() }).where(eq(userBans.id, id));
}

/** Inserts the ban's appeal; undefined when the ban already has one (unique index, safe under races). */
export async function insertAppeal(db: DbOrTx, values: { banId: string; userId: string; text: string }): Promise<AppealRow | undefined> {
  const [row] = await db.insert(banAppeals).values({ id: uuidv7(), ...values }).onConflictDoNothing({ target: banAppeals.banId }).returning();
  return row;
}

export async function lockAppeal(db: DbOrTx, id: string): Promise<AppealRow | undefined> {
  const [row] = await db.select().from(banAppeals).where(eq(banAppeals.id, id)).for('update');
  return row;
}

export async function decideAppeal(db: DbOrTx, id: string, values: { status: 'Upheld' | 'Overturned'; reply: string; decidedBy: string | null; decidedAt: Date }): Promise<void> {
  await db.update(banAppeals).set({ ...values, updatedAt: new Date() }).where(eq(banAppeals.id, id));
}

export async function listAppeals(db: DbOrTx, filter: { status?: 'Open' | 'Upheld' | 'Overturned' | undefined }, page: Page): Promise<{ items: BanWithNames[]; total: number }> {
  const where = filter.status ? eq(banAppeals.status, filter.status) : undefined;
  const [rows, [count]] = await Promise.all([
    selectBans(db)
      .where(and(isNotNull(banAppeals.id), where))
      .orderBy(desc(banAppeals.createdAt), desc(banAppeals.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(banAppeals).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}

/** Counts of bans per user (admin user details and lists), one query. */
export async function banCounts(db: DbOrTx, userIds: string[], now: Date): Promise<Map<string, { total: number; active: number }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({
      userId: userBans.userId,
      total: sql<number>`count(*)::int`,
      active: sql<number>`(count(*) FILTER (WHERE ${inForceAt(now)}))::int`,
    })
    .from(userBans)
    .where(sql`${userBans.userId} IN ${userIds}`)
    .groupBy(userBans.userId);
  return new Map(rows.map((r) => [r.userId, { total: r.total, active: r.active }]));
}

/** Bans in force at `now` (dashboard). */
export async function countBansInForce(db: DbOrTx, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(userBans).where(inForceAt(now));
  return row?.n ?? 0;
}
