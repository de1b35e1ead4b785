import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { ownerShown } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { tournamentDivisions, tournamentJudges, tournamentOrganizers, tournamentRegistrations, tournaments, type DivisionRow, type OrganizerStatus, type TournamentRow, type TournamentStatus } from './tournaments.tables.js';

/** SQL of the tournaments module; no rules. */

export const count = sql<number>`count(*)::int`;
export const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ---------- tournaments ----------

export interface TournamentWithOrganizer {
  t: TournamentRow;
  organizerName: string;
  organizerStatus: OrganizerStatus;
}

const withOrganizer = { t: tournaments, organizerName: tournamentOrganizers.name, organizerStatus: tournamentOrganizers.status };

function tournamentsFrom(db: DbOrTx) {
  return db.select(withOrganizer).from(tournaments).innerJoin(tournamentOrganizers, eq(tournamentOrganizers.id, tournaments.organizerId));
}

export async function findTournament(db: DbOrTx, id: string): Promise<TournamentWithOrganizer | undefined> {
  const [row] = await tournamentsFrom(db).where(eq(tournaments.id, id));
  return row;
}

export async function lockTournament(db: DbOrTx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
  return row;
}

export async function insertTournament(db: DbOrTx, row: typeof tournaments.$inferInsert): Promise<TournamentRow> {
  const [inserted] = await db.insert(tournaments).values(row).returning();
  return inserted!;
}

export async function updateTournament(db: DbOrTx, id: string, changes: Partial<typeof tournaments.$inferInsert>): Promise<TournamentRow> {
  const [row] = await db
    .update(tournaments)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournaments.id, id))
    .returning();
  return row!;
}

export async function isRegistered(db: DbOrTx, tournamentId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: tournamentRegistrations.id })
    .from(tournamentRegistrations)
    .where(and(eq(tournamentRegistrations.tournamentId, tournamentId), eq(tournamentRegistrations.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

export async function isJudge(db: DbOrTx, tournamentId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: tournamentJudges.userId })
    .from(tournamentJudges)
    .where(and(eq(tournamentJudges.tournamentId, tournamentId), eq(tournamentJudges.userId, userId)));
  return rows.length > 0;
}

export interface TournamentFilter {
  status?: TournamentStatus | undefined;
  state?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  speciesId?: string | undefined;
  q?: string | undefined;
  organizerId?: string | undefined;
}

function filterConditions(filter: TournamentFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(tournaments.status, filter.status));
  if (filter.state) where.push(eq(tournaments.stateCode, filter.state.toUpperCase()));
  if (filter.from) where.push(sql`${tournaments.endsAt} >= ${new Date(filter.from)}`);
  if (filter.to) where.push(sql`${tournaments.startsAt} <= ${new Date(filter.to)}`);
  if (filter.organizerId) where.push(eq(tournaments.organizerId, filter.organizerId));
  if (filter.speciesId) {
    where.push(sql`EXISTS (SELECT 1 FROM ${tournamentDivisions} d WHERE d.tournament_id = ${tournaments.id} AND d.species_ids @> ARRAY[${filter.speciesId}]::uuid[])`);
  }
  if (filter.q) {
    const pattern = like(filter.q);
    where.push(or(ilike(tournaments.name, pattern), ilike(tournaments.description, pattern), ilike(tournaments.waterBody, pattern))!);
  }
  return where;
}

/**
 * Tournaments `viewerId` may see in lists: published Public ones, their own, and those they are
 * registered in (`mine`: only the last two).
 */
export async function listVisible(db: DbOrTx, viewerId: string, filter: TournamentFilter & { mine?: boolean | undefined }, published: readonly string[], page: Page) {
  const own = eq(tournaments.ownerId, viewerId);
  const registered = sql`${tournaments.id} IN (SELECT tournament_id FROM ${tournamentRegistrations} WHERE user_id = ${viewerId})`;
  const listed = and(inArray(tournaments.status, [...published] as TournamentStatus[]), eq(tournaments.visibility, 'Public'), ownerShown(tournaments.ownerId));
  const where = and(filter.mine ? or(own, registered) : or(listed, own, registered), ...filterConditions(filter));
  const [items, [total]] = await Promise.all([
    tournamentsFrom(db).where(where).orderBy(asc(tournaments.startsAt), asc(tournaments.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count }).from(tournaments).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function adminList(db: DbOrTx, filter: TournamentFilter, page: Page) {
  const where = and(...filterConditions(filter));
  const [items, [total]] = await Promise.all([
    tournamentsFrom(db).where(where).orderBy(asc(tournaments.startsAt), asc(tournaments.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count }).from(tournaments).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/**
 * Sets the closing reason of registrations on an organizer's tournaments that have not started:
 * `reason` to close them, null to reopen; `onlyIf` restricts it to the ones closed for that reason.
 */
export async function setUpcomingRegistrationsClosed(db: DbOrTx, organizerId: string, reason: string | null, onlyIf: string | null, now: Date): Promise<string[]> {
  const rows = await db
    .update(tournaments)
    .set({ registrationsClosedReason: reason, updatedAt: new Date() })
    .where(
      and(
        eq(tournaments.organizerId, organizerId),
        sql`${tournaments.startsAt} > ${now}`,
        onlyIf === null ? sql`${tournaments.registrationsClosedReason} IS NULL` : eq(tournaments.registrationsClosedReason, onlyIf),
      ),
    )
    .returning({ id: tournaments.id });
  return rows.map((r) => r.id);
}

/** Moves Approved tournaments past their start to InProgress, and InProgress past their end to Completed. */
export async function advanceStatuses(db: DbOrTx, now: Date): Promise<{ started: number; completed: number }> {
  const started = await db
    .update(tournaments)
    .set({ status: 'InProgress', updatedAt: now })
    .where(and(eq(tournaments.status, 'Approved'), sql`${tournaments.startsAt} <= ${now}`))
    .returning({ id: tournaments.id });
  const completed = await db
    .update(tournaments)
    .set({ status: 'Completed', updatedAt: now })
    .where(and(eq(tournaments.status, 'InProgress'), sql`${tournaments.endsAt} <= ${now}`))
    .returning({ id: tournaments.id });
  return { started: started.length, completed: completed.length };
}

// ---------- divisions ----------

export async function divisionsOf(db: DbOrTx, tournamentIds: string[]): Promise<DivisionRow[]> {
  if (tournamentIds.length === 0) return [];
  return db
    .select()
    .from(tournamentDivisions)
    .where(inArray(tournamentDivisions.tournamentId, tournamentIds))
    .orderBy(asc(tournamentDivisions.tournamentId), asc(tournamentDivisions.position), asc(tournamentDivisions.id));
}

export async function insertDivisions(db: DbOrTx, rows: Array<typeof tournamentDivisions.$inferInsert>): Promise<void> {
  if (rows.length > 0) await db.insert(tournamentDivisions).values(rows);
}

export async function updateDivision(db: DbOrTx, id: string, changes: Partial<typeof tournamentDivisions.$inferInsert>): Promise<void> {
  await db
    .update(tournamentDivisions)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournamentDivisions.id, id));
}

export async function deleteDivisions(db: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(tournamentDivisions).where(inArray(tournamentDivisions.id, ids));
}

export async function divisionsWithRegistrations(db: DbOrTx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectDistinct({ id: tournamentRegistrations.divisionId }).from(tournamentRegistrations).where(inArray(tournamentRegistrations.divisionId, ids));
  return rows.map((r) => r.id);
}
