import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { DbOrTx } from '../../core/db/client.js';
import { users, type UserRow } from './users.tables.js';

export async function upsertFromClaims(db: DbOrTx, claims: { sub: string; username: string; email: string | undefined }): Promise<UserRow> {
  // One statement: concurrent first requests of one identity cannot create two users.
  const [row] = await db
    .insert(users)
    .values({ id: uuidv7(), sub: claims.sub, username: claims.username, email: claims.email ?? null })
    .onConflictDoUpdate({
      target: users.sub,
      set: { username: claims.username, email: claims.email ?? null, updatedAt: sql`CASE WHEN ${users.username} IS DISTINCT FROM excluded.username OR ${users.email} IS DISTINCT FROM excluded.email THEN now() ELSE ${users.updatedAt} END` },
    })
    .returning();
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

/** Locks every user of `role` and returns their ids (for "last admin" checks). */
export async function lockIdsWithRole(db: DbOrTx, role: number): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, role)).for('update');
  return rows.map((r) => r.id);
}

export async function setRole(db: DbOrTx, id: string, role: number): Promise<UserRow> {
  const [row] = await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row!;
}
