import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { migrationsFolder } from '../../paths.js';
import { assertGeoExtensionsAvailable } from './geo.js';
import { installJobQueue } from '../jobs/install.js';
import { jobSpecs } from '../../jobs.js';
import { installWritePositions } from './replicas.js';

/** Advisory lock key shared by every process that migrates or seeds the database. */
export const SCHEMA_LOCK_KEY = 7_146_250_002;

/**
 * Runs `fn` on one connection that holds the schema lock, so that two processes starting at
 * once migrate and seed one after the other.
 */
export async function withSchemaLock<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Applies the SQL migrations in drizzle/ that the database has not seen, then installs the job queue and the replicas' write positions (idempotent). */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  await withSchemaLock(pool, async (client) => {
    // Notices such as "schema drizzle already exists, skipping" are not worth a log line.
    await client.query("SET client_min_messages = 'warning'");
    await assertGeoExtensionsAvailable(client);
    await migrate(drizzle({ client }), { migrationsFolder });
    await installJobQueue(client, jobSpecs);
    // Read-your-writes with read replicas when REDIS_URL is not set (core/db/replicas.ts).
    await installWritePositions(client);
  });
}
