import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { versionMatches } from '../../core/db/versions.js';
import type { Precondition } from '../../core/http/conditional.js';
import type { Page } from '../../core/http/pagination.js';
import { boats, type BoatRow } from './boats.tables.js';

export async function listBoats(db: DbOrTx, ownerId: string, page: Page): Promise<{ items: BoatRow[]; total: number }> {
  const where = eq(boats.ownerId, ownerId);
  const [items, [count]] = await Promise.all([
    db.select().from(boats).where(where).orderBy(asc(boats.name), asc(boats.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(boats).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findBoat(db: DbOrTx, id: string): Promise<BoatRow | undefined> {
  const [row] = await db.select().from(boats).where(eq(boats.id, id));
  return row;
}

export async function lockBoat(db: DbOrTx, id: string): Promise<BoatRow | undefined> {
  const [row] = await db.select().from(boats).where(eq(boats.id, id)).for('update');
  return row;
}

/** Inserts the boat; undefined when its id exists already (a client-chosen id). */
export async function insertBoat(db: DbOrTx, row: typeof boats.$inferInsert): Promise<BoatRow | undefined> {
  const [inserted] = await db.insert(boats).values(row).onConflictDoNothing({ target: boats.id }).returning();
  return inserted;
}

/** Updates the boat when it is of a version `precondition` allows; undefined when not. */
export async function updateBoat(db: DbOrTx, id: string, values: Partial<typeof boats.$inferInsert>, precondition?: Precondition): Promise<BoatRow | undefined> {
  const [updated] = await db
    .update(boats)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(boats.id, id), versionMatches(boats.version, precondition)))
    .returning();
  return updated;
}

/** Deletes the boat when it is of a version `precondition` allows; false when nothing was deleted. */
export async function deleteBoat(db: DbOrTx, id: string, precondition?: Precondition): Promise<boolean> {
  const deleted = await db.delete(boats).where(and(eq(boats.id, id), versionMatches(boats.version, precondition))).returning({ id: boats.id });
  return deleted.length > 0;
}
