import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { LifecycleValues } from '../../core/admin/lifecycle.js';
import type { Page } from '../../core/http/pagination.js';
import { maProgramRevisions, maProgramSpecies, maPrograms, maSubmissionEvents, maSubmissions } from './master-angler.tables.js';

/** SQL of the Master Angler module; no rules. */

const count = (query: SQL) => sql<number>`(${query})`.mapWith(Number);
const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;


export async function programsOf(db: DbOrTx, jurisdictionIds: string[], activeOnly = true) {
  if (jurisdictionIds.length === 0) return [];
  return db
    .select()
    .from(maPrograms)
    .where(and(inArray(maPrograms.jurisdictionId, jurisdictionIds), activeOnly ? eq(maPrograms.isActive, true) : undefined))
    .orderBy(asc(maPrograms.name));
}

export async function programSpecies(db: DbOrTx, programIds: string[]) {
  if (programIds.length === 0) return [];
  return db
    .select()
    .from(maProgramSpecies)
    .where(and(inArray(maProgramSpecies.programId, programIds), eq(maProgramSpecies.isActive, true)));
}

export async function findProgram(db: DbOrTx, id: string) {
  const [row] = await db.select().from(maPrograms).where(eq(maPrograms.id, id));
  return row;
}

export async function lockProgram(tx: DbOrTx, id: string) {
  const [row] = await tx.select({ isActive: maPrograms.isActive, deactivationReason: maPrograms.deactivationReason }).from(maPrograms).where(eq(maPrograms.id, id)).for('update');
  return row;
}

export async function updateProgramState(tx: DbOrTx, id: string, values: LifecycleValues) {
  await tx.update(maPrograms).set(values).where(eq(maPrograms.id, id));
}

export async function findSubmission(db: DbOrTx, id: string, lock = false) {
  const query = db.select().from(maSubmissions).where(eq(maSubmissions.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function submissionEvents(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select().from(maSubmissionEvents).where(inArray(maSubmissionEvents.submissionId, ids)).orderBy(asc(maSubmissionEvents.at), asc(maSubmissionEvents.id));
}

export async function submissionsPage(db: DbOrTx, where: SQL | undefined, page: { limit: number; offset: number }) {
  const [items, [count]] = await Promise.all([
    db.select().from(maSubmissions).where(where).orderBy(desc(maSubmissions.createdAt), desc(maSubmissions.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(maSubmissions).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function approvedOf(db: DbOrTx, userId: string, year?: number) {
  return db
    .select({ programId: maSubmissions.programId, programYear: maSubmissions.programYear, speciesId: maSubmissions.speciesId })
    .from(maSubmissions)
    .where(and(eq(maSubmissions.userId, userId), eq(maSubmissions.status, 'Approved'), year ? eq(maSubmissions.programYear, year) : undefined));
}

// Administration

export interface ProgramFilter {
  jurisdictionId?: string | undefined;
  active?: boolean | undefined;
  q?: string | undefined;
}

export const programUsage = {
  submissions: count(sql`SELECT count(*) FROM ${maSubmissions} WHERE ${maSubmissions.programId} = ${maPrograms.id}`),
  pending: count(sql`SELECT count(*) FROM ${maSubmissions} WHERE ${maSubmissions.programId} = ${maPrograms.id} AND ${maSubmissions.status} IN ('Submitted', 'UnderReview')`),
  approved: count(sql`SELECT count(*) FROM ${maSubmissions} WHERE ${maSubmissions.programId} = ${maPrograms.id} AND ${maSubmissions.status} = 'Approved'`),
  anglers: count(sql`SELECT count(DISTINCT ${maSubmissions.userId}) FROM ${maSubmissions} WHERE ${maSubmissions.programId} = ${maPrograms.id}`),
};
export type ProgramUsage = { [K in keyof typeof programUsage]: number };

export async function programsPage(db: DbOrTx, filter: ProgramFilter, page: Page) {
  const where = and(
    filter.jurisdictionId ? eq(maPrograms.jurisdictionId, filter.jurisdictionId) : undefined,
    filter.active === undefined ? undefined : eq(maPrograms.isActive, filter.active),
    filter.q ? ilike(maPrograms.name, like(filter.q)) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db.select({ id: maPrograms.id, ...programUsage }).from(maPrograms).where(where).orderBy(asc(maPrograms.name), asc(maPrograms.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(maPrograms).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function programUsageOf(db: DbOrTx, id: string): Promise<ProgramUsage> {
  const [row] = await db.select(programUsage).from(maPrograms).where(eq(maPrograms.id, id));
  return row ?? { submissions: 0, pending: 0, approved: 0, anglers: 0 };
}

export async function programRevisionsPage(db: DbOrTx, programId: string, page: Page) {
  const where = eq(maProgramRevisions.programId, programId);
  const [items, [total]] = await Promise.all([
    db.select().from(maProgramRevisions).where(where).orderBy(desc(maProgramRevisions.revision)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(maProgramRevisions).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Active programs per jurisdiction, for the jurisdictions' admin usage (one statement for a page). */
export async function activeProgramsByJurisdiction(db: DbOrTx, jurisdictionIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ jurisdictionId: maPrograms.jurisdictionId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(maPrograms)
    .where(and(inArray(maPrograms.jurisdictionId, [...jurisdictionIds]), eq(maPrograms.isActive, true)))
    .groupBy(maPrograms.jurisdictionId);
  return new Map(rows.map((row) => [row.jurisdictionId, row.n]));
}
