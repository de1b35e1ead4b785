import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { catches } from './fishing-log.tables.js';

export interface SpeciesCatchRow {
  speciesId: string;
  catches: number;
  anglers: number;
  lastCaughtAt: Date | null;
}

/** Catches logged per species, their anglers and the latest catch (one statement for all ids). */
export async function catchesBySpecies(db: DbOrTx, ids: readonly string[]): Promise<SpeciesCatchRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      speciesId: catches.speciesId,
      catches: sql<number>`count(*)::int`,
      anglers: sql<number>`count(DISTINCT ${catches.ownerId})::int`,
      lastCaughtAt: sql<Date | null>`max(${catches.caughtAt})`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))),
    })
    .from(catches)
    .where(inArray(catches.speciesId, [...ids]))
    .groupBy(catches.speciesId);
}
