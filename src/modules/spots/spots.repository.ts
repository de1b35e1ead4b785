import { and, asc, desc, eq, ilike, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import { featuredAt } from '../../core/db/featured.js';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { distanceFrom, withinRadius, type Near } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { spotConfirmations, spotRatings, spots, type SpotKind, type SpotRow } from './spots.tables.js';

export type SpotWithCreator = SpotRow & { creatorUsername: string | null };

const withCreator = { spot: spots, creatorUsername: users.username };

function flatten(row: { spot: SpotRow; creatorUsername: string | null }): SpotWithCreator {
  return { ...row.spot, creatorUsername: row.creatorUsername };
}

export async function insertSpot(db: DbOrTx, row: typeof spots.$inferInsert): Promise<SpotRow> {
  const [inserted] = await db.insert(spots).values(row).returning();
  return inserted!;
}

export async function findSpot(db: DbOrTx, id: string, options: { lock?: boolean } = {}): Promise<SpotWithCreator | undefined> {
  const query = db.select(withCreator).from(spots).leftJoin(users, eq(users.id, spots.ownerId)).where(eq(spots.id, id));
  const [row] = options.lock ? await query.for('update', { of: spots }) : await query;
  return row ? flatten(row) : undefined;
}

function nearbyWhere(near: Near, filter: { kind?: SpotKind | undefined }): SQL | undefined {
  // Not the spots of a deactivated account (core/access/visibility.ts); reference spots have no owner and are shown.
  const conditions: SQL[] = [eq(spots.isActive, true), ownerShown(spots.ownerId), withinRadius(spots.publicLat, spots.publicLon, near)];
  if (filter.kind) conditions.push(eq(spots.kind, filter.kind));
  return and(...conditions);
}

/** The page query of a nearby search (exported for the query-plan test). */
export function nearbySelect(db: DbOrTx, near: Near, filter: { kind?: SpotKind | undefined }, page: Page) {
  const distance = distanceFrom(spots.publicLat, spots.publicLon, near);
  return db
    .select({ ...withCreator, distanceM: distance })
    .from(spots)
    .leftJoin(users, eq(users.id, spots.ownerId))
    .where(nearbyWhere(near, filter))
    .orderBy(asc(distance), asc(spots.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Active spots within the radius of the public location, nearest first. */
export async function nearbySpots(db: DbOrTx, near: Near, filter: { kind?: SpotKind | undefined }, page: Page) {
  const [rows, [count]] = await Promise.all([
    nearbySelect(db, near, filter, page),
    db.select({ n: sql<number>`count(*)::int` }).from(spots).where(nearbyWhere(near, filter)),
  ]);
  return { items: rows.map((r) => ({ ...flatten(r), distanceM: Number(r.distanceM) })), total: count?.n ?? 0 };
}

export async function updateSpot(db: DbOrTx, id: string, values: Partial<typeof spots.$inferInsert>): Promise<SpotRow> {
  const [row] = await db
    .update(spots)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(spots.id, id))
    .returning();
  return row!;
}

/** Inserts or replaces the user's rating and refreshes the spot's count and sum (spot row locked by the caller). */
export async function upsertRating(db: DbOrTx, spotId: string, userId: string, stars: number, comment: string | null): Promise<void> {
  const now = new Date();
  await db
    .insert(spotRatings)
    .values({ spotId, userId, stars, comment })
    .onConflictDoUpdate({ target: [spotRatings.spotId, spotRatings.userId], set: { stars, comment, updatedAt: now } });
  await db
    .update(spots)
    .set({
      ratingCount: sql`(SELECT count(*) FROM ${spotRatings} WHERE ${spotRatings.spotId} = ${spotId})::int`,
      ratingSum: sql`(SELECT coalesce(sum(${spotRatings.stars}), 0) FROM ${spotRatings} WHERE ${spotRatings.spotId} = ${spotId})::int`,
    })
    .where(eq(spots.id, spotId));
}

export async function ratingDistribution(db: DbOrTx, spotId: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ stars: spotRatings.stars, n: sql<number>`count(*)::int` })
    .from(spotRatings)
    .where(eq(spotRatings.spotId, spotId))
    .groupBy(spotRatings.stars);
  return new Map(rows.map((r) => [r.stars, r.n]));
}

export async function findRating(db: DbOrTx, spotId: string, userId: string) {
  const [row] = await db
    .select()
    .from(spotRatings)
    .where(and(eq(spotRatings.spotId, spotId), eq(spotRatings.userId, userId)));
  return row;
}

/** Records the confirmation; false when the user had confirmed already. */
export async function insertConfirmation(db: DbOrTx, spotId: string, userId: string): Promise<boolean> {
  const rows = await db.insert(spotConfirmations).values({ spotId, userId }).onConflictDoNothing().returning({ spotId: spotConfirmations.spotId });
  return rows.length > 0;
}

export interface AdminSpotFilter {
  q?: string | undefined;
  status?: 'active' | 'inactive' | 'all' | undefined;
  kind?: SpotKind | undefined;
  verification?: 'Unverified' | 'Verified' | undefined;
  state?: string | undefined;
  featured?: boolean | undefined;
  /** true: reference spots (seeded agency data, no owner); false: anglers' spots. */
  reference?: boolean | undefined;
}

/** Spots for administration, newest first: deactivated ones too (status `all` by default) and those of deactivated accounts. */
export async function adminListSpots(db: DbOrTx, filter: AdminSpotFilter, now: Date, page: Page) {
  const conditions: SQL[] = [];
  if (filter.status === 'active') conditions.push(eq(spots.isActive, true));
  if (filter.status === 'inactive') conditions.push(eq(spots.isActive, false));
  if (filter.kind) conditions.push(eq(spots.kind, filter.kind));
  if (filter.verification) conditions.push(eq(spots.status, filter.verification));
  if (filter.state) conditions.push(eq(spots.stateCode, filter.state));
  if (filter.featured !== undefined) {
    const featured = featuredAt(spots.featuredFrom, spots.featuredUntil, now);
    conditions.push(filter.featured ? featured : not(featured));
  }
  if (filter.reference !== undefined) conditions.push(filter.reference ? isNull(spots.ownerId) : isNotNull(spots.ownerId));
  if (filter.q) {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(spots.name, pattern), ilike(spots.waterBody, pattern), ilike(spots.county, pattern))!);
  }
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db.select(withCreator).from(spots).leftJoin(users, eq(users.id, spots.ownerId)).where(where).orderBy(desc(spots.createdAt), desc(spots.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(spots).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}
