import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type Staff, type TestUser, bookNewSlot, charterCast, type TestListing } from '../../../test/factories.js';
import { until } from '../../../test/until.js';
import { isPrivateAddress, postWebhook, refusedUrl, safeLookup } from './webhooks.transport.js';

/**
 * Webhooks: a receiver in the test gets signed deliveries of the events it subscribed to; a
 * failing one gets retries with backoff and a delivery log; redirects are not followed, answers
 * are kept to 1 KB; private and plain-http targets are refused unless allowed for local testing.
 */

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: TestApp;
let staff: Staff;
let captain: TestUser;
let customer: TestUser;
let listing: TestListing;
let receiver: http.Server;
let base: string;
const hits: Hit[] = [];
/** What the receiver answers per path: a status, and how often to fail first. */
const failuresLeft = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp({ env: { FISHLOG_JOBS: 'true', FISHLOG_JOBS_POLL_SECONDS: '1', FISHLOG_WEBHOOKS_ALLOW_LOCAL: 'true' } });
  ({ staff, captain, customer, listing } = await charterCast(t));
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      hits.push({ path: request.url!, headers: request.headers, body });
      const left = failuresLeft.get(request.url!) ?? 0;
      if (request.url === '/moved') return void response.writeHead(302, { location: `${base}/elsewhere` }).end();
      if (left > 0) {
        failuresLeft.set(request.url!, left - 1);
        return void response.writeHead(503).end('down for maintenance');
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload === undefined ? {} : { payload }) });

async function register(path: string, eventTypes: string[]) {
  const res = await call('POST', '/api/admin/webhooks', staff.admin, { url: `${base}${path}`, eventTypes, description: `receiver ${path}`, reason: 'Integration test' });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

const deliveriesOf = async (id: string) => (await call('GET', `/api/admin/webhooks/${id}/deliveries`, staff.admin)).json() as Array<Record<string, unknown>>;

function verify(hit: Hit, secret: string) {
  const [t, v1] = (hit.headers['x-fishlog-signature'] as string).split(',').map((part) => part.split('=')[1]!);
  expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
  expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${hit.body}`).digest('hex'));
}

describe('webhook deliveries', () => {
  it('posts signed events of the subscribed types, with the record’s public view and no one’s identity', async () => {
    const hook = await register('/bookings', ['charters.booking_requested', 'charters.booking_accepted']);
    const booking = (await bookNewSlot(t, captain, listing, customer)).json() as { id: string };
    await call('POST', `/api/charter/bookings/${booking.id}/accept`, captain);
    await until('both deliveries', async () => (hits.filter((h) => h.path === '/bookings').length >= 2 ? true : undefined));
    const received = hits.filter((h) => h.path === '/bookings').map((h) => ({ hit: h, json: JSON.parse(h.body) as Record<string, unknown> }));
    expect(received.map((r) => r.json.type).sort()).toEqual(['charters.booking_accepted', 'charters.booking_requested']);
    for (const { hit, json } of received) {
      verify(hit, hook.secret);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(json).toEqual({ id: expect.any(String), type: json.type, createdAt: expect.any(String), data: expect.objectContaining({ id: booking.id, listingId: listing.id }) });
      for (const secret of [customer.userId, customer.username, customer.email, captain.userId]) expect(hit.body).not.toContain(secret);
    }
    // Another type (the refund) is not sent to this endpoint; the log keeps 1 KB of the answer.
    const log = await until('the log', async () => {
      const rows = await deliveriesOf(hook.id);
      return rows.length === 2 && rows.every((r) => r.status === 'Succeeded') ? rows : undefined;
    });
    expect(log[0]).toMatchObject({ attempts: 1, responseStatus: 200, error: null });
    expect((log[0]!.responseBody as string).length).toBe(1024);
  });

  it('retries a failing receiver with backoff, logging each attempt, until it answers', async () => {
    failuresLeft.set('/flaky', 1);
    const hook = await register('/flaky', ['charters.booking_requested']);
    await bookNewSlot(t, captain, listing, customer);
    const first = await until('the failed attempt', async () => (await deliveriesOf(hook.id)).find((d) => d.attempts === 1));
    expect(first).toMatchObject({ status: 'Pending', responseStatus: 503, responseBody: 'down for maintenance', error: 'HTTP 503' });
    const { rows } = await t.database.owner.pool.query<{ state: string; seconds: number }>(
      "SELECT state::text, extract(epoch FROM start_after - now())::float AS seconds FROM pgboss.job WHERE name = 'notifications.webhook' AND id = $1",
      [first.id],
    );
    expect(rows[0]!.state).toBe('retry');
    expect(rows[0]!.seconds).toBeGreaterThan(20); // 30-60 s for the first retry, doubling after
    // Time passes (the retry is due now).
    await t.database.owner.pool.query("UPDATE pgboss.job SET start_after = now() WHERE name = 'notifications.webhook' AND id = $1", [first.id]);
    const done = await until('the retry', async () => (await deliveriesOf(hook.id)).find((d) => d.id === first.id && d.status === 'Succeeded'));
    expect(done).toMatchObject({ attempts: 2, responseStatus: 200, error: null });
    expect(hits.filter((h) => h.path === '/flaky')).toHaveLength(2);
  });

  it('follows no redirect; pings on demand; sends nothing to a deactivated endpoint', async () => {
    const moved = await register('/moved', ['charters.booking_accepted']);
    const ping = await call('POST', `/api/admin/webhooks/${moved.id}/ping`, staff.admin);
    expect(ping.statusCode).toBe(202);
    expect(ping.json()).toMatchObject({ type: 'ping', status: 'Pending', attempts: 0 });
    const attempted = await until('the ping', async () => (await deliveriesOf(moved.id)).find((d) => d.attempts === 1));
    expect(attempted).toMatchObject({ responseStatus: 302, error: 'HTTP 302' });
    expect(hits.filter((h) => h.path === '/elsewhere')).toEqual([]);
    const pinged = hits.find((h) => h.path === '/moved')!;
    verify(pinged, moved.secret);
    expect(JSON.parse(pinged.body)).toMatchObject({ type: 'ping', data: { webhookId: moved.id } });

    expect((await call('POST', `/api/admin/webhooks/${moved.id}/deactivate`, staff.admin, {})).statusCode).toBe(400);
    const off = await call('POST', `/api/admin/webhooks/${moved.id}/deactivate`, staff.admin, { reason: 'Receiver retired' });
    expect(off.json()).toMatchObject({ isActive: false, deactivationReason: 'Receiver retired' });
    expect((await call('POST', `/api/admin/webhooks/${moved.id}/ping`, staff.admin)).json()).toMatchObject({ status: 409, code: 'webhooks.already_inactive' });
    const audit = await t.database.pool.query("SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id", [moved.id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['webhooks.created', 'webhooks.pinged', 'webhooks.deactivated']);
  });

  it('sends a Failed delivery again on an Admin\'s retry, with a reason; nothing else can be retried, and only by Admin or Owner', async () => {
    failuresLeft.set('/down', 1);
    const hook = await register('/down', ['charters.booking_accepted']);
    const ping = (await call('POST', `/api/admin/webhooks/${hook.id}/ping`, staff.admin)).json() as { id: string };
    await until('the failed attempt', async () => (await deliveriesOf(hook.id)).find((d) => d.attempts === 1));
    const retry = (deliveryId: string, user: TestUser | null, payload: object = { reason: 'Receiver back up' }) =>
      call('POST', `/api/admin/webhooks/${hook.id}/deliveries/${deliveryId}/retry`, user, payload);
    // Still being retried by the queue: not Failed yet.
    expect((await retry(ping.id, staff.admin)).json()).toMatchObject({ status: 409, code: 'webhooks.delivery_not_failed' });
    // Its retries used up (as after 24 hours of failures): the queue's job is over, the delivery Failed.
    await t.database.owner.pool.query("UPDATE pgboss.job SET state = 'failed', completed_on = now() WHERE name = 'notifications.webhook' AND id = $1", [ping.id]);
    await t.database.owner.pool.query("UPDATE webhook_deliveries SET status = 'Failed' WHERE id = $1", [ping.id]);

    const moderator = await createUser(t, { role: 'Moderator' });
    expect((await retry(ping.id, moderator)).json()).toMatchObject({ status: 403 });
    expect((await retry(ping.id, customer)).json()).toMatchObject({ status: 403 });
    expect((await retry(ping.id, null)).statusCode).toBe(401);
    expect((await retry(ping.id, staff.admin, {})).json()).toMatchObject({ status: 400 });
    expect((await retry(MISSING_ID, staff.admin)).json()).toMatchObject({ status: 404, code: 'webhooks.delivery_not_found' });
    const other = await register('/other', ['charters.booking_accepted']);
    expect((await call('POST', `/api/admin/webhooks/${other.id}/deliveries/${ping.id}/retry`, staff.admin, { reason: 'x' })).json()).toMatchObject({ status: 404, code: 'webhooks.delivery_not_found' });

    const again = await retry(ping.id, staff.admin);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ id: ping.id, type: 'ping', status: 'Pending', attempts: 1, responseStatus: 503 });
    const done = await until('the retried delivery', async () => (await deliveriesOf(hook.id)).find((d) => d.id === ping.id && d.status === 'Succeeded'));
    expect(done).toMatchObject({ attempts: 2, responseStatus: 200, error: null });
    const sent = hits.filter((h) => h.path === '/down');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body); // the same delivery, signed anew
    verify(sent[1]!, hook.secret);
    expect((await retry(ping.id, staff.admin)).json()).toMatchObject({ status: 409, code: 'webhooks.delivery_not_failed' });
    const audit = await t.database.pool.query("SELECT action, reason FROM audit_log WHERE target_id = $1 AND action = 'webhooks.delivery_retried'", [hook.id]);
    expect(audit.rows).toEqual([{ action: 'webhooks.delivery_retried', reason: 'Receiver back up' }]);
  });

  it('is for Admin and Owner only; the secret is shown once; lists are paginated and filtered', async () => {
    const moderator = await createUser(t, { role: 'Moderator' });
    for (const user of [customer, moderator]) {
      const res = await call('POST', '/api/admin/webhooks', user, { url: `${base}/x`, eventTypes: ['bans.issued'], reason: 'x' });
      expect(res.statusCode).toBe(403);
      expect((await call('GET', '/api/admin/webhooks', user)).statusCode).toBe(403);
    }
    expect((await call('GET', '/api/admin/webhooks', null)).statusCode).toBe(401);
    const created = await call('POST', '/api/admin/webhooks', staff.owner, { url: `${base}/owner`, eventTypes: ['bans.issued'], reason: 'Owner’s hook' });
    expect(created.json().secret).toMatch(/^whsec_/);
    const shown = (await call('GET', `/api/admin/webhooks/${created.json().id}`, staff.admin)).json();
    expect(shown).not.toHaveProperty('secret');
    expect(JSON.stringify((await call('GET', '/api/admin/webhooks?status=All&pageSize=100', staff.admin)).json())).not.toContain(created.json().secret);
    const page = await call('GET', '/api/admin/webhooks?pageSize=1', staff.admin);
    expect(page.json()).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe('5'); // the active ones (one of the six was deactivated)
    expect(((await call('GET', '/api/admin/webhooks?status=Inactive', staff.admin)).json() as unknown[]).length).toBe(1);
    expect((await call('GET', `/api/admin/webhooks/${MISSING_ID}`, staff.admin)).json()).toMatchObject({ status: 404, code: 'webhooks.not_found' });
    expect((await call('POST', '/api/admin/webhooks', staff.admin, { url: `${base}/x`, eventTypes: ['no.such'], reason: 'x' })).statusCode).toBe(400);
  });
});

describe('SSRF guards', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ sameDatabaseAs: t });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('refuses plain http and private, loopback or link-local targets unless allowed for local testing', async () => {
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://localhost/x', 'https://user:pw@hooks.example.com/x']) {
      const res = await strict.app.inject({ method: 'POST', url: '/api/admin/webhooks', headers: staff.admin.headers, payload: { url, eventTypes: ['bans.issued'], reason: 'x' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'webhooks.url_refused', errors: [{ pointer: '/url' }] });
    }
    expect(refusedUrl('https://hooks.example.com/x', false)).toBeUndefined();
    expect((await postWebhook(`${base}/bookings`, 'secret', '{}', { allowLocal: false })).error).toBe('refused: must be an https:// URL');
    // The connection's resolver refuses a name that resolves to a non-public address (checked on the addresses used).
    const resolve = (allowLocal: boolean, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
        (safeLookup(allowLocal) as unknown as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null, a: unknown) => void) => void)('localhost', { all }, (error, address) => done({ error, address })),
      );
    for (const all of [false, true]) expect((await resolve(false, all)).error).toMatchObject({ code: 'EWEBHOOKADDRESS', message: expect.stringContaining('non-public address') });
    expect((await resolve(true, false)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    // Checked again on the address actually connected to (a public name resolving inside is refused then).
    for (const address of ['127.0.0.1', '10.0.0.8', '172.20.1.1', '192.168.1.1', '169.254.1.1', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1']) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '::ffff:5db8:d822', '2606:2800:220:1:248:1893:25c8:1946']) expect(isPrivateAddress(address), address).toBe(false);
  });
});
