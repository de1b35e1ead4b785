import { randomUUID } from 'node:crypto';
import type { TestApp } from './harness.js';

/** Helpers of the catalog tests (species, brands, gear). */


/** Logs a catch directly in the fishing-log tables (that module's API is not part of these tests). */
export async function logCatch(t: TestApp, ownerId: string, speciesId: string, options: { gearSetupId?: string } = {}): Promise<string> {
  const entryId = randomUUID();
  const catchId = randomUUID();
  await t.database.pool.query(`INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone) VALUES ($1, $2, 'Evening bite', now(), 'America/Chicago')`, [entryId, ownerId]);
  await t.database.pool.query(`INSERT INTO catches (id, entry_id, owner_id, species_id, released, caught_at, gear_setup_id) VALUES ($1, $2, $3, $4, true, now(), $5)`, [
    catchId,
    entryId,
    ownerId,
    speciesId,
    options.gearSetupId ?? null,
  ]);
  return catchId;
}



