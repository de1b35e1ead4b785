import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { banUser, createClub, createUser, type TestUser } from '../../../test/factories.js';

/**
 * The document tells the whole truth (issue 49): what a validating proxy found answered but not
 * declared — a banned caller's 403, maintenance mode's 503, /metrics' type, a body sent to an
 * operation that takes none — is now declared, and the answers are what the document says. (Every
 * response of every test is also checked against the document: test/conformance.ts.)
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is arbitrary JSON
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let t: TestApp;
let doc: Json;
let owner: TestUser;
let angler: TestUser;
let banned: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  [owner, angler, banned] = await Promise.all([createUser(t, { role: 'Owner' }), createUser(t), createUser(t)]);
  await banUser(t, owner, banned, { reason: 'Spamming the feed', durationDays: 7 });
});
afterAll(async () => t?.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json, where: `${method.toUpperCase()} ${path}` })),
  );

/** The response an operation declares for `status`, a shared one (components.responses) resolved, with the reference's name. */
function declared(path: string, method: string, status: number): (Json & { component?: string }) | undefined {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)] as Json | undefined;
  if (typeof response?.$ref !== 'string') return response;
  const component = response.$ref.split('/').pop()!;
  return { ...doc.components.responses[component], ...(response.description ? { description: response.description } : {}), component };
}

const join = (clubId: string, user: TestUser, payload?: string) =>
  t.app.inject({ method: 'POST', url: `/api/clubs/${clubId}/join`, headers: { ...user.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload }) });

describe('a banned caller', () => {
  it('gets 403 auth.banned, which the operation declares (the shared CallerRefused response)', async () => {
    const club = await createClub(t, owner);
    const res = await join(club.id, banned);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 403, code: 'auth.banned', type: 'urn:fishlog:problem:auth.banned', instance: `/api/clubs/${club.id}/join` });
    expect(res.json().detail).toMatch(/banned until .*Reason: Spamming the feed\. Read your ban with GET \/api\/bans\/me/);
    const forbidden = declared('/api/clubs/{id}/join', 'post', 403)!;
    expect(forbidden.component).toBe('CallerRefused');
    expect(forbidden.description).toContain('`auth.banned`');
    expect(forbidden.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
  });

  it('is declared on every signed-in operation; reading and appealing one’s ban declare only the deactivated account', async () => {
    const signedIn = operations().filter(({ op }) => op.security.length > 0);
    expect(signedIn.length).toBeGreaterThan(300);
    const missing = signedIn.filter(({ path, method }) => !['CallerRefused', 'AccountDeactivated'].includes(declared(path, method, 403)?.component ?? '')).map((o) => o.where);
    expect(missing).toEqual([]);
    expect(declared('/api/bans/me', 'get', 403)?.component).toBe('AccountDeactivated');
    expect(declared('/api/bans/{id}/appeal', 'post', 403)?.component).toBe('AccountDeactivated');
    const mine = await t.app.inject({ method: 'GET', url: '/api/bans/me', headers: banned.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ current: { reason: 'Spamming the feed', status: 'Active' } });
  });

  it('keeps an operation’s own 403 description before the ban’s (a permission, a record not visible)', () => {
    const own = declared('/api/admin/clubs/{id}/deactivate', 'post', 403)!;
    expect(own.component).toBe('CallerRefused');
    expect(own.description).toMatch(/^The caller lacks the role or permission.*\. Also: the caller's account is banned/);
  });
});

describe('/metrics', () => {
  it('is documented as Prometheus text (text/plain), and answers it', async () => {
    expect(Object.keys(doc.paths['/metrics'].get.responses['200'].content)).toEqual(['text/plain']);
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toMatch(/^# HELP /m);
    expect(res.body).toMatch(/^fishlog_http_requests_total\{/m);
  });
});

describe('non-JSON answers', () => {
  it('declare their real media types: photos, CSV and NDJSON exports, data archives, metrics', () => {
    const types = operations().flatMap(({ where, op }) =>
      Object.entries(op.responses as Record<string, Json>).flatMap(([status, response]) => Object.keys(response.content ?? {}).filter((type) => !/^application\/(problem\+)?json$/.test(type)).map((type) => `${where} ${status} ${type}`)),
    );
    expect(types.sort()).toEqual(
      [
        'GET /api/account/export/download 200 application/gzip',
        'GET /api/admin/audit-logs/export 200 application/x-ndjson',
        'GET /api/admin/audit-logs/export 200 text/csv',
        'GET /api/admin/photos/{id}/{size} 200 image/jpeg',
        'GET /api/photos/{id}/{size} 200 image/jpeg',
        'GET /api/tournament/{tournamentId}/export/registrations.csv 200 text/csv',
        'GET /api/tournament/{tournamentId}/export/results.csv 200 text/csv',
        'GET /metrics 200 text/plain',
      ].sort(),
    );
  });
});

describe('an operation that takes no body', () => {
  it.each([
    ['{"bogus":1}', 'an object'],
    ['[1,2,3]', 'an array'],
    ['{}', 'an empty object'],
    ['null', 'null'],
  ])('refuses %s (%s): 400 request.validation_failed naming the body, before anything changes', async (payload) => {
    const club = await createClub(t, owner);
    const res = await join(club.id, angler, payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toEqual({
      type: 'urn:fishlog:problem:request.validation_failed',
      title: 'Bad Request',
      status: 400,
      code: 'request.validation_failed',
      detail: 'The request is invalid: body must be absent: this operation takes no request body. Fix the listed fields and send it again.',
      instance: `/api/clubs/${club.id}/join`,
      requestId: res.headers['x-request-id'],
      errors: [{ pointer: '/', in: 'body', detail: 'must be absent: this operation takes no request body' }],
    });
    const after = await t.app.inject({ method: 'GET', url: `/api/clubs/${club.id}`, headers: owner.headers });
    expect(after.json()).toMatchObject({ memberCount: 1, members: [{ userId: owner.userId }] });
  });

  it('answers the call without a body as before (what @fishlog/client sends)', async () => {
    const club = await createClub(t, owner);
    const res = await join(club.id, angler);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: club.id, memberCount: 2, myMembership: { role: 'Member', status: 'Active' } });
  });

  it('says so in the document: no requestBody, and its 400 tells that a body is refused', () => {
    const bodyless = operations().filter(({ method, op, path }) => method !== 'get' && !op.requestBody && path !== '/api/payments/webhooks/stripe');
    expect(bodyless.length).toBeGreaterThan(30);
    const silent = bodyless.filter(({ path, method }) => !/takes no request body/.test(declared(path, method, 400)?.description ?? '')).map((o) => o.where);
    expect(silent).toEqual([]);
  });

  it('leaves the Stripe webhook its raw body (signed bytes, read by the route)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers: { 'content-type': 'application/json' }, payload: '{"id":"evt_1"}' });
    expect(res.json()).toMatchObject({ status: 404, code: 'payments.webhook_disabled' });
  });
});

describe('maintenance mode', () => {
  it('answers 503 system.maintenance with Retry-After, declared (with Retry-After) on every operation it applies to, and on no other', async () => {
    const on = await t.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value: true, reason: 'database upgrade' } });
    expect(on.statusCode).toBe(200);
    try {
      const refused = await t.app.inject({ method: 'GET', url: '/api/fish-species?pageSize=1', headers: angler.headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('300');
      expect(refused.json()).toMatchObject({ status: 503, code: 'system.maintenance', detail: 'The service is down for maintenance; try again later.' });
      // A public operation that maintenance does not leave open.
      const unsubscribe = await t.app.inject({ method: 'GET', url: '/api/notifications/unsubscribe?ref=x' });
      expect(unsubscribe.statusCode).toBe(503);
      expect(unsubscribe.json()).toMatchObject({ status: 503, code: 'system.maintenance' });
      // The health probes and sign-in stay open.
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: angler.username, password: angler.password } });
      expect(login.statusCode).toBe(200);
    } finally {
      const off = await t.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value: false, reason: 'done' } });
      expect(off.statusCode).toBe(200);
    }
    const unavailable = declared('/api/fish-species', 'get', 503)!;
    expect(unavailable.component).toBe('ServiceUnavailable');
    expect(unavailable.description).toContain('`system.maintenance`, Retry-After 300');
    expect(unavailable.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    const open = (path: string) => path.startsWith('/health') || path.startsWith('/api/auth/');
    const undeclared = operations()
      .filter(({ path }) => !open(path))
      .filter(({ path, method }) => declared(path, method, 503)?.component !== 'ServiceUnavailable')
      .map((o) => o.where);
    expect(undeclared).toEqual([]);
    expect(declared('/api/notifications/unsubscribe', 'get', 503)?.component).toBe('ServiceUnavailable');
    // Open during maintenance: no maintenance 503; the liveness probe never reads the database either.
    expect(declared('/health/live', 'get', 503)).toBeUndefined();
    for (const path of ['/api/auth/login', '/api/auth/refresh']) {
      const own = declared(path, 'post', 503)!;
      expect(own.component).toBeUndefined();
      expect(own.description).not.toContain('system.maintenance');
      expect(own.headers['Retry-After']).toBeDefined();
    }
  });
});
