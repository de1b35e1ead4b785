import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics (prom-client), one registry per app: requests by route template and status,
 * their duration, the database pool, event-loop lag and process memory (prom-client's defaults),
 * login failures and rate-limit refusals. Modules add their own to `registry` (the moderation
 * module: provider calls and cost).
 */
export interface Metrics {
  registry: Registry;
  loginFailures: Counter;
  rateLimited: Counter;
}

export function createMetrics(pool: pg.Pool): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'fishlog_' });
  const duration = new Histogram({
    name: 'fishlog_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // The request count is the histogram's own count, copied when scraped: one update per request.
  new Counter({
    name: 'fishlog_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const value of (await duration.get()).values) if (value.metricName === 'fishlog_http_request_duration_seconds_count') this.inc(value.labels, value.value);
    },
  });
  new Gauge({
    name: 'fishlog_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting requests)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  const loginFailures = new Counter({ name: 'fishlog_login_failures_total', help: 'Refused logins (wrong credentials or throttled)', labelNames: ['reason'], registers: [registry] });
  const rateLimited = new Counter({ name: 'fishlog_rate_limited_total', help: 'Requests refused by a rate limit (429)', registers: [registry] });
  Object.assign(registry, { duration });
  return { registry, loginFailures, rateLimited };
}

/** Counts every answer under its route template (not the raw URL: ids would explode the labels). */
export function instrument(app: FastifyInstance, metrics: Metrics): void {
  const { duration } = metrics.registry as unknown as { duration: Histogram };
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'unmatched' : 'unknown');
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.rateLimited.inc();
    if (route === '/api/auth/login' && (reply.statusCode === 401 || reply.statusCode === 429)) {
      metrics.loginFailures.inc({ reason: reply.statusCode === 401 ? 'credentials' : 'throttled' });
    }
    done();
  });
}

/** `METRICS_PORT`: the metrics without a token, on loopback only. */
export async function startMetricsServer(registry: Registry, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
