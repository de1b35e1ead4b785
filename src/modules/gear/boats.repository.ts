import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
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

export async function insertBoat(db: DbOrTx, row: typeof boats.$inferInsert): Promise<BoatRow> {
  const [inserted] = await db.insert(boats).values(row).returning();
  return inserted!;
}

export async function updateBoat(db: DbOrTx, id: string, values: Partial<typeof boats.$inferInsert>): Promise<BoatRow> {
  const [updated] = await db
    .update(boats)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(boats.id, id))
    .returning();
  return updated!;
}

export async function deleteBoat(db: DbOrTx, id: string): Promise<void> {
  await db.delete(boats).where(eq(boats.id, id));
}
