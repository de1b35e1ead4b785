import { and, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { accountExports, type AccountExportRow } from './accounts.tables.js';

/** Copies of a person's data: SQL only (the rules are in export.service.ts). */

/** Serialises one person's export requests (the one-at-a-time and once-a-day rules) until the transaction ends. */
export async function lockUser(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`accounts.export:${userId}`}, 0))`);
}

/** The person's newest export, of any status. */
export async function latestOf(db: DbOrTx, userId: string): Promise<AccountExportRow | undefined> {
  const [row] = await db.select().from(accountExports).where(eq(accountExports.userId, userId)).orderBy(desc(accountExports.requestedAt)).limit(1);
  return row;
}

/** The person's newest export that counts for the once-a-day rule (a failed one does not). */
export async function latestCountedOf(db: DbOrTx, userId: string): Promise<AccountExportRow | undefined> {
  const [row] = await db
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.userId, userId), ne(accountExports.status, 'Failed')))
    .orderBy(desc(accountExports.requestedAt))
    .limit(1);
  return row;
}

export async function insertPending(db: DbOrTx, id: string, userId: string, requestedAt: Date): Promise<AccountExportRow> {
  const [row] = await db.insert(accountExports).values({ id, userId, status: 'Pending', requestedAt }).returning();
  return row!;
}

export async function find(db: DbOrTx, id: string): Promise<AccountExportRow | undefined> {
  const [row] = await db.select().from(accountExports).where(eq(accountExports.id, id));
  return row;
}

/** Pending → Ready; undefined when the export is no longer pending (or was deleted with its account). */
export async function markReady(db: DbOrTx, id: string, readyAt: Date, expiresAt: Date, size: number): Promise<AccountExportRow | undefined> {
  const [row] = await db
    .update(accountExports)
    .set({ status: 'Ready', readyAt, expiresAt, size, updatedAt: readyAt })
    .where(and(eq(accountExports.id, id), eq(accountExports.status, 'Pending')))
    .returning();
  return row;
}

export async function markFailed(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(accountExports)
    .set({ status: 'Failed', updatedAt: now })
    .where(and(eq(accountExports.id, id), eq(accountExports.status, 'Pending')));
}

/** Ready exports whose time is up become Expired; answers their ids (their files are to be deleted). */
export async function expireDue(db: DbOrTx, now: Date): Promise<string[]> {
  const rows = await db
    .update(accountExports)
    .set({ status: 'Expired', updatedAt: now })
    .where(and(eq(accountExports.status, 'Ready'), lte(accountExports.expiresAt, now)))
    .returning({ id: accountExports.id });
  return rows.map((row) => row.id);
}

/** Pending exports asked for before `before` (their job was lost) become Failed. */
export async function failStale(db: DbOrTx, before: Date, now: Date): Promise<void> {
  await db
    .update(accountExports)
    .set({ status: 'Failed', updatedAt: now })
    .where(and(eq(accountExports.status, 'Pending'), lte(accountExports.requestedAt, before)));
}

/** Of these ids, those whose export is Pending or Ready (their files are live). */
export async function liveIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: accountExports.id })
    .from(accountExports)
    .where(and(inArray(accountExports.id, ids), inArray(accountExports.status, ['Pending', 'Ready'])));
  return new Set(rows.map((row) => row.id));
}
