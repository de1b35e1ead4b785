import { relationshipsOf } from '../../core/access/visibility.js';
import { is, Placeholder } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { clientOf, placeholder } from '../../core/db/prepared.js';
import { speciesId } from '../species/species.seeds.js';
import { catchesOfEntries, findEntry, listVisible, preparedFeedQuery, visibleEntryIdsQuery, type EntryFilters } from './entries.repository.js';

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
  // The owner's connection: VACUUM/ANALYZE need the table's owner (the app's role is not).
  const db = t.database.owner.pool;
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
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** "<node type> on <table> [using <index>]" for every scan of the plan. */
function scans(node: PlanNode, out: string[] = []): string[] {
  if (node['Relation Name'] || node['Index Name']) out.push(`${node['Node Type']} on ${node['Relation Name'] ?? '?'}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`);
  for (const child of node.Plans ?? []) scans(child, out);
  return out;
}

async function plan(query: ReturnType<typeof visibleEntryIdsQuery>): Promise<string[]> {
  const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(query);
  const { rows } = await t.database.pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return scans((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
}

type AnalyzedNode = PlanNode & { 'Actual Rows'?: number; 'Actual Loops'?: number; 'Rows Removed by Filter'?: number; Plans?: AnalyzedNode[] };

/** EXPLAIN ANALYZE of the generic plan of `query` as a prepared statement (its placeholders: viewer, micros, afterId, and `given`). */
async function genericPlan(query: ReturnType<typeof visibleEntryIdsQuery>, given: Record<string, unknown> = {}): Promise<AnalyzedNode> {
  const client = await t.database.pool.connect();
  const values: Record<string, string> = { ...Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)])), viewer: viewer.userId, micros: after.micros, afterId: after.id };
  try {
    await client.query('SET plan_cache_mode = force_generic_plan');
    const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(query);
    await client.query(`PREPARE analyzed AS ${sql}`);
    try {
      // A placeholder's value by its name; a constant of the query (a filter's value) as it is.
      const args = params.map((p) => client.escapeLiteral(is(p, Placeholder) ? values[p.name]! : String(p)));
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE analyzed(${args.join(', ')})`);
      return (rows[0]['QUERY PLAN'] as Array<{ Plan: AnalyzedNode }>)[0]!.Plan;
    } finally {
      await client.query('DEALLOCATE analyzed');
    }
  } finally {
    await client.query('RESET plan_cache_mode');
    client.release();
  }
}

/** The plan's reads of one owner's entries of one visibility (the per-owner index). */
function ownerVisibilityScans(node: AnalyzedNode, out: AnalyzedNode[] = []): AnalyzedNode[] {
  if (node['Index Name'] === 'fishing_log_entries_owner_visibility_time_idx') out.push(node);
  for (const child of node.Plans ?? []) ownerVisibilityScans(child, out);
  return out;
}

/** The plan's reads of one owner's entries, of one visibility or of all (the per-owner indexes). */
function ownerScans(node: AnalyzedNode, out: AnalyzedNode[] = []): AnalyzedNode[] {
  if (['fishing_log_entries_owner_visibility_time_idx', 'fishing_log_entries_owner_time_idx'].includes(node['Index Name'] ?? '')) out.push(node);
  for (const child of node.Plans ?? []) ownerScans(child, out);
  return out;
}

/**
 * Runs `check` while one friend of the viewer has `count` more entries (visibility: an SQL
 * expression of g, 1..count) older than everything else, vacuumed as autovacuum leaves an
 * insert-mostly table (the visibility map set, so the (owner, visibility, time) index is read alone).
 */
async function withProlificFriend(visibility: string, count: number, check: () => Promise<void>): Promise<void> {
  const owner = t.database.owner.pool;
  const { rows: [friend] } = await owner.query(`SELECT friend_id FROM friend_links WHERE user_id = $1 LIMIT 1`, [viewer.userId]);
  await owner.query(
    `INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, visibility)
     SELECT gen_random_uuid(), $1, 'old ' || g, now() - interval '3 years' - (g || ' minutes')::interval, 'UTC', ${visibility} FROM generate_series(1, $2::int) g`,
    [friend.friend_id, count],
  );
  await owner.query('VACUUM (ANALYZE) fishing_log_entries');
  try {
    await check();
  } finally {
    await owner.query(`DELETE FROM fishing_log_entries WHERE owner_id = $1 AND title LIKE 'old %'`, [friend.friend_id]);
  }
}

const cases: Array<[string, EntryFilters]> = [
  ['everything visible', {}],
  ['mine', { mine: true }],
  ['one other owner', { ownerId: '00000000-0000-4000-8000-000000000000' }],
  ['public only', { visibility: 'Public' }],
  ['time range', { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() }],
  ['species', { speciesId: WALLEYE }],
  ['species and time range', { speciesId: WALLEYE, from: new Date(Date.now() - 7 * 86_400_000).toISOString() }],
  ['map box', { bbox: { minLat: 45, maxLat: 47, minLng: -94, maxLng: -92 } }],
  ['friends only, one species', { scope: 'friends', speciesId: WALLEYE }],
  ['Friends only, from a date', { visibility: 'Friends', from: new Date(Date.now() - 30 * 86_400_000).toISOString() }],
];

const after = { micros: String((Date.now() - 3_600_000) * 1000), id: '00000000-0000-4000-8000-000000000000' };
const ENTRY_INDEXES = [
  'fishing_log_entries_owner_time_idx',
  'fishing_log_entries_owner_visibility_time_idx',
  'fishing_log_entries_public_time_idx',
  'fishing_log_entries_friends_time_idx',
  'fishing_log_entries_pkey',
];

describe('entry list query plans', () => {
  it.each(cases)('%s: the page query reads entries through the feed indexes only (first page and after a cursor)', async (_name, filters) => {
    for (const page of [{ limit: 20, offset: 0, after: undefined }, { limit: 20, offset: 0, after }]) {
      const nodes = await plan(visibleEntryIdsQuery(relationshipsOf(t), viewer.userId, filters, page));
      expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries'))).toEqual([]);
      const used = nodes.flatMap((n) => /using (fishing_log_entries\w*)/.exec(n)?.[1] ?? []);
      expect(used.length).toBeGreaterThan(0);
      for (const index of used) expect(ENTRY_INDEXES).toContain(index);
    }
  });

  it('serves the Public branch of the feed from the covering index without visiting the table', async () => {
    const nodes = await plan(visibleEntryIdsQuery(relationshipsOf(t), viewer.userId, {}, { limit: 20, offset: 0, after }));
    expect(nodes).toContain('Index Only Scan on fishing_log_entries using fishing_log_entries_public_time_idx');
  });

  it('keeps to these indexes in the generic plan of the prepared feed statement (viewer and cursor as parameters)', async () => {
    const client = await t.database.pool.connect();
    const values: Record<string, string> = { viewer: viewer.userId, micros: after.micros, afterId: after.id };
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      for (const cursor of [undefined, { micros: placeholder('micros'), id: placeholder('afterId') }]) {
        const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(visibleEntryIdsQuery(relationshipsOf(t), placeholder('viewer'), {}, { limit: 20, offset: 0, after: cursor }, true));
        await client.query(`PREPARE feed_generic AS ${sql}`);
        const args = params.map((p) => client.escapeLiteral(values[(p as { name: string }).name]!));
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE feed_generic(${args.join(', ')})`);
        await client.query('DEALLOCATE feed_generic');
        const nodes = scans((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
        expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries')), nodes.join('; ')).toEqual([]);
        expect(nodes).toContain('Index Only Scan on fishing_log_entries using fishing_log_entries_public_time_idx');
      }
    } finally {
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });

  it('reads at most a page of each friend\'s entries in the prepared feed, however many entries a friend has', async () => {
    // One friend with 600 Friends entries older than everything else: the page never needs them.
    await withProlificFriend(`'Friends'`, 600, async () => {
      // (Not led by the Public branch: its page would bound both forms by time, `newestOfBranches`.)
      const perFriend = async (perOwner: boolean) =>
        ownerVisibilityScans(await genericPlan(visibleEntryIdsQuery(relationshipsOf(t), placeholder('viewer'), {}, { limit: 20, offset: 0, after: undefined }, perOwner, false))).map((n) => n['Actual Rows'] ?? 0);
      // Rows per friend (an average over the friends: the prolific one alone puts the IN form far above a page).
      expect(Math.max(...(await perFriend(false)))).toBeGreaterThan(20);
      const bounded = await perFriend(true);
      expect(bounded.length).toBeGreaterThan(0);
      for (const rowsPerFriend of bounded) expect(rowsPerFriend).toBeLessThanOrEqual(20);
    });
  });

  it("reads at most a page of each friend's entries in the prepared friends-only feed (scope=friends), never everyone's Public entries", async () => {
    // One friend with 600 Public and 600 Friends entries older than everything else: the page never needs them.
    await withProlificFriend(`CASE WHEN g % 2 = 0 THEN 'Public' ELSE 'Friends' END`, 1200, async () => {
      for (const cursor of [undefined, { micros: placeholder('micros'), id: placeholder('afterId') }]) {
        const plan = await genericPlan(visibleEntryIdsQuery(relationshipsOf(t), placeholder('viewer'), { scope: 'friends' }, { limit: 20, offset: 0, after: cursor }, true));
        const nodes = scans(plan);
        expect(nodes.filter((n) => n.includes('on fishing_log_entries') && !n.endsWith('using fishing_log_entries_owner_visibility_time_idx')), nodes.join('; ')).toEqual([]);
        // Entries read: per friend and branch at most a page (20 friends × Public and Friends, 5 circle owners × Circle).
        const perFriend = ownerVisibilityScans(plan);
        for (const node of perFriend) expect(node['Actual Rows'] ?? 0).toBeLessThanOrEqual(20);
        const read = perFriend.reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);
        expect(read).toBeGreaterThan(0);
        expect(read).toBeLessThanOrEqual((20 * 2 + 5) * 20);
      }
    });
  });

  it("reads at most a page of each friend's entries in the prepared feed filtered by visibility (visibility=Friends, visibility=Circle)", async () => {
    // One friend with 600 Friends entries older than everything else: the page never needs them.
    await withProlificFriend(`'Friends'`, 600, async () => {
      for (const visibility of ['Friends', 'Circle']) {
        for (const cursor of [undefined, { micros: placeholder('micros'), id: placeholder('afterId') }]) {
          const plan = await genericPlan(visibleEntryIdsQuery(relationshipsOf(t), placeholder('viewer'), { visibility }, { limit: 20, offset: 0, after: cursor }, true));
          const nodes = scans(plan);
          expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries')), nodes.join('; ')).toEqual([]);
          const perFriend = ownerVisibilityScans(plan);
          expect(perFriend.length, nodes.join('; ')).toBeGreaterThan(0);
          for (const node of perFriend) expect(node['Actual Rows'] ?? 0).toBeLessThanOrEqual(20);
          // (The circle owners of this data set have no Circle entries: only the Friends case reads rows.)
          if (visibility === 'Friends') expect(perFriend.some((n) => (n['Actual Rows'] ?? 0) > 0)).toBe(true);
        }
      }
    });
  });

  it("reads at most a page of each friend's entries in every filtered feed's prepared statement (filters as parameters), however many entries a friend has", async () => {
    // One friend with 1,200 Public and Friends entries older than everything else (walleye caught in half of them): no page needs them.
    await withProlificFriend(`CASE WHEN g % 2 = 0 THEN 'Public' ELSE 'Friends' END`, 1200, async () => {
      await t.database.owner.pool.query(
        `INSERT INTO catches (id, entry_id, owner_id, species_id, released, caught_at)
         SELECT gen_random_uuid(), id, owner_id, $1::uuid, true, occurred_at FROM fishing_log_entries WHERE title LIKE 'old %' AND random() < 0.5`,
        [WALLEYE],
      );
      for (const [name, filters] of cases.filter(([, f]) => !f.ownerId && !f.mine)) {
        for (const cursor of [undefined, after]) {
          const { query, values } = preparedFeedQuery(relationshipsOf(t), viewer.userId, filters, { limit: 20, offset: 0, after: cursor && { micros: placeholder('micros'), id: placeholder('afterId') } });
          const plan = await genericPlan(query, values);
          const nodes = scans(plan);
          expect(nodes.filter((n) => n.startsWith('Seq Scan on fishing_log_entries')), `${name}: ${nodes.join('; ')}`).toEqual([]);
          // Per friend (a scan run once per friend, in the LATERAL loop) and the viewer's own, through (owner, visibility, time) or
          // (owner, time) with the visibility as a filter (the planner's choice by the filters' estimates): at most a page each.
          const perOwner = ownerScans(plan);
          // (Public alone has no branch limited to friends: it is read through the Public index in time order.)
          if (filters.visibility !== 'Public') expect(perOwner.length, `${name}: ${nodes.join('; ')}`).toBeGreaterThan(0);
          for (const node of perOwner) expect(node['Actual Rows'] ?? 0, name).toBeLessThanOrEqual(20);
        }
      }
    });
  });

  it("reads the Public entries of a map box in time order from the index alone, a page's worth, not all of them sorted", async () => {
    const box = { bbox: { minLat: 45, maxLat: 47, minLng: -94, maxLng: -92 } };
    const { query, values } = preparedFeedQuery(relationshipsOf(t), viewer.userId, box, { limit: 20, offset: 0, after: undefined });
    const publicScans = (node: AnalyzedNode, out: AnalyzedNode[] = []): AnalyzedNode[] => {
      if (node['Index Name'] === 'fishing_log_entries_public_time_idx') out.push(node);
      for (const child of node.Plans ?? []) publicScans(child, out);
      return out;
    };
    const [scan] = publicScans(await genericPlan(query, values));
    // 2,000 Public entries, about a sixth of them in the box: an ordered scan stops at the page (a bitmap read them all),
    // from the index alone (it carries the coordinates, migration 0052).
    expect(scan?.['Node Type']).toBe('Index Only Scan');
    expect(scan?.['Actual Rows']).toBeLessThanOrEqual(20);
  });

  it("reads a friend's entries only down to the oldest of the Public page (its lead): none of a friend's 600 older entries in a map box elsewhere", async () => {
    await withProlificFriend(`'Friends'`, 600, async () => {
      const owner = t.database.owner.pool;
      await owner.query(`UPDATE fishing_log_entries SET latitude = 48.5, longitude = -90.5 WHERE title LIKE 'old %'`);
      await owner.query('VACUUM (ANALYZE) fishing_log_entries');
      const box = { bbox: { minLat: 45, maxLat: 47, minLng: -94, maxLng: -92 } };
      // Index entries read per friend (those the filter kept and those it dropped), an average over the friends of the LATERAL loop.
      const readPerFriend = async (led: boolean) => {
        const { query, values } = preparedFeedQuery(relationshipsOf(t), viewer.userId, box, { limit: 20, offset: 0, after: undefined }, led);
        const plan = await genericPlan(query, values);
        const loops = ownerScans(plan).filter((n) => (n['Actual Loops'] ?? 1) > 1);
        expect(loops.length, scans(plan).join('; ')).toBeGreaterThan(0);
        return Math.max(...loops.map((n) => (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)));
      };
      // Unbounded, the prolific friend's whole history is read for rows the box drops.
      expect(await readPerFriend(false)).toBeGreaterThan(20);
      expect(await readPerFriend(true)).toBeLessThanOrEqual(20);
    });
  });

  it('runs a filtered feed as the named statement of its shape, whatever the values (planned once per connection)', async () => {
    const since = [1, 2, 3, 4, 5, 6, 7].map((days) => new Date(Date.now() - days * 86_400_000).toISOString());
    const names = await t.database.db.transaction(async (tx) => {
      for (const from of since) {
        const { items } = await listVisible(tx, relationshipsOf(t), viewer.userId, { speciesId: WALLEYE, from }, { limit: 20, offset: 0, after: undefined });
        for (const item of items) expect(Date.parse(String(item.occurredAt))).toBeGreaterThanOrEqual(Date.parse(from));
      }
      await listVisible(tx, relationshipsOf(t), viewer.userId, { ownerId: viewer.userId, visibility: 'Private' }, { limit: 20, offset: 0, after: undefined });
      const { rows } = await clientOf(tx).query<{ name: string; generic_plans: string; custom_plans: string }>({
        text: `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'entries%feed%' ORDER BY name`,
      });
      return rows.map((r) => ({ name: r.name, runs: Number(r.generic_plans) + Number(r.custom_plans) }));
    });
    // Species and a start date: one statement for the seven values; the viewer's own id as the owner is `mine`.
    expect(names).toEqual([
      { name: 'entries_feed_sf_20', runs: 7 },
      { name: 'entries_visibility_private_mine_feed_20', runs: 1 },
    ]);
  });

  it('reads one entry and its catches with plans kept from one execution to the next (no planning per request)', async () => {
    const { rows: picked } = await t.database.pool.query(`SELECT entry_id FROM catches LIMIT 8`);
    const ids = picked.map((r) => r.entry_id as string);
    // One connection (a transaction's) for every execution: prepared statements and their plans are per connection.
    const counts = await t.database.db.transaction(async (tx) => {
      for (const id of ids) {
        expect((await findEntry(tx, id))?.id).toBe(id);
        expect((await catchesOfEntries(tx, [id])).map((c) => c.entryId)).toContain(id);
      }
      const { rows } = await clientOf(tx).query<{ name: string; generic_plans: string; custom_plans: string }>({
        text: `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name IN ('entries_by_ids_one', 'entries_catches_of_one') ORDER BY name`,
      });
      return rows.map((r) => ({ name: r.name, generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
    });
    // PostgreSQL plans the first five executions for their values, then keeps the generic plan when it costs no more.
    expect(counts.map((c) => c.name)).toEqual(['entries_by_ids_one', 'entries_catches_of_one']);
    for (const c of counts) {
      expect(c.custom, c.name).toBeLessThanOrEqual(5);
      expect(c.generic, c.name).toBeGreaterThanOrEqual(ids.length - 5);
    }
  });

  it('answers the first page through the API, newest first, without a total', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fishinglog/entries', headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(20);
    expect(res.headers['x-total-count']).toBeUndefined();
    expect(res.headers.link).toMatch(/cursor=[A-Za-z0-9_-]+&?[^>]*>; rel="next"/);
    const times = res.json().map((e: { occurredAt: string }) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('entry feed cursors', () => {
  const next = (link: unknown) => /<([^>]+)>; rel="next"/.exec(String(link))?.[1];
  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    return { items: res.json() as Array<{ id: string; occurredAt: string }>, next: next(res.headers.link) };
  };

  it('walks the feed in a stable order, without duplicates or skips, while entries are added', async () => {
    const snapshot = (await page('/api/fishinglog/entries?page=1&pageSize=100')).items.concat(
      (await page('/api/fishinglog/entries?page=2&pageSize=100')).items,
      (await page('/api/fishinglog/entries?page=3&pageSize=100')).items,
    );
    const seen: typeof snapshot = [];
    let url: string | undefined = '/api/fishinglog/entries?pageSize=37';
    while (url && seen.length < 300) {
      const result = await page(url);
      seen.push(...result.items);
      // Others keep writing: newer entries, and ones in the middle of pages already seen.
      await t.database.pool.query(
        `INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, visibility)
         VALUES (gen_random_uuid(), $1, 'new', now() + interval '1 day', 'UTC', 'Public'), (gen_random_uuid(), $1, 'mid', $2, 'UTC', 'Public')`,
        [viewer.userId, seen[0]!.occurredAt],
      );
      url = result.next;
    }
    const first300 = seen.slice(0, 300).map((e) => e.id);
    expect(new Set(first300).size).toBe(300);
    expect(first300).toEqual(snapshot.map((e) => e.id));
  });

  it('orders rows of the same time by id and pages through them one by one', async () => {
    await t.database.pool.query(
      `INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, visibility)
       SELECT gen_random_uuid(), $1, 'tie', timestamptz '2001-02-03 04:05:06.789123+00', 'UTC', 'Private' FROM generate_series(1, 3)`,
      [viewer.userId],
    );
    const ids: string[] = [];
    let url: string | undefined = '/api/fishinglog/entries?mine=true&from=2001-02-03T00:00:00Z&to=2001-02-04T00:00:00Z&pageSize=1';
    while (url) {
      const result = await page(url);
      ids.push(...result.items.map((e) => e.id));
      url = result.next;
    }
    expect(ids).toHaveLength(3);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('answers an invalid cursor with a 400 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fishinglog/entries?cursor=bm9wZQ', headers: viewer.headers });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'pagination.invalid_cursor', errors: [{ pointer: '/cursor', in: 'query' }] });
  });
});
