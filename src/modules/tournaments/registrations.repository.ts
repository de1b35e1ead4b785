import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { tournamentCatches, tournamentFeePayments, tournamentRegistrations, tournaments, type FeePaymentRow, type RegistrationRow } from './tournaments.tables.js';
import { count } from './tournaments.repository.js';

/** SQL of registrations and their entry fees; no rules. */

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
