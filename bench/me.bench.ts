/** P4: GET /api/userprofile/me against GET /health of the same service (and the bare route of its SQL). */
import { atLeast, BenchServer, compare, feedDatabase, load, type BenchResult } from './lib.js';

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('1m');
  const server = await BenchServer.start(url);
  try {
    const headers = await server.login('bench_viewer_50');
    const me = await compare(server, 'me', '/api/userprofile/me', headers);
    const health = await load(server, `http://127.0.0.1:${server.servicePort}/health`, {});
    return {
      name: 'me',
      figures: [
        atLeast('P4 /api/userprofile/me ÷ /health throughput', me.service.rps / health.rps, 0.75),
        atLeast('/api/userprofile/me throughput, service ÷ bare', me.ratio, 0.9),
      ],
      details: { me, health },
    };
  } finally {
    await server.stop();
  }
}
