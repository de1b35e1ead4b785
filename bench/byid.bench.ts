/**
 * P1 and P2 for one entry: GET /api/fishinglog/entries/:id (a Public entry with a catch) on 1M
 * entries; and what the request log at info costs the service on this route, the lightest of the
 * hot reads that read the database (two statements; `/me` answers from memory: bench me).
 */
import pg from 'pg';
import { atLeast, atMost, BenchServer, compare, feedDatabase, round, type BenchResult } from './lib.js';
import { logLineMicros, requestLogCost } from './request-log.js';

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('1m');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(`SELECT e.id FROM fishing_log_entries e JOIN catches c ON c.entry_id = e.id WHERE e.visibility = 'Public' LIMIT 1 OFFSET 5000`);
  await client.end();
  const server = await BenchServer.start(url);
  try {
    const headers = await server.login('bench_viewer_50');
    const path = `/api/fishinglog/entries/${rows[0].id}`;
    const byId = await compare(server, 'byid', path, headers);
    const logCost = await requestLogCost(server, path, headers);
    return {
      name: 'byid',
      figures: [
        atLeast('P1 entry by id throughput, service ÷ bare', byId.ratio, 0.9),
        atMost('P2 entry by id p99 at 50 connections, service ÷ bare', byId.p99Ratio, 1.3),
        atMost('request log at info: service CPU per entry-by-id request, % over the same at warn', logCost.percent, 3, '%'),
      ],
      details: { byId, requestLog: { ...logCost, microsPerLineInALoop: round(logLineMicros()) } },
    };
  } finally {
    await server.stop();
  }
}
