import { and, asc, desc, eq, isNotNull, isNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { ErasureAction } from '../../core/personal-data.js';
import { users } from '../users/index.js';
import { accountDeletions, type AccountDeletionRow, type DeletionStatus } from './accounts.tables.js';

/** Account deletions: SQL only (the rules are in deletion.service.ts). */

export async function findDeletion(db: DbOrTx, userId: string, options: { lock?: boolean } = {}): Promise<AccountDeletionRow | undefined> {
  const query = db.select().from(accountDeletions).where(eq(accountDeletions.userId, userId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * Schedules the deletion in one statement: a new row, or a cancelled one asked again. A deletion
 * pending already is left as it is (two requests at once schedule one erasure): answers undefined then.
 */
export async function schedule(db: DbOrTx, userId: string, requestedAt: Date, eraseAfter: Date): Promise<AccountDeletionRow | undefined> {
  const [row] = await db
    .insert(accountDeletions)
    .values({ userId, status: 'Pending', requestedAt, eraseAfter })
    .onConflictDoUpdate({
      target: accountDeletions.userId,
      set: { status: 'Pending', requestedAt, eraseAfter, cancelledAt: null, updatedAt: requestedAt },
      setWhere: sql`${accountDeletions.status} = 'Cancelled'`,
    })
    .returning();
  return row;
}

export async function cancel(db: DbOrTx, userId: string, at: Date): Promise<AccountDeletionRow | undefined> {
  const [row] = await db
    .update(accountDeletions)
    .set({ status: 'Cancelled', cancelledAt: at, updatedAt: at })
    .where(and(eq(accountDeletions.userId, userId), eq(accountDeletions.status, 'Pending')))
    .returning();
  return row;
}

export async function setLegalHold(db: DbOrTx, userId: string, hold: { at: Date; by: string | null; reason: string } | null, now: Date): Promise<AccountDeletionRow> {
  const [row] = await db
    .update(accountDeletions)
    .set(hold ? { legalHoldAt: hold.at, legalHoldBy: hold.by, legalHoldReason: hold.reason, updatedAt: now } : { legalHoldAt: null, legalHoldBy: null, legalHoldReason: null, updatedAt: now })
    .where(eq(accountDeletions.userId, userId))
    .returning();
  return row!;
}

/**
 * The next pending deletion due at `now` and not on legal hold, locked (SKIP LOCKED: processes
 * erasing at once share the work); none of `skip` (those that failed in this run).
 */
export async function lockNextDue(db: DbOrTx, now: Date, skip: readonly string[] = []): Promise<AccountDeletionRow | undefined> {
  const [row] = await db
    .select()
    .from(accountDeletions)
    .where(
      and(
        eq(accountDeletions.status, 'Pending'),
        lte(accountDeletions.eraseAfter, now),
        isNull(accountDeletions.legalHoldAt),
        skip.length > 0 ? notInArray(accountDeletions.userId, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(accountDeletions.eraseAfter))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function markErased(db: DbOrTx, userId: string, at: Date, idpSubject: string): Promise<void> {
  await db.update(accountDeletions).set({ status: 'Erased', erasedAt: at, idpSubject, legalHoldAt: null, legalHoldBy: null, legalHoldReason: null, updatedAt: at }).where(eq(accountDeletions.userId, userId));
}

/** Erased accounts whose identity-provider user is still to be deleted. */
export async function idpDeletionsDue(db: DbOrTx, limit: number): Promise<Array<{ userId: string; idpSubject: string }>> {
  const rows = await db
    .select({ userId: accountDeletions.userId, idpSubject: accountDeletions.idpSubject })
    .from(accountDeletions)
    .where(and(eq(accountDeletions.status, 'Erased'), isNotNull(accountDeletions.idpSubject)))
    .orderBy(asc(accountDeletions.erasedAt))
    .limit(limit);
  return rows.map((r) => ({ userId: r.userId, idpSubject: r.idpSubject! }));
}

export async function forgetIdpSubject(db: DbOrTx, userId: string): Promise<void> {
  await db.update(accountDeletions).set({ idpSubject: null }).where(eq(accountDeletions.userId, userId));
}

/**
 * The rows of one registered column (core/personal-data.ts): `delete` deletes them, `detach`
 * sets the column to null, `keep` leaves them. Table and column names come from the modules'
 * registrations, never from a request.
 */
export async function applyErasure(db: DbOrTx, table: string, column: string, action: ErasureAction, userId: string): Promise<void> {
  const name = sql.raw(table.split('.').map((part) => `"${part.replaceAll('"', '""')}"`).join('.'));
  const col = sql.identifier(column);
  if (action === 'delete') await db.execute(sql`DELETE FROM ${name} WHERE ${col} = ${userId}`);
  else if (action === 'detach') await db.execute(sql`UPDATE ${name} SET ${col} = NULL WHERE ${col} = ${userId}`);
}

export interface DeletionFilter {
  status?: DeletionStatus | undefined;
  legalHold?: boolean | undefined;
  dueBefore?: Date | undefined;
}

export interface DeletionWithUser extends AccountDeletionRow {
  username: string;
  email: string | null;
}

function selectWithUser(db: DbOrTx) {
  return db.select({ deletion: accountDeletions, username: users.username, email: users.email }).from(accountDeletions).innerJoin(users, eq(users.id, accountDeletions.userId));
}

export async function deletionWithUser(db: DbOrTx, userId: string): Promise<DeletionWithUser | undefined> {
  const [row] = await selectWithUser(db).where(eq(accountDeletions.userId, userId));
  return row ? { ...row.deletion, username: row.username, email: row.email } : undefined;
}

/** The administration's list: deletions with their user, newest request first. */
export async function listDeletions(db: DbOrTx, filter: DeletionFilter, page: Page): Promise<{ items: DeletionWithUser[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(accountDeletions.status, filter.status));
  if (filter.legalHold !== undefined) conditions.push(filter.legalHold ? isNotNull(accountDeletions.legalHoldAt) : isNull(accountDeletions.legalHoldAt));
  if (filter.dueBefore) conditions.push(lte(accountDeletions.eraseAfter, filter.dueBefore));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [count]] = await Promise.all([
    selectWithUser(db)
      .where(where)
      .orderBy(desc(accountDeletions.requestedAt), desc(accountDeletions.userId))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(accountDeletions).where(where),
  ]);
  return { items: rows.map((r) => ({ ...r.deletion, username: r.username, email: r.email })), total: count?.n ?? 0 };
}

/** Every column of the database with a foreign key to `users` (schema-qualified outside `public`), with whether it may be null. */
export async function userForeignKeys(db: DbOrTx): Promise<Array<{ table: string; column: string; nullable: boolean }>> {
  const result = await db.execute<{ table: string; column: string; nullable: boolean }>(sql`
    SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END AS "table",
           a.attname AS "column", NOT a.attnotnull AS nullable
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
    WHERE k.contype = 'f' AND k.confrelid = 'public.users'::regclass
    ORDER BY 1, 2`);
  return result.rows;
}
