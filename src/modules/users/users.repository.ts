import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import { userSignIns, users, type UserRow } from './users.tables.js';

export async function upsertFromClaims(db: DbOrTx, claims: { sub: string; username: string; email: string | undefined }): Promise<UserRow> {
  const { inserted: _inserted, ...row } = await upsertUserFromClaims(db, claims);
  return row;
}

/** The same, saying whether the user was created by this statement (first sight of the identity). */
export async function upsertUserFromClaims(db: DbOrTx, claims: { sub: string; username: string; email: string | undefined }): Promise<UserRow & { inserted: boolean }> {
  // One statement: concurrent first requests of one identity cannot create two users.
  const [row] = await db
    .insert(users)
    .values({ id: uuidv7(), sub: claims.sub, username: claims.username, email: claims.email ?? null })
    .onConflictDoUpdate({
      target: users.sub,
      set: { username: claims.username, email: claims.email ?? null, updatedAt: sql`CASE WHEN ${users.username} IS DISTINCT FROM excluded.username OR ${users.email} IS DISTINCT FROM excluded.email THEN now() ELSE ${users.updatedAt} END` },
    })
    .returning({ ...getTableColumns(users), inserted: sql<boolean>`(xmax = 0)` });
  return row!;
}

export async function findById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findByIdForUpdate(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function findBySub(db: DbOrTx, sub: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.sub, sub));
  return row;
}

export async function findByUsername(db: DbOrTx, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
  return row;
}

/** Serialises role changes (taken first: two demotions cannot deadlock or both pass). */
const ROLE_CHANGE_LOCK_KEY = 7_146_250_005;

export async function lockRoleChanges(db: DbOrTx): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${ROLE_CHANGE_LOCK_KEY})`);
}

/**
 * Locks the users of `role` who can sign in and returns their ids (for "last admin" checks):
 * active (not deactivated), not banned and, with the embedded identity provider, enabled and confirmed
 * there. (With Cognito the local pool is empty and the provider's state is not known here.)
 */
export async function lockIdsWhoCanSignIn(db: DbOrTx, role: number): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    SELECT u.id FROM users u
    WHERE u.role = ${role} AND u.is_active
      AND (NOT EXISTS (SELECT 1 FROM idp.users)
           OR EXISTS (SELECT 1 FROM idp.users i WHERE i.sub::text = u.sub AND i.enabled AND i.status = 'CONFIRMED'))
      AND NOT EXISTS (SELECT 1 FROM user_bans b WHERE b.user_id = u.id AND b.lifted_at IS NULL
                        AND (b.ends_at IS NULL OR b.ends_at > now()))
    FOR UPDATE OF u`);
  return result.rows.map((r) => r.id);
}

export async function setRole(db: DbOrTx, id: string, role: number): Promise<UserRow> {
  const [row] = await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row!;
}

/** `%`, `_` and `\\` match themselves in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Active users whose username starts with `prefix` (case-insensitive), by username; at most `limit`.
 * Served by users_username_lower_prefix_idx (lower(username) text_pattern_ops).
 */
export function usernamePrefixQuery(db: DbOrTx, prefix: string, limit: number) {
  return db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(sql`lower(${users.username}) LIKE ${`${likeLiteral(prefix.toLowerCase())}%`}`, eq(users.isActive, true)))
    .orderBy(asc(sql`lower(${users.username})`), asc(users.id))
    .limit(limit);
}

export async function insertSignIn(db: DbOrTx, values: { userId: string; ipAddress: string | null; userAgent: string | null }): Promise<void> {
  await db.insert(userSignIns).values({ id: uuidv7(), ...values });
}

/** Deactivates the account while its person's deletion of it is pending (they may still sign in to read or cancel it). */
export async function markDeletionRequested(db: DbOrTx, id: string, at: Date): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ isActive: false, deactivatedAt: at, deactivatedBy: id, deletionRequestedAt: at, updatedAt: at }).where(eq(users.id, id)).returning();
  return row;
}

/** Reactivates the account whose pending deletion was cancelled. */
export async function clearDeletionRequested(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db.update(users).set({ isActive: true, deactivatedAt: null, deactivatedBy: null, deletionRequestedAt: null, updatedAt: at }).where(eq(users.id, id));
}

/**
 * The erased account as it stays for the records kept ("a former angler"): its id, no name,
 * e-mail or identity-provider subject (a placeholder that no token carries), deactivated.
 */
export async function eraseIdentity(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db
    .update(users)
    .set({ sub: `erased:${id}`, username: FORMER_ANGLER, email: null, isActive: false, deletionRequestedAt: null, erasedAt: at, updatedAt: at })
    .where(eq(users.id, id));
}

/** The name an erased account shows where a kept record names it. */
export const FORMER_ANGLER = 'former angler';
