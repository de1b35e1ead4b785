/**
 * The bare reference of the benches (a child of the bench runner, see lib.ts `BenchServer`): a
 * Fastify app with no logger, no hooks, no schemas, whose `/bare/:key` routes replay the SQL
 * captured from one service request (bench/server.js) through their own `pg` pool of the same
 * size as the service's, and answer the rows of every statement with JSON.stringify (one
 * statement: its rows; several: an array of their rows, in order); statements the service sent
 * together on one connection go out together on one connection here too. Its own process,
 * so that the service's RSS is measured alone.
 */
import Fastify from 'fastify';
import pg from 'pg';

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
const bare = Fastify({ logger: false });
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
