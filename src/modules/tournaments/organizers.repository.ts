import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { tournamentOrganizers, tournamentRegistrations, tournaments, type OrganizerRow, type OrganizerStatus } from './tournaments.tables.js';
import { count, like } from './tournaments.repository.js';

/** SQL of tournament organizers; no rules. */

export async function findOrganizer(db: DbOrTx, id: string): Promise<OrganizerRow | undefined> {
  const [row] = await db.select().from(tournamentOrganizers).where(eq(tournamentOrganizers.id, id));
  return row;
}

export async function findOrganizerByUser(db: DbOrTx, userId: string, lock = false): Promise<OrganizerRow | undefined> {
  const query = db.select().from(tournamentOrganizers).where(eq(tournamentOrganizers.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function lockOrganizer(db: DbOrTx, id: string): Promise<OrganizerRow | undefined> {
  const [row] = await db.select().from(tournamentOrganizers).where(eq(tournamentOrganizers.id, id)).for('update');
  return row;
}

export async function insertOrganizer(db: DbOrTx, row: typeof tournamentOrganizers.$inferInsert): Promise<OrganizerRow> {
  const [inserted] = await db.insert(tournamentOrganizers).values(row).returning();
  return inserted!;
}

export async function updateOrganizer(db: DbOrTx, id: string, changes: Partial<typeof tournamentOrganizers.$inferInsert>): Promise<OrganizerRow> {
  const [row] = await db
    .update(tournamentOrganizers)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournamentOrganizers.id, id))
    .returning();
  return row!;
}

export async function listOrganizers(db: DbOrTx, filter: { status: OrganizerStatus; q?: string | undefined }, page: Page) {
  const where = and(
    eq(tournamentOrganizers.status, filter.status),
    filter.q ? or(ilike(tournamentOrganizers.name, like(filter.q)), ilike(tournamentOrganizers.contactEmail, like(filter.q))) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db.select().from(tournamentOrganizers).where(where).orderBy(asc(tournamentOrganizers.createdAt), asc(tournamentOrganizers.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count }).from(tournamentOrganizers).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function organizerUsage(db: DbOrTx, organizerIds: string[]): Promise<Map<string, { tournaments: number; registrations: number }>> {
  const out = new Map(organizerIds.map((id) => [id, { tournaments: 0, registrations: 0 }]));
  if (organizerIds.length === 0) return out;
  const rows = await db
    .select({
      organizerId: tournaments.organizerId,
      tournaments: sql<number>`count(DISTINCT ${tournaments.id})::int`,
      registrations: sql<number>`count(${tournamentRegistrations.id})::int`,
    })
    .from(tournaments)
    .leftJoin(tournamentRegistrations, and(eq(tournamentRegistrations.tournamentId, tournaments.id), eq(tournamentRegistrations.status, 'Active')))
    .where(inArray(tournaments.organizerId, organizerIds))
    .groupBy(tournaments.organizerId);
  for (const row of rows) out.set(row.organizerId, { tournaments: row.tournaments, registrations: row.registrations });
  return out;
}
