import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { versionMatches } from '../../core/db/versions.js';
import type { Precondition } from '../../core/http/conditional.js';
import type { Page } from '../../core/http/pagination.js';
import { gearSetupLures, gearSetups, type SetupRow } from './setups.tables.js';

export async function listSetups(db: DbOrTx, ownerId: string, page: Page): Promise<{ items: SetupRow[]; total: number }> {
  const where = eq(gearSetups.ownerId, ownerId);
  const [items, [count]] = await Promise.all([
    db.select().from(gearSetups).where(where).orderBy(asc(gearSetups.name), asc(gearSetups.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(gearSetups).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findSetup(db: DbOrTx, id: string): Promise<SetupRow | undefined> {
  const [row] = await db.select().from(gearSetups).where(eq(gearSetups.id, id));
  return row;
}

/** The setups among `ids` (one statement for any number). */
export async function findSetups(db: DbOrTx, ids: readonly string[]): Promise<SetupRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(gearSetups).where(inArray(gearSetups.id, [...new Set(ids)]));
}

export async function lockSetup(db: DbOrTx, id: string): Promise<SetupRow | undefined> {
  const [row] = await db.select().from(gearSetups).where(eq(gearSetups.id, id)).for('update');
  return row;
}

/** The lures of the given setups, in each setup's order (one query). */
export async function setupLures(db: DbOrTx, setupIds: string[]): Promise<Array<{ setupId: string; lureId: string }>> {
  if (setupIds.length === 0) return [];
  return db
    .select({ setupId: gearSetupLures.setupId, lureId: gearSetupLures.lureId })
    .from(gearSetupLures)
    .where(inArray(gearSetupLures.setupId, setupIds))
    .orderBy(asc(gearSetupLures.setupId), asc(gearSetupLures.position));
}

/** Inserts the setup; undefined when its id exists already (a client-chosen id). */
export async function insertSetup(db: DbOrTx, row: typeof gearSetups.$inferInsert): Promise<SetupRow | undefined> {
  const [inserted] = await db.insert(gearSetups).values(row).onConflictDoNothing({ target: gearSetups.id }).returning();
  return inserted;
}

/** Updates the setup when it is of a version `precondition` allows; undefined when not. */
export async function updateSetup(db: DbOrTx, id: string, values: Partial<typeof gearSetups.$inferInsert>, precondition?: Precondition): Promise<SetupRow | undefined> {
  const [updated] = await db
    .update(gearSetups)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(gearSetups.id, id), versionMatches(gearSetups.version, precondition)))
    .returning();
  return updated;
}

export async function setLures(db: DbOrTx, setupId: string, lureIds: string[]): Promise<void> {
  await db.delete(gearSetupLures).where(eq(gearSetupLures.setupId, setupId));
  if (lureIds.length > 0) await db.insert(gearSetupLures).values(lureIds.map((lureId, position) => ({ setupId, lureId, position })));
}

/** Deletes the setup when it is of a version `precondition` allows; false when nothing was deleted. */
export async function deleteSetup(db: DbOrTx, id: string, precondition?: Precondition): Promise<boolean> {
  const deleted = await db.delete(gearSetups).where(and(eq(gearSetups.id, id), versionMatches(gearSetups.version, precondition))).returning({ id: gearSetups.id });
  return deleted.length > 0;
}
