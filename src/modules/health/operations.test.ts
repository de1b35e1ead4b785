import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../core/db/client.js';
import { startMetricsServer } from '../../core/observability/metrics.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';

/** Probes, metrics, trace context and CORS. */

let t: TestApp;
let admin: TestUser;
let standard: TestUser;
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
  admin = await createUser(t, { role: 'Admin' });
  standard = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

describe('liveness and readiness', () => {
  it('/health/live answers without the database; /health/ready checks database and migrations; /health keeps its body', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied', shuttingDown: false, details: { backups: { walArchive: 'external', lastArchivedAt: null, lastFailedAt: null, failedWal: null, newestBaseBackupAt: null, upload: null }, replicas: process.env.TEST_DATABASE_REPLICA ? [expect.objectContaining({ healthy: true })] : [], regulationData: expect.any(Array) } });
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(Object.keys(health.json()).sort()).toEqual(['database', 'status', 'uptimeSeconds', 'version']);
  });

  it('with the database unreachable: live 200, ready 503 with Retry-After', async () => {
    const config = testConfig({ DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none' });
    const database = await openDatabase(config);
    const app = await buildApp({ config, database, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toMatchObject({ status: 'not_ready', database: 'unavailable', migrations: 'unknown', details: { regulationData: [] } });
      // and an API call is a 503 problem, not a 500
      const api = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'jo', password: 'x' } });
      expect(api.statusCode).toBe(503);
      expect(api.headers['retry-after']).toBe('5');
      expect(api.json().code).toBe('service.database_unavailable');
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('GET /metrics', () => {
  it('is not public: 401 without a token, 403 for a standard user, Prometheus text for an Admin', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: standard.headers })).statusCode).toBe(403);
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: standard.username, password: 'wrong' } });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('fishlog_http_requests_total{method="GET",route="/health/live",status="200"}');
    expect(res.body).toMatch(/fishlog_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/metrics",status="403"\}/);
    expect(res.body).toContain('fishlog_db_pool_connections{state="total"}');
    expect(res.body).toContain('fishlog_nodejs_eventloop_lag_seconds');
    expect(res.body).toContain('fishlog_process_resident_memory_bytes');
    expect(res.body).toContain('fishlog_login_failures_total{reason="credentials"} 1');
  });

  it('METRICS_PORT serves the same text on loopback without a token', async () => {
    const server = await startMetricsServer((t.app as unknown as { metrics: { registry: never } }).metrics.registry, 0);
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('fishlog_http_requests_total');
      expect((server.address() as { address: string }).address).toBe('127.0.0.1');
    } finally {
      server.close();
    }
  });
});

describe('W3C trace context', () => {
  it('continues an incoming traceparent, answers this span, and logs the trace id beside the request id', async () => {
    const config = testConfig({ DATABASE_URL: t.testDatabase.url });
    const database = await openDatabase(config);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ config, database, logger: { level: 'info', stream } });
    try {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await app.inject({ method: 'GET', url: '/health/live', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
      expect(res.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      expect(res.headers.traceparent).not.toContain('00f067aa0ba902b7');
      const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.requestId === res.headers['x-request-id']);
      // One line per request at info (method, URL, status, time), with the request's bindings.
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.some((l) => String(l.msg).startsWith('GET '))).toBe(true);
      for (const line of lines) expect(line.traceId).toBe(traceId);
      // a malformed header starts a new trace
      const fresh = await app.inject({ method: 'GET', url: '/health/live', headers: { traceparent: 'garbage' } });
      expect(fresh.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('CORS', () => {
  /** A browser's preflight of a GET with a token from https://app.example.com. */
  const preflightOf = (app: TestApp['app']) =>
    app.inject({
      method: 'OPTIONS',
      url: '/api/userprofile/me',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });

  it('allows only the configured origins (preflight and simple requests)', async () => {
    const preflight = await preflightOf(t.app);
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const allowed = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example.com' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it('allows nothing by default', async () => {
    const plain = await createTestApp({ sameDatabaseAs: t });
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example.com' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      // A preflight is refused as an unknown route: no Access-Control-* header, a problem body.
      const preflight = await preflightOf(plain.app);
      expect(preflight.statusCode).toBe(404);
      expect(preflight.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(preflight.json()).toMatchObject({ status: 404 });
    } finally {
      await plain.app.close();
      await plain.database.close();
    }
  });
});
