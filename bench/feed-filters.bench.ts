/**
 * Every filter of the entries and posts feeds against the unfiltered feed, for the viewer with 50
 * friends: P3 per filter (median latency at 1M entries ÷ at 10k, 4 clients, each size in a fresh
 * service process after the same warm-up), and CPU per page (service + PostgreSQL, at 1M, loaded
 * in alternating windows with the unfiltered feed) ÷ the unfiltered feed's.
 */
import pg from 'pg';
import { alternate, atMost, BenchServer, feedDatabase, load, medianLatencyMs, round, type BenchResult } from './lib.js';

/** The filter's query string on its feed; the species is the one the data set's catches have. */
const FILTERS: Array<{ name: string; feed: 'entries' | 'posts'; query: (ids: { species: string; friend: string }) => string }> = [
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
  { name: 'posts, authorId (a friend)', feed: 'posts', query: ({ friend }) => `authorId=${friend}` },
];

const PATHS = { entries: '/api/fishinglog/entries', posts: '/api/social/posts' };

export default async function run(): Promise<BenchResult> {
  const big = await feedDatabase('1m');
  const small = await feedDatabase('10k');
  const details: Record<string, unknown> = {};
  const figures = [];
  // The species of the data set's catches, and one friend of the viewer (the same names in both data sets).
  const idsIn = async (database: string) => {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const { rows } = await client.query<{ species: string; friend: string }>(
        `SELECT (SELECT species_id FROM catches LIMIT 1) AS species,
                (SELECT f.friend_id FROM friend_links f JOIN users u ON u.id = f.user_id WHERE u.username = 'bench_viewer_50' ORDER BY f.friend_id LIMIT 1) AS friend`,
      );
      return rows[0]!;
    } finally {
      await client.end();
    }
  };
  const urls = async (server: BenchServer, database: string) => {
    const ids = await idsIn(database);
    return FILTERS.map((f) => ({ ...f, url: `http://127.0.0.1:${server.servicePort}${PATHS[f.feed]}${f.query(ids) ? `?${f.query(ids)}` : ''}` }));
  };
  const medians = async (database: string) => {
    const server = await BenchServer.start(database);
    try {
      const headers = await server.login('bench_viewer_50');
      const out: Record<string, number> = {};
      for (const target of await urls(server, database)) {
        await load(server, target.url, { headers, connections: 4, seconds: 2 });
        out[target.name] = await medianLatencyMs(target.url, headers);
      }
      return out;
    } finally {
      await server.stop();
    }
  };
  const atBig = await medians(big);
  const atSmall = await medians(small);
  details.p50 = Object.fromEntries(FILTERS.map((f) => [f.name, { at1M: round(atBig[f.name]!), at10k: round(atSmall[f.name]!) }]));
  for (const f of FILTERS) figures.push(atMost(`P3 ${f.name}: p50 at 1M ÷ at 10k`, atBig[f.name]! / atSmall[f.name]!, 1.3));

  const server = await BenchServer.start(big);
  try {
    const headers = await server.login('bench_viewer_50');
    const targets = await urls(server, big);
    for (const feed of ['entries', 'posts'] as const) {
      const ofFeed = targets.filter((t) => t.feed === feed);
      const loads = await alternate(
        server,
        ofFeed.map((t) => ({ url: t.url, headers })),
        { connections: 8, windows: 4, windowSeconds: 1 },
      );
      const cpu = loads.map((l) => l.cpuMsPerRequest.service + l.cpuMsPerRequest.postgres);
      details[`cpuMsPerPage_${feed}`] = Object.fromEntries(ofFeed.map((t, i) => [t.name, round(cpu[i]!)]));
      for (let i = 1; i < ofFeed.length; i++) figures.push(atMost(`CPU per page, ${ofFeed[i]!.name} ÷ unfiltered (1M)`, cpu[i]! / cpu[0]!, 1.2));
    }
  } finally {
    await server.stop();
  }
  return { name: 'feed-filters', figures, details };
}
