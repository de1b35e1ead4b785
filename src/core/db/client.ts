import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../../config.js';
import { acquireEmbeddedCluster, type EmbeddedCluster } from './embedded.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema>;
/** A transaction handle; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  pool: pg.Pool;
  db: Db;
  /** Where the data lives, for logs (password hidden). */
  description: string;
  embedded: EmbeddedCluster | undefined;
  close(): Promise<void>;
}

export function createDb(pool: pg.Pool): Db {
  return drizzle({ client: pool, schema, casing: 'snake_case' });
}

export interface OpenOptions {
  log?: (message: string) => void;
  /** application_name of the connections (shown in pg_stat_activity). */
  processName?: string;
  poolSize?: number;
}

/** Opens the configured database: DATABASE_URL when set, else the embedded server in the data folder. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: OpenOptions = {},
): Promise<Database> {
  const processName = options.processName ?? 'fishlog';
  let embedded: EmbeddedCluster | undefined;
  let url = config.databaseUrl;
  let description: string;
  if (url) {
    const parsed = new URL(url);
    description = `PostgreSQL at ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } else {
    embedded = await acquireEmbeddedCluster({ dataDir: config.dataDir, ...(options.log ? { log: options.log } : {}), processName });
    url = embedded.url();
    description = `embedded PostgreSQL in ${config.dataDir} (127.0.0.1:${embedded.port})`;
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    application_name: processName,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // A connection that fails (the server was killed, restarted, or ended it: 57P01) must never
  // crash the process: idle ones report to the pool, checked-out ones to their own listener.
  // The request that used it gets an error (a 503); the pool opens new connections later.
  pool.on('error', (error) => options.log?.(`idle database connection failed: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => options.log?.(`database connection failed: ${error.message}`));
  });
  // After the embedded server came back on another port, new connections go there.
  embedded?.onRestart(() => {
    (pool as unknown as { options: { connectionString: string } }).options.connectionString = embedded!.url();
  });
  return {
    pool,
    db: createDb(pool),
    description,
    embedded,
    async close() {
      await pool.end().catch(() => undefined);
      if (embedded) await embedded.release();
    },
  };
}
