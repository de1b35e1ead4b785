import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { tournamentCatches, tournamentDivisions, tournamentPenalties, tournamentRegistrations, tournamentResults, type TieBreak } from './tournaments.tables.js';

/** SQL of the leaderboard and the official results; no rules. */

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
