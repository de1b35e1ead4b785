import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { featuredAt } from '../../core/db/featured.js';
import { distanceFrom, withinRadius, type Near } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { eventRegistrations, events, type EventRow, type EventStatus } from './events.tables.js';

export type EventWithCreator = EventRow & { creatorUsername: string };
const selection = { event: events, creatorUsername: users.username };
const flatten = (row: { event: EventRow; creatorUsername: string }): EventWithCreator => ({ ...row.event, creatorUsername: row.creatorUsername });

export async function insertEvent(db: DbOrTx, row: typeof events.$inferInsert): Promise<EventRow> {
  const [inserted] = await db.insert(events).values(row).returning();
  return inserted!;
}

export async function findEvent(db: DbOrTx, id: string, options: { lock?: boolean } = {}): Promise<EventWithCreator | undefined> {
  const query = db.select(selection).from(events).innerJoin(users, eq(users.id, events.creatorId)).where(eq(events.id, id));
  const [row] = options.lock ? await query.for('update', { of: events }) : await query;
  return row ? flatten(row) : undefined;
}

export interface EventFilter {
  type?: string | undefined;
  from: Date;
  to?: Date | undefined;
  state?: string | undefined;
  near?: Near | undefined;
  featuredOnly?: boolean | undefined;
}

/** Approved, active events; featured now first, then by start. */
export async function listPublicEvents(db: DbOrTx, filter: EventFilter, now: Date, page: Page) {
  const featured = featuredAt(events.featuredFrom, events.featuredUntil, now);
  const conditions: SQL[] = [eq(events.status, 'Approved'), eq(events.isActive, true), ownerShown(events.creatorId), gte(events.endsAt, filter.from)];
  if (filter.to) conditions.push(lt(events.startsAt, filter.to));
  if (filter.type) conditions.push(eq(events.type, filter.type));
  if (filter.state) conditions.push(eq(events.stateCode, filter.state));
  if (filter.near) conditions.push(withinRadius(events.lat, events.lon, filter.near));
  if (filter.featuredOnly) conditions.push(featured);
  const where = and(...conditions);
  const distance = filter.near ? distanceFrom(events.lat, events.lon, filter.near) : sql<number>`NULL`;
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...selection, distanceM: distance })
      .from(events)
      .innerJoin(users, eq(users.id, events.creatorId))
      .where(where)
      .orderBy(desc(featured), asc(events.startsAt), asc(events.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(events).where(where),
  ]);
  return { items: rows.map((r) => ({ ...flatten(r), distanceM: r.distanceM === null ? null : Number(r.distanceM) })), total: count?.n ?? 0 };
}

export async function listByStatus(db: DbOrTx, status: EventStatus, page: Page) {
  const where = eq(events.status, status);
  const [rows, [count]] = await Promise.all([
    db.select(selection).from(events).innerJoin(users, eq(users.id, events.creatorId)).where(where).orderBy(asc(events.createdAt), asc(events.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(events).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}

export async function updateEvent(db: DbOrTx, id: string, values: Partial<typeof events.$inferInsert>): Promise<void> {
  await db
    .update(events)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(events.id, id));
}

export async function registeredEventIds(db: DbOrTx, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: eventRegistrations.eventId })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.userId, userId), sql`${eventRegistrations.eventId} = ANY(${`{${ids.join(',')}}`}::uuid[])`));
  return new Set(rows.map((r) => r.id));
}

/** Adds the registration and counts it (event row locked by the caller); false when it existed. */
export async function register(db: DbOrTx, eventId: string, userId: string): Promise<boolean> {
  const inserted = await db.insert(eventRegistrations).values({ eventId, userId }).onConflictDoNothing().returning();
  if (inserted.length === 0) return false;
  await db.update(events).set({ registeredCount: sql`${events.registeredCount} + 1` }).where(eq(events.id, eventId));
  return true;
}

export async function unregister(db: DbOrTx, eventId: string, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(eventRegistrations)
    .where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.userId, userId)))
    .returning();
  if (deleted.length === 0) return false;
  await db.update(events).set({ registeredCount: sql`${events.registeredCount} - 1` }).where(eq(events.id, eventId));
  return true;
}

/** Events per type, for the lookups' usage statistics. */
export async function countByType(db: DbOrTx, codes: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ code: events.type, n: sql<number>`count(*)::int` })
    .from(events)
    .where(sql`${events.type} = ANY(${sql.param([...codes])}::text[])`)
    .groupBy(events.type);
  return new Map(rows.map((r) => [r.code, r.n]));
}
