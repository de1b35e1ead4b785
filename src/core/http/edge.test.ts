import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type TestUser } from '../../../test/factories.js';
import { redisAnswers } from '../../../test/redis.js';

/** Rate limits that count every request, and slow clients that cannot hold a connection. */

let t: TestApp;
let jo: TestUser;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_USER_PER_MINUTE: '20', FISHLOG_HEADERS_TIMEOUT_MS: '1000', FISHLOG_REQUEST_TIMEOUT_MS: '3000', FISHLOG_MAX_CONNECTIONS: '50' },
  });
  jo = await createUser(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

describe('rate limits', () => {
  it('count 401 answers per IP: token guessing gets 429 with Retry-After and RateLimit headers', async () => {
    const limited = await createTestApp({ sameDatabaseAs: t, env: { RATE_LIMIT_PER_MINUTE: '10' } });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 12; i++) {
        last = await limited.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: { authorization: 'Bearer a.b.c' }, remoteAddress: '192.0.2.50' });
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      expect(last!.json().code).toBe('request.rate_limited');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.headers['ratelimit-limit']).toBe('10');
      expect(last!.headers['ratelimit-remaining']).toBe('0');
      // 404s (id scanning, unknown routes) count as well
      for (let i = 0; i < 10; i++) await limited.app.inject({ method: 'GET', url: `/nope/${i}`, remoteAddress: '192.0.2.51' });
      expect((await limited.app.inject({ method: 'GET', url: '/nope/again', remoteAddress: '192.0.2.51' })).statusCode).toBe(429);
      // another address is not affected
      expect((await limited.app.inject({ method: 'GET', url: '/health', remoteAddress: '192.0.2.52' })).statusCode).toBe(200);
    } finally {
      await limited.app.close();
      await limited.database.close();
    }
  });

  it('count per user across addresses once the token is known (404 id scans included)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/fishinglog/entries/${MISSING_ID}`, headers: jo.headers, remoteAddress: `198.18.0.${i + 1}` });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('every answer carries RateLimit headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '198.19.0.1' });
    expect(res.headers['ratelimit-limit']).toBe('1000');
    expect(Number(res.headers['ratelimit-remaining'])).toBe(999);
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
  });
});

describe('slow clients', () => {
  it('a client sending its headers a byte at a time is cut off after the headers timeout', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    socket.on('error', () => undefined);
    const request = 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100);
    let i = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || i >= request.length) return clearInterval(timer);
      socket.write(request[i++]!);
    }, 100);
    const after = await closed;
    clearInterval(timer);
    expect(after).toBeLessThan(4000);
  });

  it('applies the configured timeouts and connection cap to the server', () => {
    expect(t.app.server.headersTimeout).toBe(1000);
    expect(t.app.server.requestTimeout).toBe(3000);
    expect(t.app.server.maxConnections).toBe(50);
    expect(t.app.server.keepAliveTimeout).toBe(65_000);
  });

  it('keeps an idle keep-alive connection open longer than a load balancer does (65 s by default, above the 60 s of AWS ALB and nginx)', () => {
    const defaults = testConfig();
    expect(defaults.keepAliveTimeoutMs).toBe(65_000);
    expect(defaults.keepAliveTimeoutMs).toBeGreaterThan(60_000);
    // The headers timeout stays short (slow clients are cut off): it counts a request's headers, not the idle time between requests.
    expect(defaults.headersTimeoutMs).toBe(10_000);
  });

  it('does not reset a client that pauses between calls on one connection for longer than the headers timeout', async () => {
    // This app's headers timeout is 1 s (the default is 10 s): a pause of 2.5 s on an idle keep-alive connection is the same case.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets: net.Socket[] = [];
    let closes = 0;
    const call = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/health/live', agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        request.on('socket', (socket: net.Socket) => {
          if (!sockets.includes(socket)) {
            sockets.push(socket);
            socket.once('close', () => closes++);
          }
        });
        request.on('error', reject);
      });
    try {
      const first = await call();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const second = await call();
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(JSON.parse(second.body)).toMatchObject({ status: 'ok' });
      expect({ sockets: sockets.length, closes }).toEqual({ sockets: 1, closes: 0 });
    } finally {
      agent.destroy();
    }
  });
});

describe('rate limits shared through Redis (REDIS_URL)', () => {
  const url = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
  it('two processes count one address together', async (context) => {
    if (!(await redisAnswers(url))) return context.skip();
    const apps = [
      await createTestApp({ sameDatabaseAs: t, env: { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: url } }),
      await createTestApp({ sameDatabaseAs: t, env: { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: url } }),
    ];
    try {
      // An address of this run only (the counters live for a minute in the shared Redis).
      const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await apps[i % 2]!.app.inject({ method: 'GET', url: `/health/live?run=${Date.now()}`, remoteAddress: address })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      for (const app of apps) {
        await app.app.close();
        await app.database.close();
      }
    }
  });

  it('a Redis that does not answer lets requests through (the API stays up; the limit is not counted)', async () => {
    // Nothing listens on port 1: every count fails at once (no offline queue).
    const unreachable = await createTestApp({ sameDatabaseAs: t, env: { RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await unreachable.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: jo.headers, remoteAddress: '198.51.100.251' }));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(answers[3]!.json().username).toBe(jo.username);
      expect(answers[3]!.headers['ratelimit-limit']).toBe('2');
      expect(answers[3]!.headers['ratelimit-remaining']).toBe('2');
    } finally {
      await unreachable.app.close();
      await unreachable.database.close();
    }
  });
});
