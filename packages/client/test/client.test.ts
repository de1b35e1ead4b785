import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createEntry, createUser, type TestUser, CARDS, addSlots, createCaptain, createListing, daysAhead, type TestListing } from '../../../test/factories.js';
import { createFishlogClient, FishlogProblem, memoryTokenStore, ok, type SignOutEvent, type TokenStore } from '../src/index.js';
import { breakingProxy, claimsOf, observedFetch } from './observe.js';
import { serviceDeps } from '../../../src/core/service-deps.js';
import { runExport } from '../../../src/modules/accounts/export.service.js';

/**
 * @fishlog/client against the real server on a loopback port (the harness app listening): sign-in,
 * pages and feed cursors, problems as values, idempotent bookings. Token expiry: test/token-expiry.test.ts.
 */

let t: TestApp;
let base: string;
let jo: TestUser;
let sam: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  jo = await createUser(t);
  sam = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

describe('signing in', () => {
  it('keeps the session in the token store and sends the id token (never the access token) as the bearer', async () => {
    const store = memoryTokenStore();
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, tokenStore: store, fetch: observed.fetch });
    const before = Date.now();
    const { data: session, error } = await fishlog.auth.login(jo.username, jo.password);
    expect(error).toBeUndefined();
    expect(await store.get()).toEqual(session);
    expect(session!.expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    const me = await ok(fishlog.GET('/api/userprofile/me'));
    expect(me).toMatchObject({ userId: jo.userId, username: jo.username });
    const bearer = observed.exchanges.at(-1)!.authorization!.replace(/^Bearer /, '');
    expect(bearer).toBe(session!.idToken);
    expect(claimsOf(bearer)).toMatchObject({ token_use: 'id', 'cognito:username': jo.username });
    expect(observed.exchanges[0]).toMatchObject({ method: 'POST', authorization: null });
  });

  it('answers a wrong password as a typed problem and keeps no session; logout forgets the session and says so', async () => {
    const events: SignOutEvent[] = [];
    const fishlog = createFishlogClient({ baseUrl: base, onSignOut: (event) => events.push(event) });
    const wrong = await fishlog.auth.login(jo.username, 'not the password');
    expect(wrong.error).toBeInstanceOf(FishlogProblem);
    expect(wrong.error).toMatchObject({ status: 401, code: 'auth.invalid_credentials', detail: 'The username or password is wrong.' });
    expect(await fishlog.auth.session()).toBeUndefined();
    const anonymous = await fishlog.GET('/api/userprofile/me');
    expect(anonymous.error).toMatchObject({ status: 401, code: 'auth.token_missing' });

    await ok(fishlog.auth.login(jo.username, jo.password));
    expect((await fishlog.GET('/api/userprofile/me')).data?.userId).toBe(jo.userId);
    await fishlog.auth.logout();
    expect(await fishlog.auth.session()).toBeUndefined();
    expect(events).toEqual([{ reason: 'logout' }]);
    expect((await fishlog.GET('/api/userprofile/me')).error?.code).toBe('auth.token_missing');
  });

  it('signs out on the server too: the refresh token is refused afterwards, another sign-in of the user is not', async () => {
    const observed = observedFetch();
    const events: SignOutEvent[] = [];
    const fishlog = createFishlogClient({ baseUrl: base, fetch: observed.fetch, onSignOut: (event) => events.push(event) });
    const session = await ok(fishlog.auth.login(jo.username, jo.password));
    const elsewhere = createFishlogClient({ baseUrl: base });
    await ok(elsewhere.auth.login(jo.username, jo.password));

    const result = await fishlog.auth.logout();
    expect(result.error).toBeUndefined();
    expect(result.response.status).toBe(204);
    expect(observed.exchanges.at(-1)).toMatchObject({ method: 'POST', authorization: null, status: 204 });
    expect(observed.exchanges.at(-1)!.url.pathname).toBe('/api/auth/logout');
    expect(await fishlog.auth.session()).toBeUndefined();
    expect(events).toEqual([{ reason: 'logout' }]);
    const reused = await fetch(`${base}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: session.refreshToken }) });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ code: 'auth.refresh_token_invalid' });
    expect((await elsewhere.auth.refresh()).data).toMatchObject({ idToken: expect.any(String) });
    // Without a session there is nothing to ask the server.
    const calls = observed.exchanges.length;
    expect((await fishlog.auth.logout()).response.status).toBe(204);
    expect(observed.exchanges).toHaveLength(calls);
  });

  it('signs out everywhere: another device’s next refresh is refused and ends its session', async () => {
    const dev = await createUser(t);
    const phone = createFishlogClient({ baseUrl: base });
    const otherEvents: SignOutEvent[] = [];
    const laptop = createFishlogClient({ baseUrl: base, onSignOut: (event) => otherEvents.push(event) });
    await ok(phone.auth.login(dev.username, dev.password));
    await ok(laptop.auth.login(dev.username, dev.password));
    expect((await phone.auth.logout({ everywhere: true })).response.status).toBe(204);
    const refused = await laptop.auth.refresh();
    expect(refused.error).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    expect(await laptop.auth.session()).toBeUndefined();
    expect(otherEvents).toEqual([{ reason: 'refresh_rejected', problem: refused.error }]);
  });

  it('forgets the session even when the server refuses the sign-out or cannot be reached', async () => {
    const store = memoryTokenStore();
    const fishlog = createFishlogClient({ baseUrl: base, tokenStore: store });
    const session = await ok(fishlog.auth.login(sam.username, sam.password));
    await store.set({ ...session, refreshToken: 'never-issued-by-this-server' });
    const refused = await fishlog.auth.logout({ everywhere: true });
    expect(refused.error).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    expect(await fishlog.auth.session()).toBeUndefined();

    const events: SignOutEvent[] = [];
    const offline = createFishlogClient({
      baseUrl: base,
      tokenStore: store,
      onSignOut: (event) => events.push(event),
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await store.set(session);
    await expect(offline.auth.logout()).rejects.toThrow('fetch failed');
    expect(await store.get()).toBeUndefined();
    expect(events).toEqual([{ reason: 'logout' }]);
  });

  it('renews the session on auth.refresh() (parallel callers share one refresh), and says client.signed_out without one', async () => {
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, fetch: observed.fetch });
    expect((await fishlog.auth.refresh()).error).toMatchObject({ status: 401, code: 'client.signed_out' });
    expect(observed.exchanges).toEqual([]);
    const first = await ok(fishlog.auth.login(jo.username, jo.password));
    const [a, b] = await Promise.all([fishlog.auth.refresh(), fishlog.auth.refresh()]);
    expect(a.response.status).toBe(200);
    expect(a.data!.refreshToken).not.toBe(first.refreshToken);
    expect(b.data).toEqual(a.data);
    expect(observed.exchanges.filter((e) => e.url.pathname === '/api/auth/refresh')).toHaveLength(1);
    expect(await fishlog.auth.session()).toEqual(a.data);
    expect((await ok(fishlog.GET('/api/userprofile/me'))).userId).toBe(jo.userId);
  });

  it('shares one session between clients that share a token store', async () => {
    const store: TokenStore = memoryTokenStore();
    const signIn = createFishlogClient({ baseUrl: base, tokenStore: store });
    await ok(signIn.auth.login(sam.username, sam.password));
    const other = createFishlogClient({ baseUrl: base, tokenStore: store });
    expect((await ok(other.GET('/api/userprofile/me'))).userId).toBe(sam.userId);
  });
});

describe('deleting the account', () => {
  it('asks with the password, reads the pending deletion and cancels it, typed', async () => {
    const kim = await createUser(t);
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(kim.username, kim.password));
    const { data: deletion, response } = await fishlog.POST('/api/account/deletion', { body: { password: kim.password } });
    expect(response.status).toBe(202);
    expect(deletion).toMatchObject({ status: 'Pending', cancelledAt: null });
    const pending = await ok(fishlog.GET('/api/account/deletion'));
    expect(pending.eraseAfter).toBe(deletion!.eraseAfter);
    expect((await ok(fishlog.GET('/api/userprofile/me'))).pendingDeletion).toEqual({ requestedAt: deletion!.requestedAt, eraseAfter: deletion!.eraseAfter });
    const elsewhere = await fishlog.GET('/api/fishinglog/entries', { params: { query: { mine: true } } });
    expect(elsewhere.error).toMatchObject({ status: 403, code: 'auth.deletion_pending' });
    expect(await ok(fishlog.DELETE('/api/account/deletion'))).toMatchObject({ status: 'Cancelled' });
  });
});

describe('taking one’s data', () => {
  it('asks for an export, follows it and downloads the archive, typed; a second request the same day is the problem accounts.export_too_soon', async () => {
    const lu = await createUser(t);
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(lu.username, lu.password));
    const { data: asked, response } = await fishlog.POST('/api/account/export');
    expect(response.status).toBe(202);
    expect(asked).toMatchObject({ status: 'Pending', readyAt: null, size: null });
    expect(await ok(fishlog.GET('/api/account/export'))).toMatchObject({ id: asked!.id, status: 'Pending' });
    // The job, as the queue runs it.
    await runExport({ ...serviceDeps(t), jobs: undefined as never, dataDir: t.config.dataDir }, asked!.id, () => new Date());
    const ready = await ok(fishlog.GET('/api/account/export'));
    expect(ready).toMatchObject({ status: 'Ready', size: expect.any(Number) });
    const archive = await fishlog.GET('/api/account/export/download', { parseAs: 'arrayBuffer' });
    expect(archive.response.headers.get('content-type')).toBe('application/gzip');
    expect((archive.data as ArrayBuffer).byteLength).toBe(ready.size);
    const again = await fishlog.POST('/api/account/export');
    expect(again.error).toMatchObject({ status: 429, code: 'accounts.export_too_soon' });
  });
});

describe('pages', () => {
  it('walks a feed to its end by the cursors of its next links, each entry once, newest first', async () => {
    const walker = await createUser(t);
    const times = Array.from({ length: 45 }, (_, i) => new Date(Date.UTC(2026, 0, 1, 6, i)));
    for (const occurredAt of times) await createEntry(t, walker, { occurredAt, title: `Dawn ${occurredAt.toISOString()}` });
    await createEntry(t, jo, { visibility: 'Private', title: 'not walker’s' });
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, fetch: observed.fetch });
    await ok(fishlog.auth.login(walker.username, walker.password));

    const seen: string[] = [];
    for await (const entry of fishlog.paginate('/api/fishinglog/entries', { params: { query: { mine: true, pageSize: 20 } } })) {
      seen.push(entry.occurredAt);
    }
    expect(seen).toEqual(times.map((d) => d.toISOString()).reverse());
    const pages = observed.exchanges.filter((e) => e.url.pathname === '/api/fishinglog/entries');
    expect(pages.map((p) => [p.status, p.url.searchParams.get('pageSize'), p.url.searchParams.get('mine'), p.url.searchParams.has('cursor')])).toEqual([
      [200, '20', 'true', false],
      [200, '20', 'true', true],
      [200, '20', 'true', true],
    ]);
  });

  it('walks an ordinary list by its Link pages', async () => {
    const names: string[] = [];
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(jo.username, jo.password));
    for await (const family of fishlog.paginate('/api/fish-species/families', { params: { query: { pageSize: 10 } } })) names.push(family.name);
    const all = await fishlog.GET('/api/fish-species/families', { params: { query: { pageSize: 100 } } });
    expect(names).toEqual(all.data!.map((f) => f.name));
    expect(Number(all.response.headers.get('x-total-count'))).toBe(names.length);
    expect(names.length).toBeGreaterThan(10);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('Percidae');
  });

  it('throws the problem of a page that fails', async () => {
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(jo.username, jo.password));
    const walk = async () => {
      for await (const entry of fishlog.paginate('/api/fishinglog/entries', { params: { query: { cursor: 'not-a-cursor' } } })) expect(entry).toBeUndefined();
    };
    await expect(walk()).rejects.toMatchObject({ name: 'FishlogProblem', status: 400, code: 'pagination.invalid_cursor', errors: [{ pointer: '/cursor', in: 'query' }] });
  });
});

describe('problems as values', () => {
  it('answers a 403 as a FishlogProblem with status, code, detail and the request id', async () => {
    const hidden = await createEntry(t, sam, { visibility: 'Private' });
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(jo.username, jo.password));
    const { data, error, response } = await fishlog.GET('/api/fishinglog/entries/{id}', { params: { path: { id: hidden.id } } });
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(FishlogProblem);
    expect(error).toMatchObject({ status: 403, code: 'fishinglog.entry_not_visible', detail: 'This log entry is not shared with you.', errors: [] });
    expect(error!.requestId).toBe(response.headers.get('x-request-id'));
    expect(error!.requestId).toMatch(/\S/);
    await expect(ok(fishlog.GET('/api/fishinglog/entries/{id}', { params: { path: { id: hidden.id } } }))).rejects.toBeInstanceOf(FishlogProblem);
  });

  it('lists the invalid fields of a 400 in errors[]', async () => {
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(jo.username, jo.password));
    const body = { title: 'x', occurredAt: '2026-06-01T05:30:00Z', timeZone: 'America/Chicago', visibility: 'Everyone' } as unknown as { title: string; occurredAt: string; timeZone: string };
    const { error } = await fishlog.POST('/api/fishinglog/entries', { body });
    expect(error).toMatchObject({ status: 400, errors: [{ pointer: '/visibility', in: 'body', detail: expect.stringContaining('Public') }] });
  });
});

describe('idempotency keys', () => {
  let listing: TestListing;
  beforeAll(async () => {
    const admin = await createUser(t, { role: 'Admin' });
    const captain = await createCaptain(t, admin);
    listing = await createListing(t, captain, { instantBook: true });
    await addSlots(t, captain, listing.id, [daysAhead(40), daysAhead(41)]);
  });
  const slots = async (fishlog: ReturnType<typeof createFishlogClient>) =>
    (await ok(fishlog.GET('/api/charter/listings/{id}/slots', { params: { path: { id: listing.id } } }))).filter((s) => !s.booked);

  it('books once when the answer is lost and the call is retried: the same key both times', async () => {
    const customer = await createUser(t);
    const proxy = await breakingProxy(base, (head) => head.startsWith(`POST /api/charter/listings/${listing.id}/book `));
    try {
      const observed = observedFetch();
      const fishlog = createFishlogClient({ baseUrl: proxy.url, fetch: observed.fetch });
      await ok(fishlog.auth.login(customer.username, customer.password));
      const [slot] = await slots(fishlog);
      const booked = await fishlog.POST('/api/charter/listings/{listingId}/book', {
        params: { path: { listingId: listing.id } },
        body: { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2, paymentMethod: CARDS.visa },
      });
      expect(booked.error).toBeUndefined();
      expect(proxy.cuts()).toBe(1);
      const attempts = observed.exchanges.filter((e) => e.method === 'POST' && e.url.pathname.endsWith('/book'));
      expect(attempts.map((a) => a.status)).toEqual(['failed', 201]);
      expect(attempts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
      const mine = await ok(fishlog.GET('/api/charter/bookings'));
      expect(mine.map((b) => b.id)).toEqual([booked.data!.id]);
      expect(mine[0]).toMatchObject({ slotId: slot!.id, partySize: 2 });
    } finally {
      await proxy.close();
    }
  });

  it('gives each call its own key, and keeps a key the caller sends', async () => {
    const customer = await createUser(t);
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, fetch: observed.fetch });
    await ok(fishlog.auth.login(customer.username, customer.password));
    const [slot] = await slots(fishlog);
    const body = { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 1, paymentMethod: CARDS.visa };
    const first = await fishlog.POST('/api/charter/listings/{listingId}/book', { params: { path: { listingId: listing.id }, header: { 'idempotency-key': 'my-key-1' } }, body });
    const again = await fishlog.POST('/api/charter/listings/{listingId}/book', { params: { path: { listingId: listing.id }, header: { 'idempotency-key': 'my-key-1' } }, body });
    expect(again.data?.id).toBe(first.data!.id);
    const other = await fishlog.POST('/api/charter/listings/{listingId}/book', { params: { path: { listingId: listing.id } }, body });
    expect(other.error).toMatchObject({ status: 409 });
    const keys = observed.exchanges.filter((e) => e.url.pathname.endsWith('/book')).map((e) => e.idempotencyKey);
    expect(keys.slice(0, 2)).toEqual(['my-key-1', 'my-key-1']);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(observed.exchanges.filter((e) => e.method === 'GET').every((e) => e.idempotencyKey === null)).toBe(true);
  });
});

describe('photo uploads', () => {
  it('uploads bytes as multipart to a catch and to the avatar, typed; a file of another type is a 415 problem', async () => {
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 90, b: 160 } } }).jpeg().toBuffer();
    const fishlog = createFishlogClient({ baseUrl: base });
    await ok(fishlog.auth.login(jo.username, jo.password));
    const entry = await ok(fishlog.POST('/api/fishinglog/entries', { body: { title: 'Photo day', occurredAt: '2026-06-01T19:30:00Z', timeZone: 'UTC', visibility: 'Private' } }));
    const caught = await ok(fishlog.POST('/api/fishinglog/entries/{entryId}/catches', { params: { path: { entryId: entry.id } }, body: { speciesId: '7d398aef-0ec3-5825-aaeb-bf95af8f9133', released: true } }));
    const photo = await ok(fishlog.upload('post', '/api/fishinglog/entries/{entryId}/catches/{catchId}/photos', jpeg, { params: { path: { entryId: entry.id, catchId: caught.id } }, filename: 'walleye.jpg' }));
    expect(photo).toMatchObject({ id: expect.any(String), width: 64, height: 48 });
    const read = await ok(fishlog.GET('/api/fishinglog/entries/{id}', { params: { path: { id: entry.id } } }));
    expect(read.catches?.[0]?.photos?.map((p) => p.id)).toEqual([photo.id]);
    const avatar = await ok(fishlog.upload('put', '/api/userprofile/me/avatar', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' })));
    expect(avatar).toMatchObject({ width: 64, height: 48 });
    const text = await fishlog.upload('post', '/api/fishinglog/entries/{entryId}/photos', new TextEncoder().encode('not an image'), { params: { path: { entryId: entry.id } } });
    expect(text.error).toBeInstanceOf(FishlogProblem);
    expect(text.error).toMatchObject({ status: 415 });
  });
});
