import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../../config.js';
import { CASING } from './casing.js';
import { walArchiving } from './backup.js';
import { acquireEmbeddedCluster, type EmbeddedCluster } from './embedded.js';
import { ReplicaSet, RoutingPool } from './replicas.js';

/**
 * The Drizzle handle. It is made without the tables' schema: nothing uses Drizzle's relational
 * queries (`db.query.*`), and with a schema every transaction built a query builder per table
 * (about 80) before its first statement.
 */
export type Db = NodePgDatabase;
/** A transaction handle; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * The role the request path runs as (created by migration 0030): it reads and writes the
 * application's rows and appends to the audit log; it owns nothing, so it cannot rewrite the
 * audit log, disable its triggers, or create tables, roles or extensions.
 */
export const APPLICATION_ROLE = 'fishlog_app';

export interface Database {
  /** The connections the application uses: the owner's until `useApplicationRole()`, then fishlog_app's. */
  pool: pg.Pool;
  db: Db;
  /** The owner's connections (the role of DATABASE_URL): migrations, seeds, operator commands. */
  owner: { pool: pg.Pool; db: Db };
  /**
   * From now on `pool` and `db` run as APPLICATION_ROLE (call it after the migrations): through
   * DATABASE_APP_URL when set, else the owner's URL with the role set at connection start (a
   * connection that cannot take the role fails; it never falls back to the owner).
   */
  useApplicationRole(): Promise<void>;
  /**
   * A further pool in the role `pool` runs as (without pipelining), for a component that keeps
   * connections of its own (the job queue); the caller ends it.
   */
  extraPool(max: number, applicationName: string): pg.Pool;
  /**
   * The read replicas (DATABASE_REPLICA_URLS; core/db/replicas.ts), from `useApplicationRole()` on:
   * `db` then routes the reads of declared routes to them. Undefined without replicas.
   */
  replicas: ReplicaSet | undefined;
  /** Where the data lives, for logs (password hidden). */
  description: string;
  embedded: EmbeddedCluster | undefined;
  close(): Promise<void>;
}

export function createDb(pool: pg.Pool): Db {
  return drizzle({ client: pool, casing: CASING });
}

export interface OpenOptions {
  log?: (message: string) => void;
  /** application_name of the connections (shown in pg_stat_activity). */
  processName?: string;
  poolSize?: number;
  /** The embedded cluster, acquired (started) by the caller beforehand: the database owns it from here. */
  cluster?: Promise<EmbeddedCluster>;
}

/** Opens the configured database: DATABASE_URL when set, else the embedded server in the data folder. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseAppUrl' | 'backups' | 'replicas'>>,
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
    embedded = await (options.cluster ??
      acquireEmbeddedCluster({
        dataDir: config.dataDir,
        ...(options.log ? { log: options.log } : {}),
        processName,
        // A command that starts the cluster (no server runs) starts it archiving, as a server would.
        archiving: config.backups ? await walArchiving({ ...config, backups: config.backups }) : undefined,
      }));
    url = embedded.url();
    description = `embedded PostgreSQL in ${config.dataDir} (127.0.0.1:${embedded.port})`;
  }
  const makePool = (connectionString: string, role?: string, pipeline = false, sized?: { max: number; name: string }, replica = false): pg.Pool => {
    const pool = new pg.Pool({
      connectionString,
      max: sized?.max ?? options.poolSize ?? 10,
      application_name: sized?.name ?? processName,
      // A replica that does not answer soon is left for the primary (core/db/replicas.ts).
      connectionTimeoutMillis: replica ? 1000 : 5000,
      idleTimeoutMillis: 30_000,
      ...(role ? { options: `-c role=${role}` } : {}),
      ...(pipeline ? { pipeline } : {}),
    });
    // A connection that fails (the server was killed, restarted, or ended it: 57P01) must never
    // crash the process: idle ones report to the pool, checked-out ones to their own listener.
    // The request that used it gets an error (a 503); the pool opens new connections later.
    pool.on('error', (error) => options.log?.(`idle database connection failed: ${error.message}`));
    pool.on('connect', (client) => {
      client.on('error', (error) => options.log?.(`database connection failed: ${error.message}`));
    });
    // After the embedded server came back on another port, new connections go there.
    if (!replica) embedded?.onRestart(() => {
      (pool as unknown as { options: { connectionString: string } }).options.connectionString = embedded!.url();
    });
    return pool;
  };
  const ownerPool = makePool(url);
  const owner = { pool: ownerPool, db: createDb(ownerPool) };
  // How the application role connects (see useApplicationRole).
  const applicationPool = (sized?: { max: number; name: string }) =>
    config.databaseAppUrl && !embedded ? makePool(config.databaseAppUrl, undefined, !sized, sized) : makePool(embedded ? embedded.url() : url!, APPLICATION_ROLE, !sized, sized);
  const database: Database = {
    pool: owner.pool,
    db: owner.db,
    owner,
    description,
    embedded,
    replicas: undefined,
    async useApplicationRole() {
      if (database.pool !== owner.pool) return;
      // The request path's connections pipeline (node-postgres `pipeline`): statements issued
      // together on one connection (a transaction's) go out at once, one round trip for all.
      const pool = applicationPool();
      // Fail at start, with the reason, rather than on the first request.
      const client = await pool.connect().catch(async (error: Error) => {
        await pool.end().catch(() => undefined);
        throw new Error(`cannot connect as the application role ${APPLICATION_ROLE}: ${error.message} (run the migrations first; see docs/deployment.md "Database roles")`);
      });
      client.release();
      database.pool = pool;
      database.db = createDb(pool);
      const replicas = config.replicas;
      if (replicas && replicas.urls.length > 0) {
        // The replicas' pools run as the application role too; `db` routes the declared reads to them.
        const set = new ReplicaSet(replicas, {
          primary: () => pool,
          makePool: (replicaUrl) => makePool(replicaUrl, APPLICATION_ROLE, true, { max: replicas.poolSize, name: `${processName}-replica` }, true),
          checkName: `${processName}-replica-check`,
          log: options.log,
        });
        await set.start();
        database.replicas = set;
        database.db = createDb(new RoutingPool(set, () => pool));
      }
    },
    extraPool(max, applicationName) {
      const sized = { max, name: applicationName };
      return database.pool === owner.pool ? makePool(embedded ? embedded.url() : url!, undefined, false, sized) : applicationPool(sized);
    },
    async close() {
      await database.replicas?.close();
      if (database.pool !== owner.pool) await database.pool.end().catch(() => undefined);
      await owner.pool.end().catch(() => undefined);
      if (embedded) await embedded.release();
    },
  };
  return database;
}
