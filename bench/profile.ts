/**
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/profile.ts [path] [user]`:
 * starts the bench service on the 1M data set of this run (BENCH_RUN_ID; seeded if absent), loads
 * one path (default /api/userprofile/me) for 2 + 8 s as `bench_viewer_50`, prints the load and
 * stops the service, which then writes its CPU profile (open it in Chrome DevTools). Not a bench:
 * it judges nothing.
 */
import { BenchServer, feedDatabase, load } from './lib.js';

const [path = '/api/userprofile/me', user = 'bench_viewer_50'] = process.argv.slice(2);
const server = await BenchServer.start(await feedDatabase('1m'));
try {
  const headers = await server.login(user);
  const url = `http://127.0.0.1:${server.servicePort}${path}`;
  await load(server, url, { headers, seconds: 2 });
  console.log(await load(server, url, { headers, seconds: 8 }));
} finally {
  await server.stop();
}
process.exit(0);
