import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { charterBookings, charterCaptains, charterListings, charterSlots, HOLDING_STATES, type BookingRow, type CaptainRow, type ListingRow, type SlotRow } from './charters.tables.js';
import { BookingRoleEnum, type BookingsFilter, type ListingsFilter } from './charters.schemas.js';

// Captains

export async function upsertCaptain(db: DbOrTx, values: typeof charterCaptains.$inferInsert): Promise<CaptainRow> {
  const { userId: _userId, ...changes } = values;
  const [row] = await db
    .insert(charterCaptains)
    .values(values)
    .onConflictDoUpdate({ target: charterCaptains.userId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function findCaptain(db: DbOrTx, userId: string, lock = false): Promise<CaptainRow | undefined> {
  const query = db.select().from(charterCaptains).where(eq(charterCaptains.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateCaptain(db: DbOrTx, userId: string, values: Partial<CaptainRow>): Promise<CaptainRow> {
  const [row] = await db
    .update(charterCaptains)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(charterCaptains.userId, userId))
    .returning();
  return row!;
}

export async function listCaptains(db: DbOrTx, status: CaptainRow['status'] | undefined, page: Page) {
  const where = status ? eq(charterCaptains.status, status) : undefined;
  const [items, [total]] = await Promise.all([
    db.select().from(charterCaptains).where(where).orderBy(asc(charterCaptains.createdAt), asc(charterCaptains.userId)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(charterCaptains).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

// Listings

export interface ListingWithCaptain {
  listing: ListingRow;
  captain: CaptainRow;
  username: string;
  distanceKm: number | null;
}

const listingColumns = { listing: charterListings, captain: charterCaptains, username: users.username };

export async function insertListing(db: DbOrTx, values: typeof charterListings.$inferInsert): Promise<ListingRow> {
  const [row] = await db.insert(charterListings).values(values).returning();
  return row!;
}

export async function updateListing(db: DbOrTx, id: string, values: Partial<typeof charterListings.$inferInsert>): Promise<ListingRow> {
  const [row] = await db
    .update(charterListings)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(charterListings.id, id))
    .returning();
  return row!;
}

export async function findListing(db: DbOrTx, id: string, lock = false): Promise<ListingWithCaptain | undefined> {
  const query = db
    .select(listingColumns)
    .from(charterListings)
    .innerJoin(charterCaptains, eq(charterCaptains.userId, charterListings.captainId))
    .innerJoin(users, eq(users.id, charterListings.captainId))
    .where(eq(charterListings.id, id));
  const [row] = lock ? await query.for('update', { of: charterListings }) : await query;
  return row ? { ...row, distanceKm: null } : undefined;
}

const holding = sql.raw(HOLDING_STATES.map((s) => `'${s}'`).join(', '));

/** Active listings by filter; `near` uses the earthdistance GiST index (charter_listings_earth_idx). */
export async function searchListings(db: DbOrTx, filter: ListingsFilter, page: Page, now: Date) {
  const where: SQL[] = [sql`${charterListings.isActive}`, ownerShown(charterListings.captainId)];
  const near = filter.lat !== undefined && filter.lon !== undefined ? { lat: filter.lat, lon: filter.lon, meters: (filter.radiusKm ?? 50) * 1000 } : undefined;
  const point = near ? sql`ll_to_earth(${near.lat}::float8, ${near.lon}::float8)` : undefined;
  const here = sql`ll_to_earth(${charterListings.latitude}, ${charterListings.longitude})`;
  if (near) where.push(sql`earth_box(${point}, ${near.meters}::float8) @> ${here} AND earth_distance(${point}, ${here}) <= ${near.meters}::float8`);
  if (filter.state) where.push(eq(charterListings.state, filter.state.toUpperCase()));
  if (filter.species) where.push(sql`EXISTS (SELECT 1 FROM unnest(charter_listings.target_species) s WHERE lower(s) = lower(${filter.species}))`);
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(${charterListings.title} ILIKE ${like} OR ${charterListings.description} ILIKE ${like} OR ${charterListings.homePort} ILIKE ${like})`);
  }
  if (filter.partySize !== undefined || filter.minPriceCents !== undefined || filter.maxPriceCents !== undefined) {
    const party = filter.partySize ?? 1;
    const price = sql`CASE WHEN t->>'pricing' = 'PerPerson' THEN (t->>'priceCents')::int * ${party}::int ELSE (t->>'priceCents')::int END`;
    const conditions: SQL[] = [sql`(t->>'maxPartySize')::int >= ${party}::int`];
    if (filter.minPriceCents !== undefined) conditions.push(sql`${price} >= ${filter.minPriceCents}::int`);
    if (filter.maxPriceCents !== undefined) conditions.push(sql`${price} <= ${filter.maxPriceCents}::int`);
    where.push(sql`EXISTS (SELECT 1 FROM jsonb_array_elements(charter_listings.trip_types) t WHERE ${sql.join(conditions, sql` AND `)})`);
  }
  if (filter.date) {
    where.push(sql`EXISTS (SELECT 1 FROM charter_slots s WHERE s.listing_id = charter_listings.id AND s.starts_at > ${now.toISOString()}::timestamptz
      AND (s.starts_at AT TIME ZONE charter_listings.time_zone)::date = ${filter.date}::date
      AND NOT EXISTS (SELECT 1 FROM charter_bookings b WHERE b.slot_id = s.id AND b.state IN (${holding})))`);
  }
  const condition = and(...where);
  const distance = point ? sql<number>`earth_distance(${point}, ${here}) / 1000` : sql<null>`NULL::float8`;
  const [items, [total]] = await Promise.all([
    db
      .select({ ...listingColumns, distanceKm: distance.mapWith((v: unknown) => (v === null ? null : Number(v))) })
      .from(charterListings)
      .innerJoin(charterCaptains, eq(charterCaptains.userId, charterListings.captainId))
      .innerJoin(users, eq(users.id, charterListings.captainId))
      .where(condition)
      .orderBy(...(point ? [sql`earth_distance(${point}, ${here})`] : []), desc(charterListings.createdAt), asc(charterListings.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(charterListings).where(condition),
  ]);
  return { items: items as ListingWithCaptain[], total: total?.n ?? 0 };
}

// Slots

export async function insertSlots(db: DbOrTx, rows: Array<typeof charterSlots.$inferInsert>): Promise<SlotRow[]> {
  return db.insert(charterSlots).values(rows).onConflictDoNothing().returning();
}

export async function findSlot(db: DbOrTx, listingId: string, slotId: string): Promise<SlotRow | undefined> {
  const [row] = await db.select().from(charterSlots).where(and(eq(charterSlots.id, slotId), eq(charterSlots.listingId, listingId)));
  return row;
}

export async function listSlots(db: DbOrTx, listingId: string, from: Date, to: Date) {
  return db
    .select({
      id: charterSlots.id,
      startsAt: charterSlots.startsAt,
      booked: sql<boolean>`EXISTS (SELECT 1 FROM charter_bookings b WHERE b.slot_id = charter_slots.id AND b.state IN (${holding}))`,
    })
    .from(charterSlots)
    .where(and(eq(charterSlots.listingId, listingId), gte(charterSlots.startsAt, from), lt(charterSlots.startsAt, to)))
    .orderBy(asc(charterSlots.startsAt))
    .limit(1000);
}

// Bookings

export interface BookingWithTitle {
  booking: BookingRow;
  listingTitle: string;
}

const bookingColumns = { booking: charterBookings, listingTitle: charterListings.title };

export async function insertBooking(db: DbOrTx, values: typeof charterBookings.$inferInsert): Promise<BookingRow> {
  const [row] = await db.insert(charterBookings).values(values).returning();
  return row!;
}

export async function updateBooking(db: DbOrTx, id: string, values: Partial<typeof charterBookings.$inferInsert>): Promise<BookingRow> {
  const [row] = await db
    .update(charterBookings)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(charterBookings.id, id))
    .returning();
  return row!;
}

export async function findBooking(db: DbOrTx, id: string, lock = false): Promise<BookingWithTitle | undefined> {
  const query = db.select(bookingColumns).from(charterBookings).innerJoin(charterListings, eq(charterListings.id, charterBookings.listingId)).where(eq(charterBookings.id, id));
  const [row] = lock ? await query.for('update', { of: charterBookings }) : await query;
  return row;
}

export async function listBookings(db: DbOrTx, userId: string, filter: BookingsFilter, page: Page) {
  const where: SQL[] = [BookingRoleEnum.fromApi(filter.as) === 'captain' ? eq(charterBookings.captainId, userId) : eq(charterBookings.customerId, userId)];
  if (filter.state) where.push(eq(charterBookings.state, filter.state));
  if (filter.listingId) where.push(eq(charterBookings.listingId, filter.listingId));
  const condition = and(...where);
  const [items, [total]] = await Promise.all([
    db
      .select(bookingColumns)
      .from(charterBookings)
      .innerJoin(charterListings, eq(charterListings.id, charterBookings.listingId))
      .where(condition)
      .orderBy(asc(charterBookings.startsAt), asc(charterBookings.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(charterBookings).where(condition),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Pending bookings past their accept-by time. */
export async function overduePending(db: DbOrTx, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: charterBookings.id })
    .from(charterBookings)
    .where(and(eq(charterBookings.state, 'Pending'), lt(charterBookings.acceptBy, now)))
    .limit(500);
  return rows.map((r) => r.id);
}

/** Confirmed trips that have ended. */
export async function finishedTrips(db: DbOrTx, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: charterBookings.id })
    .from(charterBookings)
    .where(
      and(
        inArray(charterBookings.state, ['Confirmed']),
        sql`${charterBookings.startsAt} + make_interval(mins => round((${charterBookings.tripType}->>'durationHours')::numeric * 60)::int) < ${now.toISOString()}::timestamptz`,
      ),
    )
    .limit(500);
  return rows.map((r) => r.id);
}
