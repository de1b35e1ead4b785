/**
 * Offline sync (issue 45), `npm run bench -- sync`: an angler with 10,000 catches (500 entries).
 * - empty pull: the cursor of the last pull, nothing changed since: the database time of the service's
 *   pull() (its one statement, the head, with no transaction around it; median; goal ≤ 1 ms), the execution
 *   time of every table's look-up (EXPLAIN ANALYZE, summed), and GET /api/sync/pull under load
 *   (PostgreSQL and service CPU per request: noisy on a shared machine);
 * - first sync in pages: lastPulledAt=null&limit=2000 followed by `next` until `hasMore` is gone,
 *   the service's RSS after each page (flat: a page's records are let go before the next);
 * - push of 100 new catches (one POST /api/sync/push, through the fishing-log service's batch create), p50 of 15.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { atMost, benchDatabase, BenchServer, load, log, round, viewerCreator, type BenchResult } from './lib.js';

const ANGLER = 'bench_sync_angler';
const PUSHER = 'bench_sync_pusher';
const CATCHES = 10_000;

async function seed(pool: pg.Pool): Promise<void> {
  const create = viewerCreator(pool);
  await create(ANGLER);
  await create(PUSHER);
  await pool.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, water_body, visibility)
    SELECT gen_random_uuid(), u.id, 'trip ' || g, now() - (g || ' days')::interval, 'America/Chicago', 'Lake ' || (g % 20), 'Private'
      FROM generate_series(1, ${CATCHES / 20}) g, (SELECT id FROM users WHERE username = '${ANGLER}') u`);
  await pool.query(`
    INSERT INTO catches (id, entry_id, owner_id, species_id, length_cm, released, caught_at, notes)
    SELECT gen_random_uuid(), e.id, e.owner_id, (SELECT id FROM fish_species ORDER BY id LIMIT 1), 30 + (k % 40), true, e.occurred_at, 'catch ' || k
      FROM fishing_log_entries e, generate_series(1, 20) k WHERE e.owner_id = (SELECT id FROM users WHERE username = '${ANGLER}')`);
  await pool.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, visibility)
    SELECT gen_random_uuid(), id, 'push target', now() - interval '1 day', 'America/Chicago', 'Private' FROM users WHERE username = '${PUSHER}'`);
  await pool.query('VACUUM ANALYZE');
}

type Pulled = { changes: Record<string, { updated: { id: string }[] }>; timestamp: number; hasMore?: boolean; next?: string };

async function get(base: string, path: string, headers: Record<string, string>): Promise<Pulled> {
  const res = await fetch(base + path, { headers });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Pulled;
}

/** The pull's own statements for an unchanged log, run with EXPLAIN ANALYZE: their execution time, summed (ms). */
async function emptyPullStatementsMs(url: string, userId: string, cursor: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const owned = ['fishing_sessions', 'fishing_log_entries', 'catches', 'boats', 'gear_setups', 'personal_best_criteria', 'photos'];
    const statements = [
      ...owned.map((t) => `SELECT id FROM ${t} WHERE owner_id = $1 AND change_xid >= $2::xid8`),
      `SELECT user_id FROM user_profiles WHERE user_id = $1 AND change_xid >= $2::xid8`,
      ...['fish_species', 'lookup_values', 'gear_items', 'brands'].map((t) => `SELECT id FROM ${t} WHERE change_xid >= $2::xid8 AND $1::uuid IS NOT NULL`),
      `SELECT record_id FROM sync_tombstones WHERE owner_id = $1 AND change_xid >= $2::xid8`,
      `SELECT mine.friend_id FROM friend_links mine JOIN friend_links theirs ON theirs.user_id = mine.friend_id AND theirs.friend_id = mine.user_id
        WHERE mine.user_id = $1 AND (mine.change_xid >= $2::xid8 OR theirs.change_xid >= $2::xid8)`,
    ];
    let total = 0;
    for (const statement of statements) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`, [userId, String(cursor)]);
      total += (rows[0]['QUERY PLAN'][0] as { 'Execution Time': number })['Execution Time'];
    }
    return total;
  } finally {
    await client.end();
  }
}

/**
 * The database time of an empty pull: the sync service's pull() itself, in this process, on its own
 * pool (the head statement, one round trip), the median of `runs` (ms).
 */
async function emptyPullDbMs(url: string, userId: string, cursor: number, runs = 300): Promise<number> {
  const { createDb } = await import('../src/core/db/client.js');
  const { Registries } = await import('../src/core/registries.js');
  const { pull } = await import('../src/modules/sync/sync.service.js');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const deps = { db: createDb(pool), registries: new Registries() };
    // From the cursor of a pull now (the sign-ins since the pages may have touched a row at the old one's boundary).
    const { timestamp } = await pull(deps, userId, cursor);
    const times: number[] = [];
    for (let i = 0; i < runs + 20; i++) {
      const t0 = performance.now();
      const answer = await pull(deps, userId, timestamp);
      if (i >= 20) times.push(performance.now() - t0); // the first ones plan the statement
      const records = Object.values(answer.changes).reduce((n, set) => n + set.updated.length + set.deleted.length, 0);
      if (records > 0) throw new Error(`the pull was not empty: ${records} records`);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  } finally {
    await pool.end();
  }
}

function catchRecord(entryId: string, speciesId: string, i: number) {
  return { id: randomUUID(), entry_id: entryId, species_id: speciesId, length_cm: 30 + (i % 40), weight_kg: null, count: 1, released: true, caught_at: Date.now() - 3_600_000, bait: null, lure: 'Jig', lure_item_id: null, gear_setup_id: null, photo_urls: '[]', notes: `pushed ${i}`, latitude: null, longitude: null };
}

export default async function run(): Promise<BenchResult> {
  const url = await benchDatabase('sync', seed);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const ids = (await client.query<{ username: string; id: string }>(`SELECT username, id FROM users WHERE username IN ($1, $2)`, [ANGLER, PUSHER])).rows;
  const anglerId = ids.find((r) => r.username === ANGLER)!.id;
  const target = (await client.query<{ id: string }>(`SELECT e.id FROM fishing_log_entries e JOIN users u ON u.id = e.owner_id WHERE u.username = $1`, [PUSHER])).rows[0]!.id;
  const species = (await client.query<{ id: string }>(`SELECT id FROM fish_species ORDER BY id LIMIT 1`)).rows[0]!.id;
  await client.end();

  const server = await BenchServer.start(url);
  try {
    await server.setLogLevel('warn');
    const base = `http://127.0.0.1:${server.servicePort}`;
    const headers = await server.login(ANGLER);

    // First sync in pages of 2,000 records.
    const rss: number[] = [await server.rssMb()];
    const started = performance.now();
    let page: Pulled = await get(base, '/api/sync/pull?lastPulledAt=null&limit=2000', headers);
    let catches = page.changes.catches!.updated.length;
    let pages = 1;
    while (page.hasMore) {
      rss.push(await server.rssMb());
      page = await get(base, `/api/sync/pull?lastPulledAt=${page.timestamp}&limit=2000&next=${page.next}`, headers);
      catches += page.changes.catches!.updated.length;
      pages++;
    }
    const firstSyncMs = performance.now() - started;
    rss.push(await server.rssMb());
    if (catches !== CATCHES) throw new Error(`the pages held ${catches} catches, not ${CATCHES}`);
    // The same in one answer, for comparison (its RSS peak).
    const before = await server.rssMb();
    const whole = performance.now();
    await get(base, '/api/sync/pull?lastPulledAt=null', headers);
    const wholeMs = performance.now() - whole;
    const wholeRss = (await server.rssMb()) - before;
    log(`first sync: ${pages} pages in ${round(firstSyncMs)} ms; RSS ${rss.map((r) => round(r)).join(' → ')} MB`);

    // An empty pull: the cursor of the last page, nothing changed since.
    const emptyPath = `/api/sync/pull?lastPulledAt=${page.timestamp}`;
    const empty = await get(base, emptyPath, headers);
    const changed = Object.values(empty.changes).reduce((n, set) => n + set.updated.length, 0);
    const emptyLoad = await load(server, base + emptyPath, { connections: 4, seconds: 4, headers });
    const statementsMs = await emptyPullStatementsMs(url, anglerId, page.timestamp);
    const pullDbMs = await emptyPullDbMs(url, anglerId, page.timestamp);

    // Pushes of 100 new catches.
    const pusher = await server.login(PUSHER);
    const times: number[] = [];
    for (let round_ = 0; round_ < 16; round_++) {
      const body = JSON.stringify({ changes: { catches: { created: Array.from({ length: 100 }, (_, i) => catchRecord(target, species, i)), updated: [], deleted: [] } } });
      const t0 = performance.now();
      const res = await fetch(`${base}/api/sync/push?lastPulledAt=1`, { method: 'POST', headers: { ...pusher, 'content-type': 'application/json' }, body });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`push: ${res.status} ${text}`);
      if (round_ > 0) times.push(performance.now() - t0); // the first one warms the path up
    }
    times.sort((a, b) => a - b);
    const pushP50 = times[Math.floor(times.length / 2)]!;

    return {
      name: 'sync',
      figures: [
        atMost('empty pull, database time (its one statement, median)', round(pullDbMs), 1, 'ms'),
        atMost('first sync of 10,000 catches in pages: RSS growth over the pages', round(Math.max(...rss) - rss[0]!), 64, 'MB'),
        atMost('push of 100 catches, p50', round(pushP50), 100, 'ms'),
      ],
      details: {
        emptyPull: {
          recordsAnswered: changed,
          databaseMs: round(pullDbMs),
          statementsExecutionMs: round(statementsMs),
          http: { rps: round(emptyLoad.rps), p50Ms: emptyLoad.p50, postgresCpuMs: round(emptyLoad.cpuMsPerRequest.postgres), serviceCpuMs: round(emptyLoad.cpuMsPerRequest.service) },
        },
        firstSync: { pages, pageSize: 2000, ms: round(firstSyncMs), rssMbByPage: rss.map(round), oneAnswerMs: round(wholeMs), oneAnswerRssGrowthMb: round(wholeRss) },
        push: { records: 100, p50Ms: round(pushP50), p90Ms: round(times[Math.floor(times.length * 0.9)]!), runs: times.length },
      },
    };
  } finally {
    await server.stop();
  }
}
