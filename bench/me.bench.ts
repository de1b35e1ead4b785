/**
 * P4: GET /api/userprofile/me against GET /health of the same service, in alternating windows.
 * `/me` answers from the process's cache of own views (no statement once a user's view is kept;
 * profiles.service.ts), `/health` runs `SELECT 1`. Details: the bare route beside them (it replays
 * what a `/me` request sends to PostgreSQL, i.e. nothing once cached: a bare Fastify route
 * answering from memory, so its ratio is the framework's whole per-request cost, not a goal), and
 * the request log's cost on this route (its goal is measured on entry by id, bench byid).
 */
import { atLeast, BenchServer, compare, feedDatabase, round, type BenchResult } from './lib.js';
import { logLineMicros, requestLogCost } from './request-log.js';

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('1m');
  const server = await BenchServer.start(url);
  try {
    const headers = await server.login('bench_viewer_50');
    const { others: [health], ...me } = await compare(server, 'me', '/api/userprofile/me', headers, 50, [{ url: `http://127.0.0.1:${server.servicePort}/health` }]);
    const logCost = await requestLogCost(server, '/api/userprofile/me', headers);
    return {
      name: 'me',
      figures: [atLeast('P4 /api/userprofile/me ÷ /health throughput', me.service.rps / health!.rps, 0.75)],
      details: { me, health, serviceOverBare: round(me.ratio), requestLogOnMe: { ...logCost, microsPerLineInALoop: round(logLineMicros()) } },
    };
  } finally {
    await server.stop();
  }
}
