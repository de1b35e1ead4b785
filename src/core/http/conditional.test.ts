import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, WALLEYE, PIKE } from '../../../test/factories.js';

/**
 * Conditional requests and client-generated ids (issue 45) on the five kinds of record an offline
 * app writes: boats, gear setups, fishing sessions, log entries and catches; one mechanism
 * (core/http/conditional.ts, core/http/client-ids.ts), the same behaviour on each.
 */

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  stranger = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, user: TestUser, options: { payload?: object; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method, url, headers: { ...user.headers, ...options.headers }, ...(options.payload === undefined ? {} : { payload: options.payload }) });

interface Kind {
  name: string;
  /** The collection to POST to (for a catch: its entry's), made fresh for each test. */
  collection(user: TestUser): Promise<string>;
  body(): Record<string, unknown>;
  otherBody(): Record<string, unknown>;
  put(): Record<string, unknown>;
  patch: Record<string, unknown>;
  /** The 403 code a stranger gets. */
  refused: string;
}

async function newEntry(user: TestUser): Promise<string> {
  const res = await call('POST', '/api/fishinglog/entries', user, { payload: { title: 'Evening bite', occurredAt: '2026-06-01T19:00:00.000Z', timeZone: 'America/Chicago' } });
  expect(res.statusCode, res.body).toBe(201);
  return `/api/fishinglog/entries/${res.json().id as string}/catches`;
}

const entryBody = () => ({ title: 'Walleye opener', occurredAt: '2026-05-09T05:30:00.000Z', timeZone: 'America/Chicago' });

const KINDS: Kind[] = [
  {
    name: 'boat',
    collection: async () => '/api/gear/boats',
    body: () => ({ name: 'Old Blue', make: 'Lund' }),
    otherBody: () => ({ name: 'Old Blue', make: 'Crestliner' }),
    put: () => ({ name: 'Old Blue II' }),
    patch: { notes: 'new prop' },
    refused: 'gear.boat_not_owned',
  },
  {
    name: 'gear setup',
    collection: async () => '/api/gear/setups',
    body: () => ({ name: 'Drop shot', technique: 'Drop shot' }),
    otherBody: () => ({ name: 'Drop shot', technique: 'Ned rig' }),
    put: () => ({ name: 'Jig' }),
    patch: { notes: 'for deep weed edges' },
    refused: 'gear.setup_not_owned',
  },
  {
    name: 'fishing session',
    collection: async () => '/api/fishinglog/sessions',
    body: () => ({ startedAt: '2026-06-01T05:00:00.000Z', notes: 'Dawn' }),
    otherBody: () => ({ startedAt: '2026-06-01T05:00:00.000Z', notes: 'Dusk' }),
    put: () => ({ startedAt: '2026-06-01T06:00:00.000Z' }),
    patch: { notes: 'windy' },
    refused: 'fishinglog.not_session_owner',
  },
  {
    name: 'log entry',
    collection: async () => '/api/fishinglog/entries',
    body: entryBody,
    otherBody: () => ({ ...entryBody(), title: 'Something else' }),
    put: () => ({ ...entryBody(), visibility: 'Private', shareExactLocation: false }),
    patch: { notes: 'slow jigging' },
    refused: 'fishinglog.entry_not_visible',
  },
  {
    name: 'catch',
    collection: newEntry,
    body: () => ({ speciesId: WALLEYE, lengthCm: 55.5, released: true }),
    otherBody: () => ({ speciesId: PIKE, lengthCm: 55.5, released: true }),
    put: () => ({ speciesId: WALLEYE, lengthCm: 60, released: false, count: 1, caughtAt: '2026-06-01T19:30:00.000Z' }),
    patch: { notes: 'on a jig' },
    refused: 'fishinglog.entry_not_visible',
  },
];

/** A new record of `kind`: its URL and first ETag. */
async function create(kind: Kind, user = owner) {
  const collection = await kind.collection(user);
  const res = await call('POST', collection, user, { payload: kind.body() });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  return { collection, url: `${collection}/${id}`, id, etag: res.headers.etag as string, body: res.json() };
}

describe.each(KINDS)('$name', (kind) => {
  it('answers an ETag (its version) on POST, GET, PUT and PATCH; it changes with each write', async () => {
    const record = await create(kind);
    expect(record.etag).toBe('"1"');
    expect(record.body.version).toBe(1);
    const read = await call('GET', record.url, owner);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    // What a caller is shown depends on who asks: no cache may hand it to another caller.
    expect(read.headers).toMatchObject({ 'cache-control': 'private, no-cache', vary: 'Authorization' });
    const put = await call('PUT', record.url, owner, { payload: kind.put() });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.headers.etag).toBe('"2"');
    expect(put.json().version).toBe(2);
    const patched = await call('PATCH', record.url, owner, { payload: kind.patch });
    expect(patched.headers.etag).toBe('"3"');
    expect((await call('GET', record.url, owner)).headers.etag).toBe('"3"');
  });

  it('writes with a current If-Match (200, 204) and refuses a stale one with 412 naming the current version, writing nothing', async () => {
    const record = await create(kind);
    const ok = await call('PATCH', record.url, owner, { payload: kind.patch, headers: { 'if-match': record.etag } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers.etag).toBe('"2"');
    for (const [method, payload] of [['PATCH', kind.patch], ['PUT', kind.put()], ['DELETE', undefined]] as const) {
      const stale = await call(method, record.url, owner, { headers: { 'if-match': record.etag }, ...(payload ? { payload } : {}) });
      expect(stale.statusCode, `${method} ${stale.body}`).toBe(412);
      expect(stale.headers['content-type']).toContain('application/problem+json');
      expect(stale.headers.etag).toBe('"2"');
      expect(stale.json()).toMatchObject({
        status: 412,
        code: 'request.precondition_failed',
        detail: `The ${kind.name} changed since you read it: it is now version 2 (ETag "2"). Read it again, and send your change with If-Match: "2" if it still applies.`,
      });
    }
    expect((await call('GET', record.url, owner)).headers.etag).toBe('"2"');
    // A list, `*`, and a weak tag (If-Match compares strongly).
    expect((await call('PATCH', record.url, owner, { payload: kind.patch, headers: { 'if-match': '"7", "2"' } })).statusCode).toBe(200);
    expect((await call('PATCH', record.url, owner, { payload: kind.patch, headers: { 'if-match': 'W/"3"' } })).statusCode).toBe(412);
    expect((await call('PATCH', record.url, owner, { payload: kind.patch, headers: { 'if-match': '*' } })).statusCode).toBe(200);
    const malformed = await call('PATCH', record.url, owner, { payload: kind.patch, headers: { 'if-match': '4' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('request.invalid_precondition');
    // Without If-Match: unconditional, as before.
    expect((await call('PATCH', record.url, owner, { payload: kind.patch })).statusCode).toBe(200);
    const deleted = await call('DELETE', record.url, owner, { headers: { 'if-match': '"5"' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await call('GET', record.url, owner)).statusCode).toBe(404);
  });

  it('answers If-None-Match with the current ETag with 304 and no body; an older one gets the record', async () => {
    const record = await create(kind);
    const same = await call('GET', record.url, owner, { headers: { 'if-none-match': record.etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(record.etag);
    expect((await call('GET', record.url, owner, { headers: { 'if-none-match': `"9", W/${record.etag}` } })).statusCode).toBe(304);
    const head = await t.app.inject({ method: 'HEAD', url: record.url, headers: { ...owner.headers, 'if-none-match': record.etag } });
    expect(head.statusCode).toBe(304);
    await call('PATCH', record.url, owner, { payload: kind.patch });
    const changed = await call('GET', record.url, owner, { headers: { 'if-none-match': record.etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().version).toBe(2);
  });

  it('gives a stranger the same 403 with or without the headers (never a 304 or 412)', async () => {
    const record = await create(kind);
    const answer = async (method: Method, url: string, headers: Record<string, string>, payload?: object) => {
      const res = await call(method, url, stranger, { headers, ...(payload ? { payload } : {}) });
      return { status: res.statusCode, code: res.json().code as string };
    };
    const read = await answer('GET', record.url, {});
    expect(read).toEqual({ status: 403, code: kind.refused });
    for (const headers of [{ 'if-none-match': record.etag }, { 'if-none-match': '*' }]) expect(await answer('GET', record.url, headers)).toEqual(read);
    for (const [method, payload] of [['PATCH', kind.patch], ['PUT', kind.put()], ['DELETE', undefined]] as const) {
      const plain = await answer(method, record.url, {}, payload);
      expect(plain.status).toBe(403);
      for (const headers of [{ 'if-match': record.etag }, { 'if-match': '"99"' }, { 'if-match': '*' }]) {
        expect(await answer(method, record.url, headers, payload), `${method} ${JSON.stringify(headers)}`).toEqual(plain);
      }
    }
    const missing = `${record.collection}/${randomUUID()}`;
    expect((await call('GET', missing, owner, { headers: { 'if-none-match': '*' } })).statusCode).toBe(404);
    expect((await call('PATCH', missing, owner, { payload: kind.patch, headers: { 'if-match': '"1"' } })).statusCode).toBe(404);
    expect((await call('GET', record.url, owner)).headers.etag).toBe('"1"');
  });

  it('lets exactly one of two parallel PATCHes with the same If-Match win (200), the other gets 412', async () => {
    const record = await create(kind);
    const results = await Promise.all(
      [{ notes: 'device A' }, { notes: 'device B' }].map((patch) => call('PATCH', record.url, owner, { payload: patch, headers: { 'if-match': record.etag } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.statusCode === 200)!;
    const current = await call('GET', record.url, owner);
    expect(current.json().notes).toBe(winner.json().notes);
    expect(current.headers.etag).toBe('"2"');
  });

  it('keeps a client-made id: a retried create answers 200 with the record, another body or another user is a 409, a bad id a 400', async () => {
    const collection = await kind.collection(owner);
    const id = randomUUID();
    const first = await call('POST', collection, owner, { payload: { id, ...kind.body() } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().id).toBe(id);
    const again = await call('POST', collection, owner, { payload: { ...kind.body(), id } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id, version: 1 });
    expect(again.headers.etag).toBe('"1"');
    const other = await call('POST', collection, owner, { payload: { id, ...kind.otherBody() } });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('request.id_conflict');
    const strangerCollection = await kind.collection(stranger);
    const byStranger = await call('POST', strangerCollection, stranger, { payload: { id, ...kind.body() } });
    expect(byStranger.statusCode).toBe(409);
    expect(byStranger.json().code).toBe('request.id_conflict');
    const bad = await call('POST', collection, owner, { payload: { id: 'not-a-uuid', ...kind.body() } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ pointer: '/id', in: 'body' });
    // After a change the retry still answers the record, as it is now.
    await call('PATCH', `${collection}/${id}`, owner, { payload: kind.patch });
    const late = await call('POST', collection, owner, { payload: { id, ...kind.body() } });
    expect(late.statusCode).toBe(200);
    expect(late.json().version).toBe(2);
  });

  it('creates one record from parallel identical creates with the same id', async () => {
    const collection = await kind.collection(owner);
    const id = randomUUID();
    const results = await Promise.all([1, 2, 3].map(() => call('POST', collection, owner, { payload: { id, ...kind.body() } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.json().id))).toEqual(new Set([id]));
    const table = { boat: 'boats', 'gear setup': 'gear_setups', 'fishing session': 'fishing_sessions', 'log entry': 'fishing_log_entries', catch: 'catches' }[kind.name]!;
    const rows = await t.database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id]);
    expect(rows.rows[0].n).toBe(1);
  });
});

describe('versions of what a record shows', () => {
  it('an entry’s version follows its catches, a session’s its entries, so a cached copy is never answered 304 when stale', async () => {
    const session = await create(KINDS[2]!);
    const entry = await call('POST', '/api/fishinglog/entries', owner, { payload: { ...entryBody(), sessionId: session.id } });
    const sessionNow = await call('GET', session.url, owner, { headers: { 'if-none-match': session.etag } });
    expect(sessionNow.statusCode).toBe(200);
    expect(sessionNow.json().entries).toHaveLength(1);
    const entryUrl = `/api/fishinglog/entries/${entry.json().id as string}`;
    const entryTag = entry.headers.etag as string;
    const caught = await call('POST', `${entryUrl}/catches`, owner, { payload: KINDS[4]!.body() });
    expect(caught.statusCode).toBe(201);
    const entryNow = await call('GET', entryUrl, owner, { headers: { 'if-none-match': entryTag } });
    expect(entryNow.statusCode).toBe(200);
    expect(entryNow.json().catches).toHaveLength(1);
    // Deleting the session detaches the entry (a foreign key's SET NULL): a new version of it too.
    const beforeDetach = entryNow.headers.etag as string;
    expect((await call('DELETE', session.url, owner)).statusCode).toBe(204);
    const detached = await call('GET', entryUrl, owner, { headers: { 'if-none-match': beforeDetach } });
    expect(detached.statusCode).toBe(200);
    expect(detached.json().sessionId).toBeNull();
  });

  it('deletes a session while one of its entries is changed without a deadlock (both take the owner’s lock first)', async () => {
    for (let round = 0; round < 5; round++) {
      const session = await create(KINDS[2]!);
      const entry = await call('POST', '/api/fishinglog/entries', owner, { payload: { ...entryBody(), sessionId: session.id } });
      const entryUrl = `/api/fishinglog/entries/${entry.json().id as string}`;
      const [deleted, patched] = await Promise.all([call('DELETE', session.url, owner), call('PATCH', entryUrl, owner, { payload: { title: `round ${round}` } })]);
      expect([deleted.statusCode, patched.statusCode], `${deleted.body} ${patched.body}`).toEqual([204, 200]);
      expect((await call('GET', entryUrl, owner)).json()).toMatchObject({ sessionId: null, title: `round ${round}` });
    }
  });

  it('deletes a gear setup while an entry with a catch logged with it is deleted or changed, without a deadlock', async () => {
    for (let round = 0; round < 5; round++) {
      const setup = await create(KINDS[1]!);
      const collection = await newEntry(owner);
      const entryUrl = collection.replace(/\/catches$/, '');
      const caught = await call('POST', collection, owner, { payload: { ...KINDS[4]!.body(), gearSetupId: setup.id } });
      expect(caught.statusCode, caught.body).toBe(201);
      const catchUrl = `${collection}/${caught.json().id as string}`;
      const [deleted, change] = await Promise.all([
        call('DELETE', setup.url, owner),
        round % 2 === 0 ? call('DELETE', entryUrl, owner) : call('PATCH', catchUrl, owner, { payload: { notes: `round ${round}` } }),
      ]);
      expect([deleted.statusCode, change.statusCode], `${deleted.body} ${change.body}`).toEqual([204, round % 2 === 0 ? 204 : 200]);
    }
  });
});
