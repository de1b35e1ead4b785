/**
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/profile.ts [path] [user]`:
 * starts the bench service on the 1M data set of this run (BENCH_RUN_ID; seeded if absent), loads
 * one path (default /api/userprofile/me) for 2 + 8 s as `bench_viewer_50`, prints the load and
 * stops the service, which then writes its CPU profile (open it in Chrome DevTools). `:entry` in the
 * path stands for the entry the byid bench reads. With `BENCH_PROFILE=bare` (and
 * `BENCH_BARE_NODE_ARGS=…` instead) it loads the bare reference's replay of that request: the two
 * profiles show what the service adds. Not a bench: it judges nothing.
 */
import pg from 'pg';
import { BenchServer, feedDatabase, load } from './lib.js';

const [given = '/api/userprofile/me', user = 'bench_viewer_50'] = process.argv.slice(2);
const database = await feedDatabase('1m');
let path = given;
if (path.includes(':entry')) {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  const { rows } = await client.query<{ id: string }>(`SELECT e.id FROM fishing_log_entries e JOIN catches c ON c.entry_id = e.id WHERE e.visibility = 'Public' LIMIT 1 OFFSET 5000`);
  await client.end();
  path = path.replace(':entry', rows[0]!.id);
}
const server = await BenchServer.start(database);
try {
  const headers = await server.login(user);
  let url = `http://127.0.0.1:${server.servicePort}${path}`;
  if (process.env.BENCH_PROFILE === 'bare') {
    await server.capture('profiled', { url: path, headers });
    url = `http://127.0.0.1:${server.barePort}/bare/profiled`;
  }
  await load(server, url, { headers, seconds: 2 });
  console.log(await load(server, url, { headers, seconds: 8 }));
} finally {
  await server.stop();
}
process.exit(0);
