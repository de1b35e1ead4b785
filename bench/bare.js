/**
 * The bare reference of the benches (a child of the bench runner, see lib.ts `BenchServer`): a
 * Fastify app whose `/bare/:key` routes replay the SQL captured from one service request
 * (bench/server.js) through their own `pg` pool of the same size as the service's, and answer the
 * rows of every statement with JSON.stringify (one statement: its rows; several: an array of their
 * rows, in order); statements the service sent together on one connection go out together on one
 * connection here too. No schemas, no authentication, no views: what the service adds beyond the
 * database is what the benches measure.
 *
 * It carries the per-request features every production service must have, written the plain way
 * with the same libraries the service uses: a request id (`X-Request-Id`, kept when the client
 * sends one) and a W3C `traceparent` on every answer, the per-IP rate limit (@fastify/rate-limit,
 * registered globally as its README shows, with the service's bench limit), a closing log line per
 * request at the service's log level (pino, Fastify's logger, to the same discarded stdout), and the
 * request duration histogram (prom-client, the service's buckets and labels). Its own process, so
 * that the service's RSS is measured alone.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController } from 'fastify';
import pg from 'pg';
import { Histogram, Registry } from 'prom-client';

const POOL_SIZE = 10;

/**
 * @typedef {{ text: string; values: unknown[] | undefined; rowMode: string | undefined; name: string | undefined; connection: number }} Captured
 * (one group: queries that were in flight together)
 */

// Pipelining as the service's pool (one query per connection as usual; several issued on one
// connection go out in one write).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE, application_name: 'fishlog-bench-bare', pipeline: true });
const configOf = (q) => ({ text: q.text, ...(q.values ? { values: q.values } : {}), ...(q.rowMode ? { rowMode: 'array' } : {}), ...(q.name ? { name: q.name } : {}) });

/**
 * A group's queries as the service sent them: several on one connection (the service's
 * `onOneConnection`) in one write on one connection of this pool; otherwise each on its own.
 * @param {Captured[]} queries
 */
async function run(queries) {
  if (queries.length < 2 || queries.some((q) => q.connection !== queries[0].connection)) return Promise.all(queries.map((q) => pool.query(configOf(q))));
  const client = await pool.connect();
  try {
    client.connection.stream.cork();
    const results = Promise.all(queries.map((q) => client.query(configOf(q))));
    client.connection.stream.uncork();
    return await results;
  } finally {
    client.release();
  }
}
/** @type {Map<string, Captured[][]>} */
const routes = new Map();
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const bare = Fastify({
  logger: { level: process.env.BENCH_LOG_LEVEL ?? 'info' },
  logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }), // one closing line per request (below), as the service writes
  genReqId: (req) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  },
});
await bare.register(rateLimit, { max: 1_000_000_000, timeWindow: 60_000, enableDraftSpec: true });
const duration = new Histogram({
  name: 'bare_http_request_duration_seconds',
  help: 'HTTP request duration by method, route template and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [new Registry()],
});
bare.addHook('onRequest', async (request, reply) => {
  reply.header('x-request-id', request.id);
  reply.header('traceparent', `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`);
});
bare.addHook('onResponse', async (request, reply) => {
  request.log.info({ method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
  duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
});
bare.get('/bare/:key', async (request, reply) => {
  const groups = routes.get(request.params.key);
  if (!groups) return reply.code(404).send();
  const read = [];
  for (const queries of groups) {
    const results = await run(queries);
    for (const result of results) read.push(result.rows);
  }
  // Everything the statements read goes out, as the service's answer carries what it read.
  return reply.header('content-type', 'application/json').send(JSON.stringify(read.length === 1 ? read[0] : read));
});
await bare.listen({ port: 0, host: '127.0.0.1' });

process.on('message', (message) => {
  if (message.kind === 'route') {
    routes.set(message.key, message.groups);
    process.send({ id: message.id, result: true });
  }
});
process.once('SIGTERM', () => {
  void (async () => {
    await bare.close();
    await pool.end();
    process.exit(0);
  })();
});
process.send({ barePort: bare.server.address().port });
