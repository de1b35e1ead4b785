import { and, asc, desc, eq, ilike, not, or, sql, type SQL } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { featuredAt } from '../../core/db/featured.js';
import { distanceFrom, withinRadius, type Near } from '../../core/db/geo.js';
import type { Page } from '../../core/http/pagination.js';
import { users } from '../users/index.js';
import { clubMembers, clubs, type ClubMemberRow, type ClubRole, type ClubRow } from './clubs.tables.js';

export type ClubWithOwner = ClubRow & { ownerUsername: string };
const selection = { club: clubs, ownerUsername: users.username };
const flatten = (row: { club: ClubRow; ownerUsername: string }): ClubWithOwner => ({ ...row.club, ownerUsername: row.ownerUsername });

export async function insertClub(db: DbOrTx, row: typeof clubs.$inferInsert): Promise<void> {
  await db.insert(clubs).values(row);
}

export async function findClub(db: DbOrTx, id: string, options: { lock?: boolean } = {}): Promise<ClubWithOwner | undefined> {
  const query = db.select(selection).from(clubs).innerJoin(users, eq(users.id, clubs.ownerId)).where(eq(clubs.id, id));
  const [row] = options.lock ? await query.for('update', { of: clubs }) : await query;
  return row ? flatten(row) : undefined;
}

export async function updateClub(db: DbOrTx, id: string, values: Partial<typeof clubs.$inferInsert>): Promise<void> {
  await db
    .update(clubs)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(clubs.id, id));
}

export async function listClubs(db: DbOrTx, filter: { q?: string | undefined; state?: string | undefined; near?: Near | undefined }, now: Date, page: Page) {
  const featured = featuredAt(clubs.featuredFrom, clubs.featuredUntil, now);
  const conditions: SQL[] = [eq(clubs.isActive, true), ownerShown(clubs.ownerId)];
  if (filter.state) conditions.push(eq(clubs.stateCode, filter.state));
  if (filter.near) conditions.push(withinRadius(clubs.lat, clubs.lon, filter.near));
  if (filter.q) {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(clubs.name, pattern), ilike(clubs.description, pattern), ilike(clubs.homeWater, pattern))!);
  }
  const where = and(...conditions);
  const distance = filter.near ? distanceFrom(clubs.lat, clubs.lon, filter.near) : sql<number>`NULL`;
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...selection, distanceM: distance })
      .from(clubs)
      .innerJoin(users, eq(users.id, clubs.ownerId))
      .where(where)
      .orderBy(desc(featured), ...(filter.near ? [asc(distance)] : []), asc(clubs.name), asc(clubs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(clubs).where(where),
  ]);
  return { items: rows.map((r) => ({ ...flatten(r), distanceM: r.distanceM === null ? null : Number(r.distanceM) })), total: count?.n ?? 0 };
}

export async function myClubs(db: DbOrTx, userId: string, page: Page) {
  const where = eq(clubMembers.userId, userId);
  const [rows, [count]] = await Promise.all([
    db
      .select(selection)
      .from(clubMembers)
      .innerJoin(clubs, eq(clubs.id, clubMembers.clubId))
      .innerJoin(users, eq(users.id, clubs.ownerId))
      .where(where)
      .orderBy(asc(clubs.name), asc(clubs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(clubMembers).where(where),
  ]);
  return { items: rows.map(flatten), total: count?.n ?? 0 };
}

export async function memberships(db: DbOrTx, userId: string, clubIds: string[]): Promise<Map<string, ClubMemberRow>> {
  if (clubIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(clubMembers)
    .where(and(eq(clubMembers.userId, userId), sql`${clubMembers.clubId} = ANY(${`{${clubIds.join(',')}}`}::uuid[])`));
  return new Map(rows.map((r) => [r.clubId, r]));
}

export async function findMember(db: DbOrTx, clubId: string, userId: string): Promise<ClubMemberRow | undefined> {
  const [row] = await db
    .select()
    .from(clubMembers)
    .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)));
  return row;
}

export async function members(db: DbOrTx, clubId: string, withPending: boolean) {
  return db
    .select({ member: clubMembers, username: users.username })
    .from(clubMembers)
    .innerJoin(users, eq(users.id, clubMembers.userId))
    .where(and(eq(clubMembers.clubId, clubId), withPending ? undefined : eq(clubMembers.status, 'Active')))
    .orderBy(sql`CASE ${clubMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`, asc(users.username));
}

export async function insertMember(db: DbOrTx, clubId: string, userId: string, role: ClubRole, active: boolean): Promise<void> {
  const now = new Date();
  await db.insert(clubMembers).values({ clubId, userId, role, status: active ? 'Active' : 'Pending', requestedAt: now, joinedAt: active ? now : null });
}

export async function activateMember(db: DbOrTx, clubId: string, userId: string): Promise<void> {
  await db
    .update(clubMembers)
    .set({ status: 'Active', joinedAt: new Date() })
    .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)));
}

export async function setRole(db: DbOrTx, clubId: string, userId: string, role: ClubRole): Promise<void> {
  await db
    .update(clubMembers)
    .set({ role })
    .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)));
}

export async function deleteMember(db: DbOrTx, clubId: string, userId: string): Promise<void> {
  await db.delete(clubMembers).where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)));
}

/** Recounts the active members (club row locked by the caller). */
export async function recount(db: DbOrTx, clubId: string): Promise<void> {
  await db
    .update(clubs)
    .set({ memberCount: sql`(SELECT count(*) FROM ${clubMembers} WHERE ${clubMembers.clubId} = ${clubId} AND ${clubMembers.status} = 'Active')::int` })
    .where(eq(clubs.id, clubId));
}

export interface AdminClubFilter {
  q?: string | undefined;
  status?: 'active' | 'inactive' | 'all' | undefined;
  state?: string | undefined;
  privacy?: 'Public' | 'Private' | undefined;
  featured?: boolean | undefined;
}

/** Clubs for administration, newest first: deactivated ones too (status `all` by default) and those of deactivated accounts; with their pending requests and admins. */
export async function adminListClubs(db: DbOrTx, filter: AdminClubFilter, now: Date, page: Page) {
  const conditions: SQL[] = [];
  if (filter.status === 'active') conditions.push(eq(clubs.isActive, true));
  if (filter.status === 'inactive') conditions.push(eq(clubs.isActive, false));
  if (filter.state) conditions.push(eq(clubs.stateCode, filter.state));
  if (filter.privacy) conditions.push(eq(clubs.privacy, filter.privacy));
  if (filter.featured !== undefined) {
    const featured = featuredAt(clubs.featuredFrom, clubs.featuredUntil, now);
    conditions.push(filter.featured ? featured : not(featured));
  }
  if (filter.q) {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(clubs.name, pattern), ilike(clubs.description, pattern), ilike(clubs.homeWater, pattern))!);
  }
  const where = and(...conditions);
  const counted = (status: 'Pending' | 'Active', role?: ClubRole) =>
    sql<number>`(SELECT count(*) FROM ${clubMembers} WHERE ${clubMembers.clubId} = ${clubs.id} AND ${clubMembers.status} = ${status}${role ? sql` AND ${clubMembers.role} IN ('owner', ${role})` : sql``})::int`;
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...selection, pendingRequests: counted('Pending'), admins: counted('Active', 'admin') })
      .from(clubs)
      .innerJoin(users, eq(users.id, clubs.ownerId))
      .where(where)
      .orderBy(desc(clubs.createdAt), desc(clubs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(clubs).where(where),
  ]);
  return { items: rows.map((r) => ({ ...flatten(r), pendingRequests: Number(r.pendingRequests), admins: Number(r.admins) })), total: count?.n ?? 0 };
}
