/** Writes: POST an entry then a catch to it, as fast as 16 connections go, for a few seconds. */
import autocannon from 'autocannon';
import pg from 'pg';
import { atLeast, BenchServer, feedDatabase, SECONDS, type BenchResult } from './lib.js';

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('10k');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const species = (await client.query(`SELECT id FROM fish_species WHERE is_active ORDER BY id LIMIT 1`)).rows[0].id as string;
  await client.end();
  const server = await BenchServer.start(url);
  try {
    const headers = { ...(await server.login('bench_viewer_0')), 'content-type': 'application/json' };
    const entry = JSON.stringify({ title: 'bench trip', occurredAt: '2024-06-01T10:00:00Z', timeZone: 'America/Chicago', visibility: 'Public' });
    const result = await autocannon({
      url: `http://127.0.0.1:${server.servicePort}`,
      connections: 16,
      duration: SECONDS,
      requests: [
        { method: 'POST', path: '/api/fishinglog/entries', headers, body: entry, onResponse: (status, body, context) => { if (status === 201) (context as { entryId?: string }).entryId = JSON.parse(body).id; } },
        {
          method: 'POST',
          headers,
          setupRequest: (request, context) => ({ ...request, path: `/api/fishinglog/entries/${(context as { entryId?: string }).entryId}/catches`, body: JSON.stringify({ speciesId: species, released: true, caughtAt: '2024-06-01T10:30:00Z', lengthCm: 40 }) }),
        },
      ],
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`);
    const pairs = result.requests.total / 2 / SECONDS;
    return { name: 'write', figures: [atLeast('writes: entry + catch pairs per second', pairs, 1000)], details: { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 } };
  } finally {
    await server.stop();
  }
}
