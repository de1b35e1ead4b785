/**
 * Read replicas (docs/deployment.md "Read replicas", docs/scaling.md): a primary and a streaming
 * standby (test/replica-cluster.ts, fsync off on both), the app twice on one database — with
 * DATABASE_REPLICA_URLS on the standby, and without — loaded in alternating rounds by one client
 * (app.inject), measuring:
 *
 * 1. a friend's entries feed: ms a request, and the PostgreSQL CPU ms a request on the primary and
 *    on the standby (utime + stime of each postmaster's children, /proc), with and without the replica;
 * 2. an angler's write then read of their own feed (read-your-writes): ms a pair and where the read went;
 * 3. the read-your-writes statements alone: the position kept after a write, the look-up before a read.
 *
 *   npx tsx bench/replicas.bench.ts          (BENCH_REPLICA_READS=1000 BENCH_REPLICA_ROUNDS=3)
 *
 * Not part of `npm test`; writes bench/results/replicas.json.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createIdpUser } from '../src/core/auth/idp/local/local-users.js';
import { openDatabase } from '../src/core/db/client.js';
import { prepareDatabase } from '../src/core/db/prepare.js';
import { upsertFromClaims } from '../src/modules/users/users.repository.js';
import { startReplicaPair } from '../test/replica-cluster.js';

const READS = Number(process.env.BENCH_REPLICA_READS ?? 1000);
const ROUNDS = Number(process.env.BENCH_REPLICA_ROUNDS ?? 3);
const PAIRS = Number(process.env.BENCH_REPLICA_PAIRS ?? 200);
const USERS = 20;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const pair = await startReplicaPair({
  dir: path.join(os.tmpdir(), `fishlog-bench-replicas-${process.pid}`),
  prepare: async (url) => {
    const pool = new pg.Pool({ connectionString: url.replace(/\/postgres$/, '/fishlog'), max: 2 });
    await prepareDatabase(pool, () => undefined);
    await pool.end();
  },
});

/** CPU ms used so far by a cluster's server processes (the postmaster's children). */
async function cpuMs(pgDir: string): Promise<number> {
  const postmaster = Number((await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let ticks = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === postmaster || Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10; // USER_HZ = 100
}

const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', FISHLOG_SCRYPT_COST: '10', FISHLOG_JOBS: 'false', RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_USER_PER_MINUTE: '1000000000', FISHLOG_AUDIT_KEY: 'b'.repeat(40), FISHLOG_SETTINGS_KEY: 's'.repeat(40), FISHLOG_DATA_DIR: path.join(os.tmpdir(), `fishlog-bench-replicas-data-${process.pid}`) };
async function app(replica: boolean) {
  const config = loadConfig({ ...env, DATABASE_URL: pair.primaryUrl('fishlog'), ...(replica ? { DATABASE_REPLICA_URLS: pair.standbyUrl('fishlog'), DATABASE_REPLICA_CHECK_MS: '100' } : {}) });
  const database = await openDatabase(config, { processName: replica ? 'bench-replica' : 'bench-primary', poolSize: 5 });
  await database.useApplicationRole();
  const instance = await buildApp({ config, database, logger: false });
  await instance.ready();
  return { app: instance, database, config };
}
const withReplica = await app(true);
const primaryOnly = await app(false);

// Anglers, each a friend of the next five, each with 10 Friends entries.
const users: { userId: string; headers: { authorization: string } }[] = [];
for (let i = 0; i < USERS; i++) {
  const username = `bench${i}`;
  const password = `pw-bench-${i}-long-enough`;
  const idp = await createIdpUser(withReplica.database.db, 10, { username, email: `${username}@example.com`, password });
  const user = await upsertFromClaims(withReplica.database.db, { sub: idp.sub, username, email: `${username}@example.com` });
  const login = await withReplica.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  users.push({ userId: user.id, headers: { authorization: `Bearer ${login.json().id_token}` } });
}
const send = async (target: typeof withReplica, method: 'GET' | 'POST', url: string, headers: object, payload?: object) => {
  const res = await target.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
};
const entry = (title: string) => ({ title, occurredAt: new Date().toISOString(), timeZone: 'America/Chicago', location: { latitude: 46.2, longitude: -93.6, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' }, visibility: 'Friends' });
for (let i = 0; i < USERS; i++) {
  for (let k = 1; k <= 5; k++) {
    const other = users[(i + k) % USERS]!;
    await send(withReplica, 'POST', `/api/social/friends/${other.userId}`, users[i]!.headers).catch(() => undefined);
    await send(withReplica, 'POST', `/api/social/friends/${users[i]!.userId}`, other.headers).catch(() => undefined);
  }
  for (let e = 0; e < 10; e++) await send(withReplica, 'POST', '/api/fishinglog/entries', users[i]!.headers, entry(`Trip ${e}`));
}
await new Promise((resolve) => setTimeout(resolve, 2000));
const reader = users[0]!; // no writes of its own from here on: any replica that has replayed its friendship serves it

const counts = () => ({ ...withReplica.database.replicas!.counts });
const feeds: Record<'replica' | 'primary', { ms: number[]; primaryCpu: number[]; standbyCpu: number[] }> = { replica: { ms: [], primaryCpu: [], standbyCpu: [] }, primary: { ms: [], primaryCpu: [], standbyCpu: [] } };
const before = counts();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, target] of [['replica', withReplica], ['primary', primaryOnly]] as const) {
    for (let i = 0; i < 50; i++) await send(target, 'GET', '/api/fishinglog/entries', reader.headers); // warm
    const cpu0 = [await cpuMs(pair.dirs.primary), await cpuMs(pair.dirs.standby)];
    const start = process.hrtime.bigint();
    for (let i = 0; i < READS; i++) await send(target, 'GET', '/api/fishinglog/entries', reader.headers);
    const ms = Number(process.hrtime.bigint() - start) / 1e6 / READS;
    const cpu1 = [await cpuMs(pair.dirs.primary), await cpuMs(pair.dirs.standby)];
    feeds[name].ms.push(ms);
    feeds[name].primaryCpu.push((cpu1[0]! - cpu0[0]!) / READS);
    feeds[name].standbyCpu.push((cpu1[1]! - cpu0[1]!) / READS);
  }
}
const afterReads = counts();

// An angler writes, then reads their own feed at once.
const writer = users[1]!;
const pairsMs: Record<string, number> = {};
let ownSeen = 0;
const beforePairs = counts();
for (const [name, target] of [['replica', withReplica], ['primary', primaryOnly]] as const) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < PAIRS; i++) {
    const id = (await send(target, 'POST', '/api/fishinglog/entries', writer.headers, entry(`Pair ${i}`))).json().id as string;
    const feed = (await send(target, 'GET', '/api/fishinglog/entries', writer.headers)).json() as { id: string }[];
    if (feed.some((e) => e.id === id)) ownSeen++;
  }
  pairsMs[name] = Number(process.hrtime.bigint() - start) / 1e6 / PAIRS;
}
const afterPairs = counts();

// The read-your-writes statements alone, on the primary's application pool.
const pool = withReplica.database.pool;
const time = async (text: string, values: unknown[]) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < 2000; i++) await pool.query({ text, values });
  return Number(process.hrtime.bigint() - start) / 1e6 / 2000;
};
const recordMs = await time('INSERT INTO replica_write_positions (user_id, lsn) VALUES ($1, pg_current_wal_insert_lsn()) ON CONFLICT (user_id) DO UPDATE SET lsn = GREATEST(replica_write_positions.lsn, excluded.lsn), written_at = now()', [writer.userId]);
const lookupMs = await time('SELECT lsn::text AS lsn FROM replica_write_positions WHERE user_id = $1', [writer.userId]);

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const result = {
  name: 'replicas',
  at: new Date().toISOString(),
  node: process.version,
  feedOfAFriend: {
    withReplica: { msPerRequest: round3(median(feeds.replica.ms)), primaryCpuMs: round3(median(feeds.replica.primaryCpu)), standbyCpuMs: round3(median(feeds.replica.standbyCpu)) },
    primaryOnly: { msPerRequest: round3(median(feeds.primary.ms)), primaryCpuMs: round3(median(feeds.primary.primaryCpu)), standbyCpuMs: round3(median(feeds.primary.standbyCpu)) },
    statementsOnReplica: afterReads.replica - before.replica,
    statementsOnPrimary: afterReads.primary - before.primary,
  },
  writeThenOwnRead: { msPerPairWithReplica: round3(pairsMs.replica!), msPerPairPrimaryOnly: round3(pairsMs.primary!), ownEntrySeen: `${ownSeen} of ${2 * PAIRS}`, readStatementsOnReplica: afterPairs.replica - beforePairs.replica, readStatementsOnPrimary: afterPairs.primary - beforePairs.primary },
  readYourWritesStatements: { recordMs: round3(recordMs), lookupMs: round3(lookupMs) },
  reads: READS,
  rounds: ROUNDS,
};
console.log(JSON.stringify(result, null, 2));
await fs.writeFile(path.join(import.meta.dirname, 'results', 'replicas.json'), `${JSON.stringify(result, null, 2)}\n`);
for (const target of [withReplica, primaryOnly]) {
  await target.app.close();
  await target.database.close();
}
await pair.close();
await fs.rm(env.FISHLOG_DATA_DIR, { recursive: true, force: true });
