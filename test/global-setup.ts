import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { acquireEmbeddedCluster, type EmbeddedCluster } from '../src/core/db/embedded.js';
import { prepareDatabase } from '../src/core/db/prepare.js';
import { replicaCountsFile, startReplicaPair, type ReplicaPair } from './replica-cluster.js';

/**
 * Once per test run: a PostgreSQL server (TEST_DATABASE_URL, or the embedded one in a folder
 * of the temp dir) and a migrated, seeded template database that every test file clones.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * `replicaUrl`: with TEST_DATABASE_REPLICA=1, the streaming standby the apps read from (its `postgres` database).
     * `cloneStrategy`: how each test file's database is copied from the template (test/harness.ts).
     */
    testDb: { adminUrl: string; template: string; prefix: string; cloneStrategy: 'FILE_COPY' | 'WAL_LOG'; replicaUrl?: string };
  }
}

export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

let cluster: EmbeddedCluster | undefined;
let replicaPair: ReplicaPair | undefined;
let adminUrl = '';
let prefix = '';

export async function setup(project: TestProject): Promise<void> {
  if (process.env.TEST_DATABASE_REPLICA) {
    // The apps' declared reads go through a streaming standby (test/replica-cluster.ts), a pair of
    // this run's own; every commit waits until the standby applied it (remote_apply), so a test that
    // reads what another user just wrote reads it there too.
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    replicaPair = await startReplicaPair({ dir: path.join(os.tmpdir(), `fishlog-test-replica-${uid}-${randomBytes(3).toString('hex')}`), synchronous: true });
    adminUrl = replicaPair.primaryUrl('postgres');
    process.stderr.write(`tests read through a streaming replica (TEST_DATABASE_REPLICA)\n`);
  } else if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
    process.stderr.write(`tests run on TEST_DATABASE_URL (${new URL(adminUrl).host})\n`);
  } else {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    cluster = await acquireEmbeddedCluster({
      dataDir: path.join(os.tmpdir(), `fishlog-test-${uid}`),
      processName: 'fishlog-test',
      // Deleted with the temp folder: commits need not wait for the disk (the crash tests start clusters of their own, durable).
      durability: 'throwaway',
    });
    adminUrl = cluster.url('postgres');
  }
  prefix = `fishlog_t${randomBytes(3).toString('hex')}`;
  const template = `${prefix}_template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let cloneStrategy: 'FILE_COPY' | 'WAL_LOG';
  try {
    await admin.query(`CREATE DATABASE ${template}`);
    // Each test file copies the template. WAL_LOG (PostgreSQL's default) writes the whole 17 MB
    // through the WAL: 40–60 ms alone, but ~290 ms per copy while two workers run beside it (the
    // WAL it adds also brings checkpoints). FILE_COPY copies the files after a checkpoint: on a
    // server without fsync (the embedded throwaway cluster) that checkpoint is cheap, 42 ms per
    // copy in the same run; on a durable server it waits for the disk (180 ms against WAL_LOG's 55).
    const { rows } = await admin.query<{ fsync: string }>(`SELECT current_setting('fsync') AS fsync`);
    cloneStrategy = rows[0]!.fsync === 'off' ? 'FILE_COPY' : 'WAL_LOG';
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: databaseUrl(adminUrl, template), max: 2 });
  try {
    await prepareDatabase(pool, () => undefined);
  } finally {
    await pool.end();
  }
  project.provide('testDb', { adminUrl, template, prefix, cloneStrategy, ...(replicaPair ? { replicaUrl: replicaPair.standbyUrl('postgres') } : {}) });
}

export async function teardown(): Promise<void> {
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(row.datname)} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
  await cluster?.release();
  await replicaPair?.close();
  // Where the apps' declared reads went (test/harness.ts notes each app's counts): proof that the run read through the standby.
  const counts = replicaCountsFile(prefix);
  if (replicaPair && existsSync(counts)) {
    const sums = readFileSync(counts, 'utf8').trim().split('\n').map((line) => line.split(' ').map(Number)).reduce((a, b) => a.map((n, i) => n + (b[i] ?? 0)), [0, 0, 0]);
    process.stderr.write(`declared reads: ${sums[0]} statements on the standby, ${sums[1]} on the primary (${sums[2]} retried there after failing on the standby)\n`);
    rmSync(counts, { force: true });
  }
  // The OpenAPI documents test/conformance.ts cached for this run's files.
  const documents = path.join(os.tmpdir(), 'fishlog-test-openapi');
  for (const name of existsSync(documents) && prefix ? readdirSync(documents) : []) {
    if (name.startsWith(`${prefix}-`)) rmSync(path.join(documents, name), { force: true });
  }
}
