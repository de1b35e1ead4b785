/**
 * The bench server (a child of the bench runner, see lib.ts `BenchServer`), plain JavaScript run by
 * `node` on the build (`dist/`, made by `npm run build` when the bench starts): no TypeScript
 * loader and nothing else in the process, so its RSS is the service's. The service is built
 * in-process with `buildApp` (logging at info, as in production, to /dev/null). A `capture`
 * records the SQL one service request sends to PostgreSQL and hands it to the runner, which
 * mounts it on the bare reference app (bench/bare.js, another process).
 */
import pg from 'pg';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { openDatabase } from '../dist/core/db/client.js';
import { limitHeapGrowth } from '../dist/core/observability/heap.js';

const POOL_SIZE = 10;
/** application_name of the request path's connections: only their statements are captured (not the job queue's polling, on connections of its own). */
const PROCESS_NAME = 'fishlog-bench-service';

/**
 * @typedef {{ text: string; values: unknown[] | undefined; rowMode: string | undefined; name: string | undefined; group: number; connection: number }} Captured
 * (queries with the same group were in flight together; `connection` tells which were sent on one connection)
 */

/** @type {Captured[] | undefined} */
let recording;
let inFlight = 0;
let group = 0;
/** @type {WeakMap<object, number>} */
const connections = new WeakMap();
const connectionOf = (client) => {
  if (!connections.has(client)) connections.set(client, ++connectionCount);
  return connections.get(client);
};
let connectionCount = 0;
const originalQuery = pg.Client.prototype.query;
/**
 * pg's `Client.prototype.query` while a capture records what the service sends to PostgreSQL;
 * installed for the capture only, so that the loads measure the service's own query path. Statements
 * of other pools (the job queue's, which polls on a timer) are not the request's and are left out.
 */
function recordingQuery(...args) {
  const config = args[0];
  if (this.connectionParameters?.application_name !== PROCESS_NAME) return originalQuery.apply(this, args);
  if (recording && config && typeof config === 'object' && 'text' in config) {
    if (inFlight === 0) group++;
    recording.push({ text: config.text, values: config.values ?? (Array.isArray(args[1]) ? args[1] : undefined), rowMode: config.rowMode, name: config.name, group, connection: connectionOf(this) });
    inFlight++;
    const result = originalQuery.apply(this, args);
    if (result && typeof result.finally === 'function') void result.finally(() => inFlight--).catch(() => undefined);
    else inFlight--;
    return result;
  } else if (recording && typeof config === 'string') {
    if (inFlight === 0) group++;
    recording.push({ text: config, values: Array.isArray(args[1]) ? args[1] : undefined, rowMode: undefined, name: undefined, group, connection: connectionOf(this) });
  }
  return originalQuery.apply(this, args);
}

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_USER_PER_MINUTE: '1000000000' });
// As runServer (npm start) does.
limitHeapGrowth(config.heapGrowingPercent);
const database = await openDatabase(config, { processName: PROCESS_NAME, poolSize: POOL_SIZE });
// As runServer does: requests run as the application role, on its pool (the bench's database is migrated).
await database.useApplicationRole();
const app = await buildApp({ config, database });
await app.listen({ port: 0, host: '127.0.0.1' });
/** The HTTP connections open now (a load's clients close theirs when it ends). */
const openConnections = () => new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

const port = (server) => server.address().port;

process.on('message', (message) => {
  void (async () => {
    try {
      if (message.kind === 'login') {
        const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: message.username, password: message.password } });
        if (res.statusCode !== 200) throw new Error(`login ${message.username}: ${res.statusCode} ${res.body}`);
        process.send({ id: message.id, result: res.json().id_token });
      } else if (message.kind === 'logLevel') {
        // The service's log level, changed at run time (bench me: the request log's cost).
        app.log.level = message.level;
        process.send({ id: message.id, result: true });
      } else if (message.kind === 'capture') {
        const request = { method: 'GET', url: message.url, headers: message.headers };
        // Requests of an earlier load may still be running: wait until its connections are closed
        // and no connection of the pool is busy beyond those that LISTEN, for half a second.
        const busy = () => database.pool.totalCount - database.pool.idleCount;
        let listening = busy();
        for (let quiet = 0; quiet < 10; ) {
          await new Promise((r) => setTimeout(r, 50));
          const connections = await openConnections();
          listening = Math.min(listening, busy());
          quiet = connections > 0 || busy() > listening || database.pool.waitingCount > 0 ? 0 : quiet + 1;
        }
        await app.inject(request); // warm: caches filled, as under load
        recording = [];
        pg.Client.prototype.query = recordingQuery;
        let res;
        try {
          res = await app.inject(request);
        } finally {
          pg.Client.prototype.query = originalQuery;
        }
        const captured = recording;
        recording = undefined;
        if (captured.some((q) => /^(BEGIN|COMMIT|ROLLBACK)/i.test(q.text))) throw new Error(`${request.url}: a transaction cannot be replayed by the bare route`);
        /** @type {Map<number, Captured[]>} */
        const byGroup = new Map();
        for (const q of captured) byGroup.set(q.group, [...(byGroup.get(q.group) ?? []), q]);
        process.send({ id: message.id, result: { status: res.statusCode, statements: captured.map((q) => q.text), groups: [...byGroup.values()] } });
      }
    } catch (error) {
      process.send({ id: message.id, error: error.message });
    }
  })();
});

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.send({ servicePort: port(app.server) });
