/**
 * Every filter of the entries and posts feeds against the unfiltered feed, for the viewer with 50
 * friends: P3 per filter (median latency at 1M entries ÷ at 10k, 4 clients, each size in a fresh
 * service process after the same warm-up), and CPU per page (service + PostgreSQL, at 1M, loaded
 * in eight alternating 1 s windows each with the unfiltered feed: four moved a figure by ±15% between runs) ÷ the
 * unfiltered feed's.
 *
 * P3 compares the same page at both sizes: 20 items. The 10k set spreads its entries over 1,000
 * anglers (10 each; the 1M set: 10,000 anglers, 100 each), because over 10,000 anglers a friend has
 * one entry and the friends-only pages of the 10k set hold 6 and 14 items, not 20. A figure whose
 * pages are not both full says how many items they hold (one friend's own page at 10k: their 10
 * entries at most).
 *
 * And what each filter's first page reads, at 10k and at 1M: EXPLAIN (ANALYZE, BUFFERS) of the
 * generic plan of its named statement (the plan the service runs), the rows of the feed's table its
 * scans read (kept and dropped by their filters, over every loop), the buffers and the indexes.
 */
import { is, Placeholder } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { preparedFeedQuery as entriesFeedQuery, type EntryFilters } from '../src/modules/fishing-log/entries.repository.js';
import { relationships } from '../src/modules/social/friends.service.js';
import { preparedFeedQuery as postsFeedQuery, type PostFilter } from '../src/modules/social/posts.repository.js';
import { alternate, atMost, BenchServer, feedDatabase, load, medianLatencyMs, round, type BenchResult } from './lib.js';

/** The filter's query string on its feed; the species is the one the data set's catches have. */
const FILTERS: Array<{ name: string; feed: 'entries' | 'posts'; query: (ids: Ids) => string }> = [
  { name: 'entries, unfiltered', feed: 'entries', query: () => '' },
  { name: 'entries, scope=friends', feed: 'entries', query: () => 'scope=friends' },
  { name: 'entries, visibility=Friends', feed: 'entries', query: () => 'visibility=Friends' },
  { name: 'entries, visibility=Public', feed: 'entries', query: () => 'visibility=Public' },
  { name: 'entries, mine', feed: 'entries', query: () => 'mine=true' },
  { name: 'entries, ownerId (a friend)', feed: 'entries', query: ({ friend }) => `ownerId=${friend}` },
  { name: 'entries, from (30 days)', feed: 'entries', query: () => `from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}` },
  { name: 'entries, speciesId', feed: 'entries', query: ({ species }) => `speciesId=${species}` },
  { name: 'entries, map box', feed: 'entries', query: () => 'minLat=45&maxLat=47&minLng=-94&maxLng=-92' },
  { name: 'posts, unfiltered', feed: 'posts', query: () => '' },
  { name: 'posts, scope=friends', feed: 'posts', query: () => 'scope=friends' },
  { name: 'posts, authorId (a friend)', feed: 'posts', query: ({ author }) => `authorId=${author}` },
];

/** The species of the data set's catches; a friend of the viewer whose entries, and one whose posts, the viewer sees (each angler of the data set logs with one visibility). */
interface Ids {
  species: string;
  friend: string;
  author: string;
}

const PATHS = { entries: '/api/fishinglog/entries', posts: '/api/social/posts' };

/** A filter's query string as the repository's filters (what the service makes of it). */
function filtersOf(query: string): EntryFilters & PostFilter {
  const filters: Record<string, unknown> = {};
  const box: Record<string, number> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    if (name === 'mine') filters.mine = value === 'true';
    else if (['minLat', 'maxLat', 'minLng', 'maxLng'].includes(name)) box[name] = Number(value);
    else filters[name] = value;
  }
  if (Object.keys(box).length) filters.bbox = box;
  return filters as EntryFilters & PostFilter;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** The rows of `table` a plan's scans read (those their filters kept and dropped; PostgreSQL gives both per loop), and how. */
function readOf(node: PlanNode, table: string, read = { rows: 0, scans: new Set<string>() }): { rows: number; scans: Set<string> } {
  if (node['Relation Name'] === table) {
    read.rows += ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
    read.scans.add(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
  }
  for (const child of node.Plans ?? []) readOf(child, table, read);
  return read;
}

export default async function run(): Promise<BenchResult> {
  const big = await feedDatabase('1m');
  const small = await feedDatabase('10k', 1000);
  const details: Record<string, unknown> = {};
  const figures = [];
  const idsIn = async (database: string) => {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const { rows } = await client.query<Ids>(
        `WITH friends AS (SELECT f.friend_id AS id FROM friend_links f JOIN users u ON u.id = f.user_id WHERE u.username = 'bench_viewer_50')
         SELECT (SELECT species_id FROM catches LIMIT 1) AS species,
                (SELECT id FROM friends WHERE EXISTS (SELECT 1 FROM fishing_log_entries e WHERE e.owner_id = friends.id AND e.visibility IN ('Public', 'Friends')) ORDER BY id LIMIT 1) AS friend,
                (SELECT id FROM friends WHERE EXISTS (SELECT 1 FROM posts p WHERE p.author_id = friends.id AND p.visibility IN ('Public', 'Friends')) ORDER BY id LIMIT 1) AS author`,
      );
      return rows[0]!;
    } finally {
      await client.end();
    }
  };
  /**
   * The viewers of the data sets log nothing: for `mine`, the viewer gets the entries an angler of the
   * data set has on average (100 at 1M, 10 at 10k), spread over its time span, Private, for the
   * measurement only.
   */
  const withOwnEntries = async <T>(database: string, measure: () => Promise<T>): Promise<T> => {
    const pool = new pg.Pool({ connectionString: database, max: 1 });
    const own = `owner_id = (SELECT id FROM users WHERE username = 'bench_viewer_50') AND title LIKE 'bench own %'`;
    try {
      await pool.query(
        `WITH v AS (SELECT id FROM users WHERE username = 'bench_viewer_50'),
              n AS (SELECT (SELECT count(*) FROM fishing_log_entries) / (SELECT count(*) FROM users WHERE username LIKE 'bench_angler_%') AS per, (SELECT count(*) FROM users WHERE username LIKE 'bench_angler_%') AS anglers)
         INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, visibility, created_at, updated_at)
         SELECT gen_random_uuid(), v.id, 'bench own ' || g, now() - (g * 37 * n.anglers || ' seconds')::interval, 'America/Chicago', 46, -93, 'Private', now(), now()
         FROM v, n, generate_series(1, n.per) g`,
      );
      await pool.query('VACUUM ANALYZE fishing_log_entries');
      return await measure();
    } finally {
      await pool.query(`DELETE FROM fishing_log_entries WHERE ${own}`);
      await pool.end();
    }
  };
  const urls = async (server: BenchServer, database: string) => {
    const ids = await idsIn(database);
    return FILTERS.map((f) => ({ ...f, url: `http://127.0.0.1:${server.servicePort}${PATHS[f.feed]}${f.query(ids) ? `?${f.query(ids)}` : ''}` }));
  };
  /** What each filter's first page reads: EXPLAIN (ANALYZE, BUFFERS) of its named statement's generic plan. */
  const readPerPage = async (database: string) => {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const ids = await idsIn(database);
      const { rows: [viewer] } = await client.query<{ id: string }>("SELECT id FROM users WHERE username = 'bench_viewer_50'");
      await client.query('SET plan_cache_mode = force_generic_plan');
      const out: Record<string, { rows: number; buffers: number; scans: string[] }> = {};
      for (const f of FILTERS) {
        const filters = filtersOf(f.query(ids));
        const page = { limit: 20, offset: 0, after: undefined };
        const { query, values } = f.feed === 'entries' ? entriesFeedQuery(relationships, viewer!.id, filters, page) : postsFeedQuery(relationships, filters, page);
        const { sql, params } = new PgDialect({ casing: 'snake_case' }).sqlToQuery(query);
        const args = params.map((p) => client.escapeLiteral(String(is(p, Placeholder) ? (p.name === 'viewer' ? viewer!.id : values[p.name]) : p)));
        await client.query(`PREPARE feed AS ${sql}`);
        try {
          await client.query(`EXECUTE feed(${args.join(', ')})`); // the buffers of a warm run
          const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE feed(${args.join(', ')})`);
          const plan = (rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
          const read = readOf(plan, f.feed === 'entries' ? 'fishing_log_entries' : 'posts');
          out[f.name] = { rows: Math.round(read.rows), buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0), scans: [...read.scans].sort() };
        } finally {
          await client.query('DEALLOCATE feed');
        }
      }
      return out;
    } finally {
      await client.end();
    }
  };
  /** Items on the first page of each filter: at 1M, then at 10k. */
  const items: Record<string, number[]> = {};
  const medians = async (database: string) => {
    const server = await BenchServer.start(database);
    try {
      const headers = await server.login('bench_viewer_50');
      const out: Record<string, number> = {};
      for (const target of await urls(server, database)) {
        const page = (await (await fetch(target.url, { headers })).json()) as unknown[];
        items[target.name] = [...(items[target.name] ?? []), page.length];
        await load(server, target.url, { headers, connections: 4, seconds: 2 });
        out[target.name] = await medianLatencyMs(target.url, headers);
      }
      return out;
    } finally {
      await server.stop();
    }
  };
  /** CPU per page of each filter (service + PostgreSQL), loaded in alternating windows with its feed's unfiltered page. */
  const cpuPerPage = async (database: string): Promise<void> => {
    const server = await BenchServer.start(database);
    try {
      const headers = await server.login('bench_viewer_50');
      const targets = await urls(server, database);
      for (const feed of ['entries', 'posts'] as const) {
        const ofFeed = targets.filter((t) => t.feed === feed);
        const loads = await alternate(
          server,
          ofFeed.map((t) => ({ url: t.url, headers })),
          { connections: 8, windows: 8, windowSeconds: 1 },
        );
        const cpu = loads.map((l) => l.cpuMsPerRequest.service + l.cpuMsPerRequest.postgres);
        details[`cpuMsPerPage_${feed}`] = Object.fromEntries(ofFeed.map((t, i) => [t.name, round(cpu[i]!)]));
        for (let i = 1; i < ofFeed.length; i++) figures.push(atMost(`CPU per page, ${ofFeed[i]!.name} ÷ unfiltered (1M)`, cpu[i]! / cpu[0]!, 1.2));
      }
    } finally {
      await server.stop();
    }
  };
  const atBig = await withOwnEntries(big, () => medians(big));
  const atSmall = await withOwnEntries(small, () => medians(small));
  details.p50 = Object.fromEntries(FILTERS.map((f) => [f.name, { at1M: round(atBig[f.name]!), at10k: round(atSmall[f.name]!) }]));
  details.itemsPerPage = items;
  for (const f of FILTERS) {
    const full = items[f.name]!.every((n) => n === 20);
    figures.push(atMost(`P3 ${f.name}: p50 at 1M ÷ at 10k${full ? '' : ` (pages of ${items[f.name]!.join(' and ')} items)`}`, atBig[f.name]! / atSmall[f.name]!, 1.3));
  }

  const read1M = await withOwnEntries(big, () => readPerPage(big));
  const read10k = await withOwnEntries(small, () => readPerPage(small));
  details.readPerPage = Object.fromEntries(FILTERS.map((f) => [f.name, { rowsAt10k: read10k[f.name]!.rows, rowsAt1M: read1M[f.name]!.rows, buffersAt10k: read10k[f.name]!.buffers, buffersAt1M: read1M[f.name]!.buffers, scansAt1M: read1M[f.name]!.scans }]));
  console.table(Object.fromEntries(FILTERS.map((f) => [f.name, { 'rows read at 10k': read10k[f.name]!.rows, 'at 1M': read1M[f.name]!.rows, 'buffers at 10k': read10k[f.name]!.buffers, 'at 1M ': read1M[f.name]!.buffers }])));

  await withOwnEntries(big, () => cpuPerPage(big));
  return { name: 'feed-filters', figures, details };
}
