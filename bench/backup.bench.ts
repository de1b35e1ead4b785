/**
 * Backups of the embedded PostgreSQL (docs/backups.md), two questions:
 *
 * 1. Does WAL archiving slow writes? The same write load (BENCH_BACKUP_WRITES single-row INSERT transactions, 8
 *    connections, durable commits) on the same cluster started with and without archiving,
 *    alternated BENCH_BACKUP_ROUNDS times (default 3); medians compared. Goal: within 10 %.
 * 2. A base backup of a database of BENCH_BACKUP_ENTRIES fishing-log entries (default 1,000,000):
 *    how long it takes (goal: under a minute), and the p99 of an indexed read by id (4 connections,
 *    as fast as they go) before and during it (goal: during within 2× of before).
 *
 *   npx tsx bench/backup.bench.ts
 *   BENCH_BACKUP_ENTRIES=200000 npx tsx bench/backup.bench.ts
 *
 * Embedded PostgreSQL in a temp folder only (backups of a DATABASE_URL server are its operator's).
 * Not part of `npm test`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { takeBaseBackup, walArchiving } from '../src/core/db/backup.js';
import { acquireEmbeddedCluster } from '../src/core/db/embedded.js';
import { prepareDatabase } from '../src/core/db/prepare.js';

const entries = Number(process.env.BENCH_BACKUP_ENTRIES ?? 1_000_000);
const rounds = Number(process.env.BENCH_BACKUP_ROUNDS ?? 3);
const WRITES = Number(process.env.BENCH_BACKUP_WRITES ?? 20_000);
const WRITERS = 8;

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-bench-backup-'));
await fs.chmod(dataDir, 0o711);
const config = loadConfig({ FISHLOG_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function withCluster<T>(archiving: boolean, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const cluster = await acquireEmbeddedCluster({ dataDir, archiving: archiving ? await walArchiving(config) : undefined });
  const pool = new pg.Pool({ connectionString: cluster.url(), max: WRITERS });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
    await cluster.release();
  }
}

/** Writes per second: WRITES single-row transactions over WRITERS connections. */
async function writeRate(pool: pg.Pool): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < WRITES) {
        next += 1;
        await pool.query(`INSERT INTO bench_writes (payload) VALUES (repeat('x', 200))`);
      }
    }),
  );
  return WRITES / (Number(process.hrtime.bigint() - started) / 1e9);
}

try {
  await withCluster(true, async (pool) => {
    await prepareDatabase(pool, () => undefined);
    await pool.query('CREATE TABLE bench_writes (id bigserial PRIMARY KEY, payload text NOT NULL, at timestamptz NOT NULL DEFAULT now())');
  });
  const rates = { archiving: [] as number[], without: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const archiving of round % 2 === 0 ? [true, false] : [false, true]) {
      rates[archiving ? 'archiving' : 'without'].push(await withCluster(archiving, writeRate));
    }
  }
  const ratio = median(rates.archiving) / median(rates.without);
  console.log(
    `writes/s, median of ${rounds}: with archiving ${median(rates.archiving).toFixed(0)}, without ${median(rates.without).toFixed(0)} ` +
      `(${(ratio * 100).toFixed(1)} %; goal ≥ 90 %) ${ratio >= 0.9 ? 'PASS' : 'FAIL'}`,
  );

  await withCluster(true, async (pool) => {
    const seeded = Date.now();
    await pool.query(`INSERT INTO users (id, sub, username) VALUES (gen_random_uuid(), 'bench-owner', 'bench_owner')`);
    await pool.query(`
      INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, water_body, visibility, created_at, updated_at)
      SELECT gen_random_uuid(), (SELECT id FROM users WHERE username = 'bench_owner'), 'trip ' || g, now() - (g * 37 || ' seconds')::interval,
             'America/Chicago', 44 + random() * 5, -95 + random() * 5, 'Lake ' || (g % 500), 'Private', now(), now()
      FROM generate_series(1, ${entries}) g`);
    await pool.query('VACUUM ANALYZE fishing_log_entries');
    const size = (await pool.query<{ size: string }>("SELECT pg_size_pretty(pg_database_size(current_database())) AS size")).rows[0]!.size;
    console.log(`seeded ${entries} entries (${size}) in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    const ids = (await pool.query<{ id: string }>('SELECT id FROM fishing_log_entries ORDER BY md5(id::text) LIMIT 10000')).rows.map((r) => r.id);

    /** Read latencies (ms) of 4 loops of indexed reads by id until `until` resolves. */
    const probe = async (until: Promise<unknown>) => {
      const latencies: number[] = [];
      let done = false;
      void until.finally(() => (done = true));
      await Promise.all(
        Array.from({ length: 4 }, async (_, worker) => {
          for (let i = worker; !done; i += 4) {
            const started = process.hrtime.bigint();
            await pool.query('SELECT id, title, occurred_at FROM fishing_log_entries WHERE id = $1', [ids[i % ids.length]]);
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          }
        }),
      );
      return latencies;
    };
    const before = await probe(new Promise((resolve) => setTimeout(resolve, 5000)));
    let seconds = 0;
    const during = await probe(
      (async () => {
        const started = Date.now();
        const manifest = await takeBaseBackup(config);
        seconds = (Date.now() - started) / 1000;
        console.log(`base backup ${manifest.id}: ${manifest.files} files, ${(manifest.bytes / 1_048_576).toFixed(0)} MiB → ${(manifest.archive.bytes / 1_048_576).toFixed(0)} MiB gzip`);
      })(),
    );
    console.log(`base backup took ${seconds.toFixed(1)} s (goal < 60 s) ${seconds < 60 ? 'PASS' : 'FAIL'}`);
    const p99Before = percentile(before, 0.99);
    const p99During = percentile(during, 0.99);
    console.log(
      `read by id p99: before ${p99Before.toFixed(2)} ms (${before.length} reads), during the backup ${p99During.toFixed(2)} ms (${during.length} reads); ` +
        `goal ≤ 2× ${p99During <= 2 * p99Before ? 'PASS' : 'FAIL'}`,
    );
  });
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
