import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import { versionMatches } from '../../core/db/versions.js';
import type { ClientId } from '../../core/http/client-ids.js';
import type { Precondition } from '../../core/http/conditional.js';
import { fishingSessions, logEntries, type SessionRow } from './fishing-log.tables.js';

export type SessionValues = Omit<typeof fishingSessions.$inferInsert, 'id' | 'ownerId' | 'createdAt' | 'updatedAt' | 'version' | 'createDigest'>;
const s = fishingSessions;
// Qualified by hand: Drizzle renders columns of a single-table select unqualified.
const entryCount = sql<number>`(SELECT count(*)::int FROM ${logEntries} le WHERE le.session_id = "fishing_sessions"."id")`;

/** Inserts a session; `client`: the id the client chose (with its request's digest): undefined when that id exists already. */
export async function insertSession(db: DbOrTx, ownerId: string, values: SessionValues, client?: ClientId): Promise<SessionRow | undefined> {
  const [row] = await db
    .insert(s)
    .values({ id: client?.id ?? uuidv7(), ownerId, createDigest: client?.digest ?? null, ...values })
    .onConflictDoNothing({ target: s.id })
    .returning();
  return row;
}

export async function findSession(db: DbOrTx, id: string): Promise<(SessionRow & { entryCount: number }) | undefined> {
  const [row] = await db.select({ session: s, entryCount }).from(s).where(eq(s.id, id));
  return row ? { ...row.session, entryCount: row.entryCount } : undefined;
}

/** A session an entry may name: its owner (what the session policy decides on). */
export async function linkableSession(db: DbOrTx, id: string): Promise<{ ownerId: string } | undefined> {
  const [row] = await db.select({ ownerId: s.ownerId }).from(s).where(eq(s.id, id));
  return row;
}

export async function listSessions(db: DbOrTx, ownerId: string, filters: { from?: string; to?: string }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [sql`${s.ownerId} = ${ownerId}`];
  if (filters.from) conditions.push(sql`${s.startedAt} >= ${filters.from}`);
  if (filters.to) conditions.push(sql`${s.startedAt} <= ${filters.to}`);
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db.select({ session: s, entryCount }).from(s).where(where).orderBy(sql`${s.startedAt} DESC NULLS LAST, ${s.id} DESC NULLS LAST`).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(s).where(where),
  ]);
  return { items: rows.map((r) => ({ ...r.session, entryCount: r.entryCount })), total: count?.n ?? 0 };
}

export async function entriesOfSession(db: DbOrTx, sessionId: string) {
  return db
    .select({ id: logEntries.id, title: logEntries.title, occurredAt: logEntries.occurredAt })
    .from(logEntries)
    .where(eq(logEntries.sessionId, sessionId))
    .orderBy(asc(logEntries.occurredAt), asc(logEntries.id));
}

export async function lockSession(tx: DbOrTx, id: string): Promise<SessionRow | undefined> {
  const [row] = await tx.select().from(s).where(eq(s.id, id)).for('update');
  return row;
}

/** Updates the session when it is of a version `precondition` allows; false when not. */
export async function updateSession(tx: DbOrTx, id: string, values: SessionValues, precondition?: Precondition): Promise<boolean> {
  const updated = await tx.update(s).set({ ...values, updatedAt: new Date() }).where(and(eq(s.id, id), versionMatches(s.version, precondition))).returning({ id: s.id });
  return updated.length > 0;
}

/** Deletes the session when it is of a version `precondition` allows (false when not); its entries stay, detached (the foreign key sets their session_id to null). */
export async function deleteSession(tx: DbOrTx, id: string, precondition?: Precondition): Promise<boolean> {
  const deleted = await tx.delete(s).where(and(eq(s.id, id), versionMatches(s.version, precondition))).returning({ id: s.id });
  return deleted.length > 0;
}
