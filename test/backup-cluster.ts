import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { main } from '../src/cli/index.js';
import { loadConfig } from '../src/config.js';
import { walArchiving, type BackupConfig } from '../src/core/db/backup.js';
import { openDatabase, type Database } from '../src/core/db/client.js';
import { acquireEmbeddedCluster, type EmbeddedCluster } from '../src/core/db/embedded.js';
import { prepareDatabase } from '../src/core/db/prepare.js';
import type { Metrics } from '../src/core/observability/metrics.js';

/**
 * The backups tests' embedded cluster (src/core/db/backup*.test.ts): started archiving its WAL into
 * the configured backup folder, with one client; and a wait for the archive to hold every write.
 */
export interface OpenCluster {
  cluster: EmbeddedCluster;
  client: pg.Client;
}

export async function openArchiving(config: BackupConfig): Promise<OpenCluster> {
  const cluster = await acquireEmbeddedCluster({ dataDir: config.dataDir, archiving: await walArchiving(config) });
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  return { cluster, client };
}

/**
 * A pool of one connection on the cluster. pg-pool's `end()` resolves while its idle connection is
 * still closing; when the test then stops the cluster, the server may tell that connection it is
 * shutting down (57P01) before the connection is gone. Without a listener the pool would throw
 * that as an uncaught error of the run; any other error of an idle connection still is one.
 */
export function poolOn(cluster: EmbeddedCluster): pg.Pool {
  const pool = new pg.Pool({ connectionString: cluster.url(), max: 1 });
  pool.on('error', (error) => {
    if ((error as { code?: string }).code !== '57P01') throw error;
  });
  return pool;
}

export async function closeCluster({ cluster, client }: OpenCluster): Promise<void> {
  await client.end();
  await cluster.release();
}

/**
 * Waits until the WAL holding everything written so far is archived. The server finishes a segment
 * at most the archive timeout after a write; the test finishes it at once (`pg_switch_wal()`), so
 * that it knows which segment to wait for.
 */
export async function archived(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ file: string }>('SELECT pg_walfile_name(pg_switch_wal() - 1) AS file');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows: status } = await client.query<{ last: string | null }>('SELECT last_archived_wal AS last FROM pg_stat_archiver');
    if (status[0]!.last && status[0]!.last.slice(8) >= rows[0]!.file.slice(8)) return;
    if (Date.now() > deadline) throw new Error(`WAL ${rows[0]!.file} not archived in 30 s (last: ${status[0]!.last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The server's time now, as a restore target after everything committed so far: rounded up to the
 * next millisecond, since a Date keeps milliseconds and the server microseconds (truncated, a commit
 * and the time noted right after it can fall in one millisecond, and the target then comes before
 * the commit).
 */
export async function notedTime(client: pg.ClientBase): Promise<Date> {
  const { rows } = await client.query<{ at: Date }>("SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS at");
  return rows[0]!.at;
}

/** The rows of the tests' own table `notes`. */
export const countNotes = async (client: pg.Client) => Number((await client.query<{ n: string }>('SELECT count(*)::text AS n FROM notes')).rows[0]!.n);

/** Runs the `fishlog` command with these environment variables; what it printed, and its exit code. */
export function runCli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  return main(args, { out: (t) => (out += t), err: (t) => (err += t), env }).then((code) => ({ code, out, err }));
}

/** The app on the tests' cluster (FISHLOG_DATA_DIR of `env`), its jobs not working; `metrics()` is the /metrics text. */
export async function appOnCluster(env: Record<string, string>): Promise<{ app: FastifyInstance; database: Database; metrics(): Promise<string>; close(): Promise<void> }> {
  const keys = Object.fromEntries((['FISHLOG_AUDIT_KEY', 'FISHLOG_SETTINGS_KEY'] as const).flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FISHLOG_JOBS: 'false', ...env, ...keys });
  const database = await openDatabase(config, { processName: 'fishlog-test', poolSize: 5 });
  await prepareDatabase(database.owner.pool, () => undefined);
  await database.useApplicationRole();
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  return {
    app,
    database,
    metrics: () => (app as unknown as { metrics: Metrics }).metrics.registry.metrics(),
    async close() {
      await app.close();
      await database.close();
    },
  };
}
