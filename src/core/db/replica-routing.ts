import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import { addRouteHook } from '../http/route-hooks.js';
import type { Database } from './client.js';
import { allowReplicaReads, redisPositions, runWithReadContext, tablePositions, type PositionsRedis } from './replicas.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);

/**
 * The app's side of the read replicas (core/db/replicas.ts), registered only when some are
 * configured: each request runs in a read context; the handlers of the `routes` declared
 * (`'GET /path'`, src/replica-reads.ts) may read from a replica; after a request of a signed-in
 * user with a method that writes, the primary's position is kept for that user (Redis when given,
 * else the primary's table) before the answer goes out; `/metrics` shows the replicas' lag and
 * where the declared reads went.
 */
export function registerReplicaRouting(app: FastifyInstance, database: Database, options: { routes: readonly string[]; redis?: PositionsRedis | undefined; registry: Registry }): void {
  const replicas = database.replicas;
  if (!replicas) return;
  const primary = () => database.pool;
  replicas.positions = options.redis
    ? redisPositions(options.redis, primary, Math.max(60_000, 2 * (replicas.settings.maxLagMs + 3 * replicas.settings.checkIntervalMs)))
    : tablePositions(primary);
  const declared = new Set(options.routes);

  app.addHook('onRequest', (_request, _reply, done) => runWithReadContext(done));
  addRouteHook(
    app,
    'preHandler',
    (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      allowReplicaReads(request.principal?.userId);
      done();
    },
    (route) => methodsOf(route).every((method) => method === 'GET' || method === 'HEAD') && declared.has(`GET ${route.url}`),
  );
  addRouteHook(
    app,
    'onSend',
    async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      const userId = request.principal?.userId;
      if (userId) {
        await replicas.positions!.record(userId).catch((error: Error) => request.log.warn({ err: error }, 'cannot keep the write position of the user for read-your-writes'));
      }
      return payload;
    },
    (route) => methodsOf(route).some((method) => !SAFE_METHODS.has(method)),
  );

  const registers = [options.registry];
  new Gauge({
    name: 'fishlog_db_replica_lag_seconds',
    help: 'Age of the oldest primary WAL position each read replica had not replayed at its last check (-1: it did not answer)',
    labelNames: ['replica'],
    registers,
    collect() {
      for (const replica of replicas.replicas) this.set({ replica: replica.name }, replica.lagMs === undefined ? -1 : replica.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'fishlog_db_replica_lag_bytes',
    help: 'WAL bytes between the primary and each read replica at its last check',
    labelNames: ['replica'],
    registers,
    collect() {
      for (const replica of replicas.replicas) this.set({ replica: replica.name }, replica.lagBytes ?? -1);
    },
  });
  new Gauge({
    name: 'fishlog_db_replica_healthy',
    help: '1 while a read replica is in the pool (answering, a standby, within DATABASE_REPLICA_MAX_LAG_MS), else 0',
    labelNames: ['replica'],
    registers,
    collect() {
      for (const replica of replicas.replicas) this.set({ replica: replica.name }, replica.healthy ? 1 : 0);
    },
  });
  new Counter({
    name: 'fishlog_db_replica_routed_reads_total',
    help: 'Statements of routes that may read from a replica (src/replica-reads.ts), by where they ran: replica, or primary (no healthy replica, none had replayed the user\'s last write, or a replica failed)',
    labelNames: ['target'],
    registers,
    collect() {
      this.reset();
      this.inc({ target: 'replica' }, replicas.counts.replica);
      this.inc({ target: 'primary' }, replicas.counts.primary);
    },
  });
  new Counter({
    name: 'fishlog_db_replica_retries_total',
    help: 'Statements that failed on a read replica (connection lost, recovery conflict, a write) and ran again on the primary',
    registers,
    collect() {
      this.reset();
      this.inc(replicas.counts.retried);
    },
  });
}
