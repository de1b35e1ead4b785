/**
 * P5 during logins: 8 concurrent password logins (scrypt at the default cost: OWASP's N=2^13 r=8 p=10) for 6 s; the server's
 * peak RSS, and how many were turned away with 503 (the hashing queue) rather than queued.
 */
import { atMost, BenchServer, feedDatabase, load, PASSWORD, type BenchResult } from './lib.js';

export default async function run(): Promise<BenchResult> {
  const url = await feedDatabase('10k');
  const server = await BenchServer.start(url);
  try {
    const idle = await server.rssMb();
    const logins = await load(server, `http://127.0.0.1:${server.servicePort}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ username: 'bench_viewer_0', password: PASSWORD }),
      connections: 8,
      allowNon2xx: true,
    });
    return {
      name: 'login',
      figures: [atMost('P5 RSS during 8 concurrent logins (MB)', logins.maxRssMb, 250, 'MB')],
      details: { idleRssMb: idle, logins },
    };
  } finally {
    await server.stop();
  }
}
