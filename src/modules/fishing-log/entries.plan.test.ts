import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { speciesId } from '../species/species.seeds.js';
import { visibleEntryCountQuery, visibleEntryIdsQuery, type EntryFilters } from './entries.repository.js';

/**
 * The hot list query on a realistic volume (20,000 entries of 200 anglers, most of them
 * private): every plan must reach the entries table through its indexes, never a sequential scan.
 */

let t: TestApp;
let viewer: TestUser;
const WALLEYE = speciesId('Sander vitreus');

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t);
  const db = t.database.pool;
  await db.query(`
    INSERT INTO users (id, sub, username, email)
    SELECT gen_random_uuid(), 'bulk-' || g, 'bulk_angler_' || g, NULL FROM generate_series(1, 200) g`);
  // The viewer is friends with 20 of them and in the circle of 5.
  await db.query(`
    WITH f AS (SELECT id FROM users WHERE username LIKE 'bulk_angler_%' ORDER BY username LIMIT 20)
    INSERT INTO friend_links (user_id, friend_id) SELECT $1::uuid, id FROM f UNION ALL SELECT id, $1::uuid FROM f`, [viewer.userId]);
  await db.query(`
    INSERT INTO circle_members (owner_id, member_id)
    SELECT id, $1::uuid FROM users WHERE username LIKE 'bulk_angler_%' ORDER BY username LIMIT 5`, [viewer.userId]);
  await db.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, visibility)
    SELECT gen_random_uuid(), u.id, 'trip ' || g, now() - (g || ' minutes')::interval, 'America/Chicago',
           44 + random() * 5, -95 + random() * 5,
           CASE WHEN g % 10 = 0 THEN 'Public' WHEN g % 10 = 1 THEN 'Friends' WHEN g % 10 = 2 THEN 'Circle' ELSE 'Private' END
    FROM generate_series(1, 20000) g
    JOIN LATERAL (SELECT id FROM users WHERE username = 'bulk_angler_' || (1 + g % 200)) u ON true`);
  await db.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, visibility)
    SELECT gen_random_uuid(), $1::uuid, 'own ' || g, now() - (g || ' hours')::interval, 'UTC', 'Private' FROM generate_series(1, 300) g`, [viewer.userId]);
  await db.query(`
    INSERT INTO catches (id, entry_id, owner_id, species_id, released, caught_at)
    SELECT gen_random_uuid(), e.id, e.owner_id, $1::uuid, true, e.occurred_at FROM fishing_log_entries e WHERE random() < 0.3`, [WALLEYE]);
  await db.query('ANALYZE');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function scans(node: PlanNode, out: string[] = []): string[] {
  if (node['Relation Name']) out.push(`${node['Node Type']} on ${node['Relation Name']}`);
  for (const child of node.Plans ?? []) scans(child, out);
  return out;
}

async function plan(query: ReturnType<typeof visibleEntryIdsQuery>): Promise<string[]> {
  const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(query);
  const { rows } = await t.database.pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return scans((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
}

const cases: Array<[string, EntryFilters]> = [
  ['everything visible', {}],
  ['mine', { mine: true }],
  ['one other owner', { ownerId: '00000000-0000-4000-8000-000000000000' }],
  ['public only', { visibility: 'Public' }],
  ['time range', { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() }],
  ['species', { speciesId: WALLEYE }],
];

describe('entry list query plans', () => {
  it.each(cases)('%s: the page query uses indexes only', async (_name, filters) => {
    const nodes = await plan(visibleEntryIdsQuery(viewer.userId, filters, { limit: 20, offset: 0 }));
    expect(nodes.filter((n) => n.includes("fishing_log_entries")).length).toBeGreaterThan(0);
    expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries'))).toEqual([]);
  });

  it.each(cases)('%s: the count query uses indexes only', async (_name, filters) => {
    const nodes = await plan(visibleEntryCountQuery(viewer.userId, filters));
    expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries'))).toEqual([]);
  });

  it('answers the first page through the API with the right total', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fishinglog/entries', headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(20);
    const expected = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM fishing_log_entries e WHERE e.owner_id = $1 OR e.visibility = 'Public'
         OR (e.visibility = 'Friends' AND e.owner_id IN (SELECT friend_id FROM friend_links WHERE user_id = $1))
         OR (e.visibility = 'Circle' AND e.owner_id IN (SELECT owner_id FROM circle_members WHERE member_id = $1))`,
      [viewer.userId],
    );
    expect(Number(res.headers['x-total-count'])).toBe(expected.rows[0].n);
    const times = res.json().map((e: { occurredAt: string }) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
