import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { REPLICA_READ_ROUTES } from '../../replica-reads.js';
import type { Metrics } from '../observability/metrics.js';
import { Registries } from '../registries.js';
import { testConfig, type TestApp } from '../../../test/harness.js';
import { startReplicaPair, type ReplicaPair } from '../../../test/replica-cluster.js';
import { befriend, createUser, type TestUser } from '../../../test/factories.js';
import { openDatabase, type Database } from './client.js';
import { prepareDatabase } from './prepare.js';
import { lsnValue } from './replicas.js';
import { redisAnswers } from '../../../test/redis.js';

/**
 * Reads on a real streaming standby (test/replica-cluster.ts): a primary and its standby started
 * here, the app with DATABASE_REPLICA_URLS on the standby, a lag limit of 400 ms checked every
 * 50 ms. Where a read ran is shown by the standby's pg_stat_activity (the replica pool's
 * application_name and its last statement) and by /metrics, never by timing.
 */

const LAG_LIMIT_MS = 400;
let pair: ReplicaPair;
let t: TestApp;
let app: FastifyInstance;
let database: Database;
let angler: TestUser;
let friend: TestUser;

const entryBody = (title: string) => ({
  title,
  occurredAt: new Date().toISOString(),
  timeZone: 'America/Chicago',
  location: { latitude: 46.234567, longitude: -93.654321, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
  visibility: 'Friends',
});

async function createEntry(user: TestUser, title: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/fishinglog/entries', headers: user.headers, payload: entryBody(title) });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** The feed's entry ids as `user` reads them (every request answers 200). */
async function feedIds(user: TestUser): Promise<string[]> {
  const res = await app.inject({ method: 'GET', url: '/api/fishinglog/entries?pageSize=50', headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }[]).map((entry) => entry.id);
}

/** `fishlog_db_replica_routed_reads_total` by target, from /metrics' registry. */
async function routed(): Promise<{ replica: number; primary: number; retries: number }> {
  const text = await (app as unknown as { metrics: Metrics }).metrics.registry.metrics();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 'NaN');
  return {
    replica: value(/^fishlog_db_replica_routed_reads_total\{target="replica"\} (\d+)/m),
    primary: value(/^fishlog_db_replica_routed_reads_total\{target="primary"\} (\d+)/m),
    retries: value(/^fishlog_db_replica_retries_total (\d+)/m),
  };
}

async function replicaStatus() {
  const res = await app.inject({ method: 'GET', url: '/health/ready' });
  expect(res.statusCode, res.body).toBe(200);
  const replicas = (res.json() as { details: { replicas: { name: string; healthy: boolean; lagSeconds: number | null; error: string | null }[] } }).details.replicas;
  expect(replicas).toHaveLength(1);
  return replicas[0]!;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the standby replayed everything the primary wrote so far, and the app's check saw it. */
async function replayed(): Promise<void> {
  const { rows } = await database.owner.pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  const target = lsnValue(rows[0]!.lsn);
  await until('the standby to replay', async () => {
    await database.replicas!.check();
    const replica = database.replicas!.replicas[0]!;
    return replica.healthy && replica.replayLsn !== undefined && replica.replayLsn >= target;
  });
}

/** The statements the replica pool's connections ran last, on the standby. */
async function standbyStatements(): Promise<string[]> {
  const client = await pair.standbyClient();
  try {
    const { rows } = await client.query<{ query: string }>("SELECT query FROM pg_stat_activity WHERE application_name = 'fishlog-test-replica'");
    return rows.map((row) => row.query);
  } finally {
    await client.end();
  }
}

/** Another process of the deployment: an app of its own on the pair (`env` added to the test's settings). */
async function appOnPair(env: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig({
    DATABASE_URL: pair.primaryUrl('fishlog'),
    DATABASE_REPLICA_URLS: pair.standbyUrl('fishlog'),
    DATABASE_REPLICA_MAX_LAG_MS: String(LAG_LIMIT_MS),
    DATABASE_REPLICA_CHECK_MS: '50',
    ...env,
  });
  const opened = await openDatabase(config, { processName: 'fishlog-test', poolSize: 5 });
  await opened.useApplicationRole();
  const registries = new Registries();
  const made = await buildApp({ config, database: opened, registries, logger: false });
  await made.ready();
  return {
    app: made,
    database: opened,
    config,
    registries,
    testDatabase: { name: 'fishlog', url: pair.primaryUrl('fishlog'), drop: async () => undefined },
    async close() {
      await made.close();
      await opened.close();
    },
  };
}

beforeAll(async () => {
  pair = await startReplicaPair({
    dir: path.join(os.tmpdir(), `fishlog-replicas-${randomBytes(4).toString('hex')}`),
    prepare: async (url) => {
      const pool = new pg.Pool({ connectionString: url.replace(/\/postgres$/, '/fishlog'), max: 2 });
      try {
        await prepareDatabase(pool, () => undefined);
      } finally {
        await pool.end();
      }
    },
  });
  t = await appOnPair();
  ({ app, database } = t);
  angler = await createUser(t);
  friend = await createUser(t);
  await befriend(t, angler, friend);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pair?.close();
});

describe('reads on a streaming replica', () => {
  it('declares only GET routes the app has', () => {
    for (const route of REPLICA_READ_ROUTES) {
      const [method, url] = route.split(' ');
      expect(method, route).toBe('GET');
      expect(app.hasRoute({ method: 'GET', url: url! }), route).toBe(true);
    }
  });

  it('a user who just created an entry sees it in their own feed at once, every time', async () => {
    for (let i = 0; i < 10; i++) {
      const id = await createEntry(angler, `Own read ${i}`);
      expect(await feedIds(angler)).toContain(id);
    }
  });

  it("another user's feed is served by the replica", async () => {
    const id = await createEntry(angler, 'For my friend');
    await replayed();
    const before = await routed();
    expect(await feedIds(friend)).toContain(id);
    const after = await routed();
    expect(after.replica).toBeGreaterThan(before.replica);
    expect(after.primary).toBe(before.primary);
    // Every statement of the read ran on the replica (none on the primary, above); on the standby, the
    // replica pool's connection shows the feed's last one, the photos of the page's entries.
    const statements = await standbyStatements();
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((text) => /^SELECT "photos"\."id" .* WHERE "photos"\."record_id"/.test(text))).toBe(true);
    expect(await replicaStatus()).toMatchObject({ healthy: true, error: null });
  });

  it('a stopped replica: reads go to the primary with no failed request; restarted, it is back in the pool', async () => {
    const id = await createEntry(angler, 'While the replica is down');
    await replayed();
    await pair.stopStandby();
    const before = await routed();
    // Right after the stop (before or after a check noticed it): every read answers, from the primary.
    for (let i = 0; i < 5; i++) expect(await feedIds(friend)).toContain(id);
    await until('the replica to leave the pool', async () => !(await replicaStatus()).healthy);
    expect(await replicaStatus()).toMatchObject({ healthy: false, lagSeconds: null, error: expect.any(String) });
    expect(await feedIds(friend)).toContain(id);
    const down = await routed();
    expect(down.replica).toBe(before.replica);
    expect(down.primary).toBeGreaterThan(before.primary);

    await pair.startStandby();
    await until('the replica to come back', async () => (await replicaStatus()).healthy);
    await replayed();
    expect(await feedIds(friend)).toContain(id);
    expect((await routed()).replica).toBeGreaterThan(down.replica);
  }, 60_000);

  it('a replica whose replay is paused leaves the pool after the lag limit, and the user still sees their writes', async () => {
    await replayed();
    const standby = await pair.standbyClient();
    try {
      await standby.query('SELECT pg_wal_replay_pause()');
      const id = await createEntry(angler, 'While replay is paused');
      // The writer reads at once: the replica has not replayed the write, so the primary answers.
      expect(await feedIds(angler)).toContain(id);
      const left = await until('the paused replica to leave the pool', async () => {
        const status = await replicaStatus();
        return !status.healthy && status;
      });
      expect(left.lagSeconds).toBeGreaterThan(LAG_LIMIT_MS / 1000);
      expect(left.error).toMatch(/lagging .* behind the primary/);
      const before = await routed();
      expect(await feedIds(friend)).toContain(id);
      expect(await feedIds(angler)).toContain(id);
      const after = await routed();
      expect(after.replica).toBe(before.replica);
      expect(after.primary).toBeGreaterThan(before.primary);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
      await standby.end();
    }
    await until('the replica to catch up', async () => (await replicaStatus()).healthy);
  }, 60_000);
  it.for<[string, boolean]>([
    ["the primary's table", false],
    ['Redis (REDIS_URL)', true],
  ])('read-your-writes across processes, the positions kept in %s', { timeout: 60_000 }, async ([, redis], context) => {
    const url = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
    if (redis && !(await redisAnswers(url))) return context.skip();
    const env: Record<string, string> = redis ? { REDIS_URL: url } : {};
    const writer = redis ? await appOnPair(env) : t;
    const reader = await appOnPair(env);
    try {
      await replayed();
      const { rows } = await database.owner.pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      const standby = await pair.standbyClient();
      try {
        // The replica cannot have the write: whatever the reader's replica looks like, only the position sends the read elsewhere.
        await standby.query('SELECT pg_wal_replay_pause()');
        const res = await writer.app.inject({ method: 'POST', url: '/api/fishinglog/entries', headers: angler.headers, payload: entryBody('Written in one process') });
        expect(res.statusCode, res.body).toBe(201);
        // The other process sees the position the writing one kept, past everything before the write…
        const position = await reader.database.replicas!.positions!.required(angler.userId);
        expect(position).toBeGreaterThan(lsnValue(rows[0]!.lsn));
        // …and reads the writer's feed from the primary: the new entry is there.
        const feed = await reader.app.inject({ method: 'GET', url: '/api/fishinglog/entries?pageSize=50', headers: angler.headers });
        expect(feed.statusCode, feed.body).toBe(200);
        expect((feed.json() as { id: string }[]).map((e) => e.id)).toContain((res.json() as { id: string }).id);
        expect(reader.database.replicas!.counts).toMatchObject({ replica: 0 });
      } finally {
        await standby.query('SELECT pg_wal_replay_resume()');
        await standby.end();
      }
    } finally {
      await reader.close();
      if (writer !== t) await writer.close();
    }
    await until('the replica to catch up', async () => (await replicaStatus()).healthy);
  });
});
