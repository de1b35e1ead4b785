/**
 * Writes: POST an entry then a catch to it, as fast as 16 connections go, for a few seconds.
 * Each connection is another angler (16 anglers logging at once): a catch takes its owner's
 * personal-best lock for its transaction, so one angler's catches are added one at a time by
 * design (the PB comparison must see the previous catch). The same load from one angler on all 16
 * connections is measured too and reported beside it (details.oneAngler), not judged.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { atLeast, BenchServer, cpuSnapshot, feedDatabase, round, SECONDS, viewerCreator, type BenchResult } from './lib.js';

const WRITERS = 16;

async function writers(url: string): Promise<string[]> {
  const names = Array.from({ length: WRITERS }, (_, i) => `bench_writer_${i + 1}`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const { rows } = await pool.query<{ username: string }>(`SELECT username FROM users WHERE username = ANY($1)`, [names]);
    const existing = new Set(rows.map((r) => r.username));
    const create = viewerCreator(pool);
    for (const name of names) if (!existing.has(name)) await create(name);
  } finally {
    await pool.end();
  }
  return names;
}

async function pairsPerSecond(server: BenchServer, species: string, tokens: Record<string, string>[], seconds = SECONDS) {
  let next = 0;
  const entry = JSON.stringify({ title: 'bench trip', occurredAt: '2024-06-01T10:00:00Z', timeZone: 'America/Chicago', visibility: 'Public' });
  const catchBody = JSON.stringify({ speciesId: species, released: true, caughtAt: '2024-06-01T10:30:00Z', lengthCm: 40 });
  type Context = { entryId?: string; headers?: Record<string, string> };
  const before = await cpuSnapshot(server);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.servicePort}`,
    connections: 16,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/fishinglog/entries',
        body: entry,
        // Each connection keeps one angler's token (round robin over the anglers).
        setupRequest: (request, context: Context) => {
          context.headers ??= { ...tokens[next++ % tokens.length]!, 'content-type': 'application/json' };
          return { ...request, headers: context.headers };
        },
        onResponse: (status, body, context: Context) => {
          if (status === 201) context.entryId = JSON.parse(body).id;
        },
      },
      {
        method: 'POST',
        setupRequest: (request, context: Context) => ({ ...request, headers: context.headers, path: `/api/fishinglog/entries/${context.entryId}/catches`, body: catchBody }),
      },
    ],
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`);
  const after = await cpuSnapshot(server);
  const pairs = result.requests.total / 2;
  // Where a pair's CPU goes (ms): with every core busy, the sum decides the throughput.
  const cpuMsPerPair = { service: round((after.service - before.service) / pairs), postgres: round((after.postgres - before.postgres) / pairs), loadGenerator: round((after.loadGenerator - before.loadGenerator) / pairs) };
  return { pairs: pairs / seconds, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMsPerPair };
}

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('10k');
  const names = await writers(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const species = (await client.query(`SELECT id FROM fish_species WHERE is_active ORDER BY id LIMIT 1`)).rows[0].id as string;
  await client.end();
  const server = await BenchServer.start(url);
  try {
    const tokens = [];
    for (const name of names) tokens.push(await server.login(name));
    // A warm-up first, as the read benches load each target for 2 s before measuring: the first
    // seconds of a fresh process compile the write path (that cold start once cost 60% more
    // service CPU per pair than the measured run after it).
    await pairsPerSecond(server, species, tokens, 2);
    const many = await pairsPerSecond(server, species, tokens);
    const one = await pairsPerSecond(server, species, [tokens[0]!]);
    return {
      name: 'write',
      figures: [atLeast(`writes: entry + catch pairs per second (${WRITERS} anglers at once)`, many.pairs, 1000)],
      details: { anglers: many, oneAngler: one },
    };
  } finally {
    await server.stop();
  }
}
