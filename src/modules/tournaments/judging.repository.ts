import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { tournamentCatches, tournamentJudges, tournamentPenalties, tournamentRegistrations, type TournamentCatchRow } from './tournaments.tables.js';
import { count } from './tournaments.repository.js';

/** SQL of judges and catch submissions; no rules. */

export async function insertJudge(db: DbOrTx, row: typeof tournamentJudges.$inferInsert): Promise<boolean> {
  const rows = await db.insert(tournamentJudges).values(row).onConflictDoNothing().returning({ userId: tournamentJudges.userId });
  return rows.length > 0;
}

export async function judgesOf(db: DbOrTx, tournamentId: string) {
  return db.select().from(tournamentJudges).where(eq(tournamentJudges.tournamentId, tournamentId)).orderBy(asc(tournamentJudges.createdAt), asc(tournamentJudges.userId));
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
