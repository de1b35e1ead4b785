import type pg from 'pg';
import { seeds } from '../../seeds.js';
import { migrateDatabase } from './migrate.js';
import { applySeeds } from './seeds.js';

/** Start-up database work: migrations, then the seeds not applied yet. */
export async function prepareDatabase(pool: pg.Pool, log: (message: string) => void): Promise<void> {
  await migrateDatabase(pool);
  await applySeeds(pool, seeds, { log });
}
