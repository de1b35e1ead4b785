/**
 * The hot list: GET /api/fishinglog/entries on a large log (default 1,000,000 entries of 10,000
 * anglers, 10% Public, 10% Friends, 10% Circle), for a viewer with 50 friends and 10 circles.
 *
 *   npm run bench:entries                    # embedded PostgreSQL in a temp folder
 *   BENCH_ENTRIES=200000 npm run bench:entries
 *   DATABASE_URL=postgres://… npm run bench:entries   (creates a throw-away database there)
 *
 * Not part of `npm test`: numbers depend on the machine.
 */
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { benchConfig } from './bench-config.js';
import { createIdpUser } from '../src/core/auth/idp/local/local-users.js';
import { openDatabase } from '../src/core/db/client.js';
import { prepareDatabase } from '../src/core/db/prepare.js';
import { upsertFromClaims } from '../src/modules/users/users.repository.js';
import { visibleEntryCountQuery, visibleEntryIdsQuery } from '../src/modules/fishing-log/entries.repository.js';
import { PgDialect } from 'drizzle-orm/pg-core';

const entries = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

const { config, cleanup } = await benchConfig('fishlog-bench');
const database = await openDatabase(config, { processName: 'fishlog-bench', poolSize: 10 });
try {
  await prepareDatabase(database.pool, () => undefined);
  const db = database.pool;
  const idp = await createIdpUser(database.db, 10, { username: 'bench_viewer', email: 'bench@example.com', password: 'bench-password-1' });
  const viewer = await upsertFromClaims(database.db, { sub: idp.sub, username: 'bench_viewer', email: 'bench@example.com' });
  const started = Date.now();
  await db.query(`INSERT INTO users (id, sub, username) SELECT gen_random_uuid(), 'bench-' || g, 'bench_angler_' || g FROM generate_series(1, 10000) g`);
  await db.query(
    `WITH f AS (SELECT id FROM users WHERE username LIKE 'bench_angler_%' ORDER BY username LIMIT 50)
     INSERT INTO friend_links (user_id, friend_id) SELECT $1::uuid, id FROM f UNION ALL SELECT id, $1::uuid FROM f`,
    [viewer.id],
  );
  await db.query(`INSERT INTO circle_members (owner_id, member_id) SELECT id, $1::uuid FROM users WHERE username LIKE 'bench_angler_%' ORDER BY username LIMIT 10`, [viewer.id]);
  await db.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, visibility)
    SELECT gen_random_uuid(), u.ids[1 + g % 10000], 'trip ' || g, now() - (g || ' seconds')::interval, 'UTC', 44 + random() * 5, -95 + random() * 5,
           CASE g % 10 WHEN 0 THEN 'Public' WHEN 1 THEN 'Friends' WHEN 2 THEN 'Circle' ELSE 'Private' END
    FROM generate_series(1, ${entries}) g, (SELECT array_agg(id ORDER BY username) AS ids FROM users WHERE username LIKE 'bench_angler_%') u`);
  // Steady state: autovacuum keeps the visibility map current, which index-only scans rely on.
  await db.query('VACUUM ANALYZE');
  console.log(`generated ${entries} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (process.env.BENCH_EXPLAIN) {
    // Where the time goes: the page and count queries of the feed, with their plans.
    const dialect = new PgDialect({ casing: 'snake_case' });
    for (const [name, query] of [
      ['page', visibleEntryIdsQuery(viewer.id, {}, { limit: 20, offset: 0 })],
      ['count', visibleEntryCountQuery(viewer.id, {})],
    ] as const) {
      const { sql, params } = dialect.sqlToQuery(query);
      const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      console.log(`--- ${name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  }

  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'bench_viewer', password: 'bench-password-1' } });
  const headers = { authorization: `Bearer ${(login.json() as { id_token: string }).id_token}` };

  const run = async (name: string, url: string) => {
    const result = await autocannon({ url: `${base}${url}`, connections, duration: seconds, headers });
    if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
    return { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
  };
  await run('warm-up', '/api/fishinglog/entries');
  const results = [
    await run('feed, page 1', '/api/fishinglog/entries'),
    await run('feed, page 50', '/api/fishinglog/entries?page=50'),
    await run('public only', '/api/fishinglog/entries?visibility=Public'),
    await run('one friend', `/api/fishinglog/entries?ownerId=${(await db.query(`SELECT friend_id FROM friend_links WHERE user_id = $1 LIMIT 1`, [viewer.id])).rows[0].friend_id}`),
  ];
  console.table(results);
  await app.close();
} finally {
  await database.close();
  await cleanup();
}
