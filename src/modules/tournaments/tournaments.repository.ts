import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import {
  tournamentCatches,
  tournamentDivisions,
  tournamentFeePayments,
  tournamentJudges,
  tournamentOrganizers,
  tournamentPenalties,
  tournamentRegistrations,
  tournamentResults,
  tournaments,
  tournamentSponsors,
  type DivisionRow,
  type FeePaymentRow,
  type OrganizerRow,
  type OrganizerStatus,
  type RegistrationRow,
  type SponsorTier,
  type TieBreak,
  type TournamentCatchRow,
  type TournamentRow,
  type TournamentStatus,
} from './tournaments.tables.js';

/** SQL of the tournaments module; no rules. */

const count = sql<number>`count(*)::int`;
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ---------- organizers ----------

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

export async function insertJudge(db: DbOrTx, row: typeof tournamentJudges.$inferInsert): Promise<boolean> {
  const rows = await db.insert(tournamentJudges).values(row).onConflictDoNothing().returning({ userId: tournamentJudges.userId });
  return rows.length > 0;
}

export async function judgesOf(db: DbOrTx, tournamentId: string) {
  return db.select().from(tournamentJudges).where(eq(tournamentJudges.tournamentId, tournamentId)).orderBy(asc(tournamentJudges.createdAt), asc(tournamentJudges.userId));
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
  const listed = and(inArray(tournaments.status, [...published] as TournamentStatus[]), eq(tournaments.visibility, 'Public'));
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

// ---------- registrations and fees ----------

export async function activeRegistrationCounts(db: DbOrTx, tournamentIds: string[]): Promise<Map<string, number>> {
  const out = new Map(tournamentIds.map((id) => [id, 0]));
  if (tournamentIds.length === 0) return out;
  const rows = await db
    .select({ id: tournamentRegistrations.tournamentId, n: count })
    .from(tournamentRegistrations)
    .where(and(inArray(tournamentRegistrations.tournamentId, tournamentIds), eq(tournamentRegistrations.status, 'Active')))
    .groupBy(tournamentRegistrations.tournamentId);
  for (const row of rows) out.set(row.id, row.n);
  return out;
}

export async function submissionCounts(db: DbOrTx, tournamentIds: string[]): Promise<Map<string, number>> {
  const out = new Map(tournamentIds.map((id) => [id, 0]));
  if (tournamentIds.length === 0) return out;
  const rows = await db
    .select({ id: tournamentCatches.tournamentId, n: count })
    .from(tournamentCatches)
    .where(inArray(tournamentCatches.tournamentId, tournamentIds))
    .groupBy(tournamentCatches.tournamentId);
  for (const row of rows) out.set(row.id, row.n);
  return out;
}

export async function findActiveRegistration(db: DbOrTx, divisionId: string, userId: string): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .select()
    .from(tournamentRegistrations)
    .where(and(eq(tournamentRegistrations.divisionId, divisionId), eq(tournamentRegistrations.userId, userId), eq(tournamentRegistrations.status, 'Active')));
  return row;
}

export async function insertRegistration(db: DbOrTx, row: typeof tournamentRegistrations.$inferInsert): Promise<RegistrationRow> {
  const [inserted] = await db.insert(tournamentRegistrations).values(row).returning();
  return inserted!;
}

export async function findRegistration(db: DbOrTx, tournamentId: string, id: string, lock = false): Promise<RegistrationRow | undefined> {
  const query = db
    .select()
    .from(tournamentRegistrations)
    .where(and(eq(tournamentRegistrations.tournamentId, tournamentId), eq(tournamentRegistrations.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateRegistration(db: DbOrTx, id: string, changes: Partial<typeof tournamentRegistrations.$inferInsert>): Promise<RegistrationRow> {
  const [row] = await db
    .update(tournamentRegistrations)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournamentRegistrations.id, id))
    .returning();
  return row!;
}

export async function listRegistrations(
  db: DbOrTx,
  tournamentId: string,
  filter: { userId?: string | undefined; divisionId?: string | undefined; status?: 'Active' | 'Cancelled' | undefined },
  page: Page | null,
) {
  const where = and(
    eq(tournamentRegistrations.tournamentId, tournamentId),
    filter.userId ? eq(tournamentRegistrations.userId, filter.userId) : undefined,
    filter.divisionId ? eq(tournamentRegistrations.divisionId, filter.divisionId) : undefined,
    filter.status ? eq(tournamentRegistrations.status, filter.status) : undefined,
  );
  const query = db.select().from(tournamentRegistrations).where(where).orderBy(asc(tournamentRegistrations.createdAt), asc(tournamentRegistrations.id));
  const [items, [total]] = await Promise.all([page ? query.limit(page.limit).offset(page.offset) : query, db.select({ n: count }).from(tournamentRegistrations).where(where)]);
  return { items, total: total?.n ?? 0 };
}

export async function insertFee(db: DbOrTx, row: typeof tournamentFeePayments.$inferInsert): Promise<FeePaymentRow> {
  const [inserted] = await db.insert(tournamentFeePayments).values(row).returning();
  return inserted!;
}

export async function feesOf(db: DbOrTx, registrationIds: string[]): Promise<Map<string, FeePaymentRow>> {
  if (registrationIds.length === 0) return new Map();
  const rows = await db.select().from(tournamentFeePayments).where(inArray(tournamentFeePayments.registrationId, registrationIds));
  return new Map(rows.map((r) => [r.registrationId, r]));
}

/** Sets a registration's fee; with `onlyFrom`, only while the fee is in that status (else unchanged, `undefined`). */
export async function setFee(db: DbOrTx, registrationId: string, values: { status: FeePaymentRow['status']; externalPaymentId?: string }, onlyFrom?: FeePaymentRow['status']): Promise<FeePaymentRow | undefined> {
  const [row] = await db
    .update(tournamentFeePayments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tournamentFeePayments.registrationId, registrationId), onlyFrom ? eq(tournamentFeePayments.status, onlyFrom) : undefined))
    .returning();
  return row;
}

// ---------- catches ----------

export async function insertSubmission(db: DbOrTx, row: typeof tournamentCatches.$inferInsert): Promise<TournamentCatchRow> {
  const [inserted] = await db.insert(tournamentCatches).values(row).returning();
  return inserted!;
}

export async function findSubmission(db: DbOrTx, tournamentId: string, id: string, lock = false): Promise<TournamentCatchRow | undefined> {
  const query = db
    .select()
    .from(tournamentCatches)
    .where(and(eq(tournamentCatches.tournamentId, tournamentId), eq(tournamentCatches.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateSubmission(db: DbOrTx, id: string, changes: Partial<typeof tournamentCatches.$inferInsert>): Promise<TournamentCatchRow> {
  const [row] = await db
    .update(tournamentCatches)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournamentCatches.id, id))
    .returning();
  return row!;
}

export async function listSubmissions(
  db: DbOrTx,
  tournamentId: string,
  filter: { userId?: string | undefined; status?: TournamentCatchRow['status'] | undefined; divisionId?: string | undefined },
  page: Page,
) {
  const where = and(
    eq(tournamentCatches.tournamentId, tournamentId),
    filter.userId ? eq(tournamentCatches.userId, filter.userId) : undefined,
    filter.status ? eq(tournamentCatches.status, filter.status) : undefined,
    filter.divisionId ? eq(tournamentCatches.divisionId, filter.divisionId) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({ c: tournamentCatches, anglerName: tournamentRegistrations.anglerName })
      .from(tournamentCatches)
      .innerJoin(tournamentRegistrations, eq(tournamentRegistrations.id, tournamentCatches.registrationId))
      .where(where)
      .orderBy(asc(tournamentCatches.capturedAt), asc(tournamentCatches.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count }).from(tournamentCatches).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function insertPenalty(db: DbOrTx, row: typeof tournamentPenalties.$inferInsert): Promise<void> {
  await db.insert(tournamentPenalties).values(row);
}

// ---------- leaderboard and results ----------

export interface LeaderboardDbRow {
  divisionId: string;
  registrationId: string;
  anglerName: string;
  rank: number;
  total: number;
  penalties: number;
  biggest: number;
  lastCountedAt: Date;
  counted: Array<{ id: string; speciesId: string; score: number; capturedAt: string }>;
}

/**
 * The leaderboard of every division in one statement: each angler's verified catches ranked,
 * the best N counted (a better catch culls the worst counted one), penalties deducted, then
 * ranked by net total, biggest single fish, and the earliest capture of the last counted fish.
 */
export async function leaderboard(db: DbOrTx, tournament: { id: string; tieBreaks: readonly TieBreak[] }): Promise<LeaderboardDbRow[]> {
  const tournamentId = tournament.id;
  const ties = tournament.tieBreaks.map((b) => (b === 'biggestFish' ? sql`, t.biggest DESC` : sql`, t.last_counted_at ASC`));
  const result = await db.execute<{
    division_id: string;
    registration_id: string;
    angler_name: string;
    rank: number;
    total: number;
    penalties: number;
    biggest: number;
    last_counted_at: string;
    counted: LeaderboardDbRow['counted'];
  }>(sql`
    WITH ranked AS (
      SELECT c.id, c.division_id, c.registration_id, c.species_id, c.score, c.captured_at,
             row_number() OVER (PARTITION BY c.registration_id, c.division_id ORDER BY c.score DESC, c.captured_at ASC, c.id ASC) AS n
      FROM ${tournamentCatches} c
      WHERE c.tournament_id = ${tournamentId} AND c.status = 'Verified'
    ),
    counted AS (
      SELECT r.* FROM ranked r JOIN ${tournamentDivisions} d ON d.id = r.division_id WHERE r.n <= d.best_n
    ),
    totals AS (
      SELECT division_id, registration_id,
             sum(score)::int AS gross,
             max(score)::int AS biggest,
             max(captured_at) AS last_counted_at,
             json_agg(json_build_object('id', id, 'speciesId', species_id, 'score', score, 'capturedAt', captured_at) ORDER BY score DESC, captured_at ASC, id ASC) AS counted
      FROM counted GROUP BY division_id, registration_id
    ),
    penalties AS (
      SELECT registration_id, sum(points)::int AS points FROM ${tournamentPenalties} WHERE tournament_id = ${tournamentId} GROUP BY registration_id
    )
    SELECT t.division_id, t.registration_id, reg.angler_name,
           (t.gross - coalesce(p.points, 0))::int AS total,
           coalesce(p.points, 0)::int AS penalties,
           t.biggest, t.last_counted_at, t.counted,
           rank() OVER (PARTITION BY t.division_id ORDER BY t.gross - coalesce(p.points, 0) DESC${sql.join(ties)})::int AS rank
    FROM totals t
    JOIN ${tournamentRegistrations} reg ON reg.id = t.registration_id AND reg.status = 'Active'
    LEFT JOIN penalties p ON p.registration_id = t.registration_id
    ORDER BY t.division_id, rank, t.biggest DESC, t.last_counted_at ASC, reg.angler_name, t.registration_id
  `);
  return result.rows.map((r) => ({
    divisionId: r.division_id,
    registrationId: r.registration_id,
    anglerName: r.angler_name,
    rank: r.rank,
    total: r.total,
    penalties: r.penalties,
    biggest: r.biggest,
    lastCountedAt: new Date(r.last_counted_at),
    counted: r.counted,
  }));
}

export async function resultsOf(db: DbOrTx, tournamentId: string) {
  return db
    .select({ r: tournamentResults, anglerName: tournamentRegistrations.anglerName })
    .from(tournamentResults)
    .innerJoin(tournamentRegistrations, eq(tournamentRegistrations.id, tournamentResults.registrationId))
    .where(eq(tournamentResults.tournamentId, tournamentId))
    .orderBy(asc(tournamentResults.divisionId), asc(tournamentResults.place));
}

export async function findResultOfRegistration(db: DbOrTx, divisionId: string, registrationId: string) {
  const [row] = await db
    .select()
    .from(tournamentResults)
    .where(and(eq(tournamentResults.divisionId, divisionId), eq(tournamentResults.registrationId, registrationId)));
  return row;
}

export async function findResultAtPlace(db: DbOrTx, divisionId: string, place: number) {
  const [row] = await db
    .select()
    .from(tournamentResults)
    .where(and(eq(tournamentResults.divisionId, divisionId), eq(tournamentResults.place, place)));
  return row;
}

export async function insertResults(db: DbOrTx, rows: Array<typeof tournamentResults.$inferInsert>): Promise<void> {
  if (rows.length > 0) await db.insert(tournamentResults).values(rows);
}

export async function updateResult(db: DbOrTx, id: string, changes: Partial<typeof tournamentResults.$inferInsert>): Promise<void> {
  await db
    .update(tournamentResults)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tournamentResults.id, id));
}

export async function deleteResults(db: DbOrTx, tournamentId: string): Promise<number> {
  const rows = await db.delete(tournamentResults).where(eq(tournamentResults.tournamentId, tournamentId)).returning({ id: tournamentResults.id });
  return rows.length;
}

// ---------- sponsors ----------

export async function listSponsors(db: DbOrTx, tournamentId: string) {
  return db
    .select()
    .from(tournamentSponsors)
    .where(eq(tournamentSponsors.tournamentId, tournamentId))
    .orderBy(sql`array_position(ARRAY['Title','Gold','Silver','Bronze','Supporter'], ${tournamentSponsors.tier})`, desc(tournamentSponsors.amountCents), asc(tournamentSponsors.name));
}

export async function sponsorTotals(db: DbOrTx, tournamentId: string): Promise<{ byTier: Map<SponsorTier, number>; count: number; amountCents: number }> {
  const rows = await db
    .select({ tier: tournamentSponsors.tier, n: count, amount: sql<number>`coalesce(sum(${tournamentSponsors.amountCents}), 0)::int` })
    .from(tournamentSponsors)
    .where(eq(tournamentSponsors.tournamentId, tournamentId))
    .groupBy(tournamentSponsors.tier);
  return {
    byTier: new Map(rows.map((r) => [r.tier, r.n])),
    count: rows.reduce((s, r) => s + r.n, 0),
    amountCents: rows.reduce((s, r) => s + r.amount, 0),
  };
}

export async function insertSponsor(db: DbOrTx, row: typeof tournamentSponsors.$inferInsert) {
  const [inserted] = await db.insert(tournamentSponsors).values(row).returning();
  return inserted!;
}

// ---------- notifications ----------

/** Who to tell of published results: the users of the tournament's active registrations. */
export async function activeRegistrantIds(db: DbOrTx, tournamentId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: tournamentRegistrations.userId })
    .from(tournamentRegistrations)
    .where(and(eq(tournamentRegistrations.tournamentId, tournamentId), eq(tournamentRegistrations.status, 'Active')));
  return rows.map((row) => row.userId);
}

/** A registration's tournament and registrant, by the registration's id alone. */
export async function registrationById(db: DbOrTx, id: string): Promise<{ tournamentId: string; userId: string; tournamentName: string } | undefined> {
  const [row] = await db
    .select({ tournamentId: tournamentRegistrations.tournamentId, userId: tournamentRegistrations.userId, tournamentName: tournaments.name })
    .from(tournamentRegistrations)
    .innerJoin(tournaments, eq(tournaments.id, tournamentRegistrations.tournamentId))
    .where(eq(tournamentRegistrations.id, id));
  return row;
}
