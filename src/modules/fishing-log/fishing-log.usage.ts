import type { DbOrTx } from '../../core/db/client.js';
import type { SpeciesCatchUsage } from '../species/index.js';
import * as repo from './usage.repository.js';

/**
 * What the fishing log tells the reference modules about their use (registered in
 * the registering module's <module>.module.ts): the catches logged of each species, for the species' admin statistics.
 */
export async function catchesBySpecies(db: DbOrTx, ids: readonly string[]): Promise<Map<string, SpeciesCatchUsage>> {
  const rows = await repo.catchesBySpecies(db, ids);
  return new Map(rows.map(({ speciesId, ...usage }) => [speciesId, usage]));
}
