import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { until } from '../../../test/until.js';
import { banUser, befriend, catchPhotosUrl, createCatch, createEntry, createStaff, createUser, jpegWithGps, sendPhoto, WALLEYE, PIKE, type TestUser } from '../../../test/factories.js';
import { purgeTombstones } from './sync.service.js';
import { serviceDeps } from '../../core/service-deps.js';
import { upsertFromClaims } from '../users/users.repository.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  jo = await createUser(t);
  sam = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

type Raw = { id: string } & Record<string, unknown>;
type TableChanges = { created: Raw[]; updated: Raw[]; deleted: string[] };
type PullAnswer = { changes: Record<string, TableChanges>; timestamp: number; experimentalStrategy?: string };

async function pull(user: TestUser, lastPulledAt: number | null): Promise<PullAnswer> {
  const res = await t.app.inject({ method: 'GET', url: `/api/sync/pull?lastPulledAt=${lastPulledAt ?? 'null'}`, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const push = (user: TestUser, changes: Record<string, Partial<TableChanges>>, lastPulledAt = 1) =>
  t.app.inject({
    method: 'POST',
    url: `/api/sync/push?lastPulledAt=${lastPulledAt}`,
    headers: user.headers,
    payload: { changes: Object.fromEntries(Object.entries(changes).map(([name, set]) => [name, { created: [], updated: [], deleted: [], ...set }])) },
  });

const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });

/** A call without a token: 401 problem+json saying how to send one. */
function expectAnonymousRefused(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string }) {
  expect(res.statusCode, res.body).toBe(401);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(res.json()).toMatchObject({ status: 401, code: 'auth.token_missing', detail: expect.stringContaining('Authorization: Bearer <id_token>') });
}
const ids = (records: Raw[]) => records.map((r) => r.id).sort();

/** A device's records: a session, an entry in it and catches on it, with ids made on the device. */
function offlineTrip(catchCount = 3) {
  const at = Date.parse('2026-06-01T05:00:00Z');
  const session = { id: randomUUID(), started_at: at, ended_at: at + 3_600_000, time_zone: 'America/Chicago', latitude: 46.2, longitude: -93.6, water_body: 'Mille Lacs', state_code: 'US-MN', participants: '["Sam"]', notes: 'Calm', weather_summary: null, water_summary: null };
  const entry = { id: randomUUID(), session_id: session.id, title: 'Evening bite', occurred_at: at, time_zone: 'America/Chicago', latitude: 46.2, longitude: -93.6, water_body: 'Mille Lacs', state_code: 'US-MN', sky: 'PartlyCloudy', water_temperature_c: 18.5, visibility: 'Friends', share_exact_location: false, notes: null };
  const caught = Array.from({ length: catchCount }, (_, i) => ({
    id: randomUUID(),
    entry_id: entry.id,
    species_id: WALLEYE,
    length_cm: 40 + i,
    weight_kg: null,
    count: 1,
    released: true,
    caught_at: at + i * 60_000,
    bait: null,
    lure: 'Jig',
    lure_item_id: null,
    gear_setup_id: null,
    photo_urls: '[]',
    notes: null,
    latitude: null,
    longitude: null,
  }));
  return { session, entry, catches: caught };
}

describe('pull', () => {
  it('answers the protocol: the caller’s own records (in updated, for sendCreatedAsUpdated), the shared tables, friends; none of another angler', async () => {
    const mine = await createEntry(t, jo, { title: 'Mine' });
    const caught = await createCatch(t, jo, mine, { speciesId: PIKE, lengthCm: 80 });
    const theirs = await createEntry(t, sam, { title: 'Theirs', visibility: 'Public' });
    await befriend(t, jo, sam);
    const first = await pull(jo, null);
    expect(first.timestamp).toEqual(expect.any(Number));
    expect(Object.keys(first.changes).sort()).toEqual(
      ['boats', 'brands', 'catches', 'entries', 'friends', 'gear_items', 'gear_setups', 'lookup_values', 'personal_best_criteria', 'photos', 'profiles', 'sessions', 'species'].sort(),
    );
    expect(first.changes.entries!.updated.map((e) => e.id)).toContain(mine.id);
    expect(first.changes.entries!.updated.map((e) => e.id)).not.toContain(theirs.id);
    expect(first.changes.entries!.created).toEqual([]);
    expect(first.changes.catches!.updated).toEqual([
      expect.objectContaining({ id: caught.id, entry_id: mine.id, species_id: PIKE, length_cm: 80, released: expect.any(Boolean), photo_urls: '[]', version: 1, caught_at: expect.any(Number) }),
    ]);
    expect(first.changes.catches!.updated[0]).not.toHaveProperty('_status');
    expect(first.changes.species!.updated.length).toBeGreaterThan(10);
    expect(first.changes.species!.updated.find((s) => s.id === WALLEYE)).toMatchObject({ common_name: 'Walleye', scientific_name: 'Sander vitreus' });
    expect(first.changes.friends!.updated).toEqual([{ id: sam.userId, username: sam.username, display_name: null }]);
    // Nothing changed since: an empty pull (only rows at the cursor's boundary may come again).
    const again = await pull(jo, first.timestamp);
    expect(again.changes.entries!.updated.filter((e) => e.id !== mine.id)).toEqual([]);
    expect(again.changes.species!.updated).toEqual([]);
    expect(again.timestamp).toBeGreaterThanOrEqual(first.timestamp);
  });

  it("brings a friend's new username (renamed at the identity provider) to the friends table; their sign-in changes nothing", async () => {
    const ann = await createUser(t);
    const bo = await createUser(t);
    await befriend(t, ann, bo);
    const first = await pull(ann, null);
    expect(first.changes.friends!.updated).toEqual([{ id: bo.userId, username: bo.username, display_name: null }]);
    // A sign-in with the same claims: not a change of the friends table.
    await upsertFromClaims(t.database.db, { sub: bo.sub, username: bo.username, email: undefined });
    const signedIn = await pull(ann, first.timestamp);
    expect(signedIn.changes.friends!.updated.filter((f) => f.username !== bo.username)).toEqual([]);
    const renamed = `${bo.username}_renamed`;
    await upsertFromClaims(t.database.db, { sub: bo.sub, username: renamed, email: undefined });
    const after = await pull(ann, signedIn.timestamp);
    expect(after.changes.friends!.updated).toEqual([{ id: bo.userId, username: renamed, display_name: null }]);
  });

  it('brings what REST changed and deleted since the last pull (tombstones), and nothing twice once past it', async () => {
    const entry = await createEntry(t, jo, { title: 'Incremental' });
    const a = await createCatch(t, jo, entry, { speciesId: WALLEYE, lengthCm: 50 });
    const b = await createCatch(t, jo, entry, { speciesId: WALLEYE, lengthCm: 51 });
    const base = await pull(jo, null);
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/fishinglog/entries/${entry.id}/catches/${a.id}`, headers: jo.headers, payload: { notes: 'Tagged fish' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}/catches/${b.id}`, headers: jo.headers })).statusCode).toBe(204);
    const next = await pull(jo, base.timestamp);
    expect(next.changes.catches!.created).toEqual([]);
    // (Records changed at the cursor's boundary may come again: WatermelonDB takes them as they are.)
    expect(next.changes.catches!.updated).toContainEqual(expect.objectContaining({ id: a.id, notes: 'Tagged fish', version: 2 }));
    expect(ids(next.changes.catches!.updated)).not.toContain(b.id);
    expect(next.changes.catches!.deleted).toEqual([b.id]);
    // The entry's representation changed too (its catches): it comes as updated.
    expect(ids(next.changes.entries!.updated)).toContain(entry.id);
    // Another angler's pull never sees jo's deletions.
    expect((await pull(sam, base.timestamp)).changes.catches!.deleted).toEqual([]);
  });

  it('never skips a change whose transaction was open during a pull (the cursor is the snapshot’s xmin, not a clock or a sequence)', async () => {
    const entry = await createEntry(t, jo, { title: 'Slow writer' });
    const other = await createEntry(t, jo, { title: 'Quick writer' });
    const client = await t.database.owner.pool.connect();
    try {
      await client.query('BEGIN');
      // The write's transaction id is taken now, before the pull; it commits after the pull.
      await client.query(`INSERT INTO catches (id, entry_id, owner_id, species_id, released, caught_at) VALUES ($1, $2, $3, $4, true, now())`, [
        '0193b7a4-0000-7000-8000-00000000aaaa',
        entry.id,
        jo.userId,
        WALLEYE,
      ]);
      const during = await pull(jo, null);
      expect(ids(during.changes.catches!.updated)).not.toContain('0193b7a4-0000-7000-8000-00000000aaaa');
      // Another transaction commits after the slow one started: its change is in the pull, the cursor stays below the slow one.
      const quick = await createCatch(t, jo, other, { speciesId: WALLEYE, lengthCm: 33 });
      const meanwhile = await pull(jo, during.timestamp);
      expect(ids(meanwhile.changes.catches!.updated)).toContain(quick.id);
      await client.query('COMMIT');
      const after = await pull(jo, meanwhile.timestamp);
      expect(ids(after.changes.catches!.updated)).toContain('0193b7a4-0000-7000-8000-00000000aaaa');
    } finally {
      client.release();
    }
  });

  it('costs index look-ups only when nothing changed (EXPLAIN of the head\'s probes of the owner\'s tables and tombstones)', async () => {
    await pull(jo, null);
    const plan = async (query: string) => (await t.database.owner.pool.query(`EXPLAIN (FORMAT JSON) ${query}`, [jo.userId])).rows[0]['QUERY PLAN'][0].Plan as Record<string, unknown>;
    const nodes = (p: Record<string, unknown>): string[] => [String(p['Node Type']), ...((p.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];
    await t.database.owner.pool.query('SET enable_seqscan = off'); // tiny test tables: ask whether the index can serve it at all
    try {
      // The head's probe of a table (sync.repository.ts newestAtOrAfter): the owner's newest change, one step of (owner, change_xid).
      for (const table of ['catches', 'fishing_log_entries', 'fishing_sessions', 'boats', 'gear_setups']) {
        const p = await plan(`SELECT change_xid FROM ${table} WHERE owner_id = $1 ORDER BY change_xid DESC LIMIT 1`);
        expect(nodes(p).join(','), table).toMatch(/Index/);
        expect(JSON.stringify(p)).toContain(`${table}_owner_change_xid_idx`);
      }
      const tomb = await plan(`SELECT change_xid FROM sync_tombstones WHERE owner_id = $1 ORDER BY change_xid DESC LIMIT 1`);
      expect(JSON.stringify(tomb)).toContain('sync_tombstones_owner_xid_idx');
    } finally {
      await t.database.owner.pool.query('RESET enable_seqscan');
    }
  });

  it('refuses a malformed cursor (400) and an anonymous caller (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sync/pull?lastPulledAt=yesterday', headers: jo.headers })).json()).toMatchObject({ status: 400, code: 'request.validation_failed' });
    expectAnonymousRefused(await t.app.inject({ method: 'GET', url: '/api/sync/pull' }));
  });
});

describe('paged pull', () => {
  it('gives a big first sync in pages (limit, hasMore, next) that add up to the whole pull; what changes meanwhile comes with the next pull', async () => {
    const angler = await createUser(t);
    const entry = await createEntry(t, angler, { title: 'Many catches' });
    for (let i = 0; i < 12; i++) await createCatch(t, angler, entry, { speciesId: WALLEYE, lengthCm: 30 + i });
    const whole = await pull(angler, null);
    const seen = new Map<string, string[]>();
    let next: string | undefined;
    let pages = 0;
    let last: PullAnswer & { hasMore?: boolean; next?: string };
    do {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync/pull?lastPulledAt=null&limit=40${next ? `&next=${next}` : ''}`, headers: angler.headers });
      expect(res.statusCode, res.body).toBe(200);
      last = res.json();
      pages++;
      const count = Object.values(last.changes).reduce((n, set) => n + set.updated.length, 0);
      if (last.hasMore) {
        expect(count).toBe(40);
        expect(last.timestamp).toBe(1);
        if (pages === 1) await createCatch(t, angler, entry, { speciesId: PIKE, lengthCm: 99 }); // while paging
      }
      for (const [table, set] of Object.entries(last.changes)) seen.set(table, [...(seen.get(table) ?? []), ...set.updated.map((r) => r.id)]);
      next = last.next;
    } while (last.hasMore);
    expect(pages).toBeGreaterThan(2);
    for (const [table, set] of Object.entries(whole.changes)) expect([...new Set(seen.get(table))].sort(), table).toEqual(expect.arrayContaining(ids(set.updated)));
    expect(seen.get('catches')!.length).toBeGreaterThanOrEqual(12);
    // The pages end with the first page's cursor: the catch added while paging comes with the next pull.
    const after = await pull(angler, last.timestamp);
    expect(after.changes.catches!.updated.map((c) => c.length_cm)).toContain(99);
    const bad = await t.app.inject({ method: 'GET', url: '/api/sync/pull?limit=5&next=bm90LWEtdG9rZW4', headers: angler.headers });
    expect(bad.json()).toMatchObject({ status: 400, code: 'sync.invalid_page_token' });
  });
});

describe('push', () => {
  it('creates a trip made offline with the device’s ids, shows it in REST at once, and a retried push creates nothing twice', async () => {
    const trip = offlineTrip(3);
    const changes = { sessions: { created: [trip.session] }, entries: { created: [trip.entry] }, catches: { created: trip.catches } };
    const res = await push(jo, changes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 5, updated: 0, deleted: 0 });
    const entry = await get(jo, `/api/fishinglog/entries/${trip.entry.id}`);
    expect(entry.json()).toMatchObject({
      id: trip.entry.id,
      sessionId: trip.session.id,
      title: 'Evening bite',
      visibility: 'Friends',
      weather: { sky: 'PartlyCloudy' },
      water: { temperatureC: 18.5 },
      catchCount: 3,
    });
    expect(entry.json().catches.map((c: { id: string }) => c.id).sort()).toEqual(trip.catches.map((c) => c.id).sort());
    expect((await get(jo, `/api/fishinglog/sessions/${trip.session.id}`)).json()).toMatchObject({ participants: ['Sam'], location: { waterBody: 'Mille Lacs' } });
    // The answer was lost: the device pushes the same changes again.
    const retried = await push(jo, changes);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect((await get(jo, `/api/fishinglog/entries/${trip.entry.id}`)).json().catchCount).toBe(3);
  });

  it('updates with the version the device pulled, and refuses a stale one as a conflict (409 sync.conflict, nothing written)', async () => {
    const trip = offlineTrip(1);
    expect((await push(jo, { sessions: { created: [trip.session] }, entries: { created: [trip.entry] }, catches: { created: trip.catches } })).statusCode).toBe(200);
    const pulled = (await pull(jo, null)).changes.catches!.updated.find((c) => c.id === trip.catches[0]!.id)!;
    const ok = await push(jo, { catches: { updated: [{ ...pulled, weight_kg: 1.25 }] } });
    expect(ok.json()).toEqual({ created: 0, updated: 1, deleted: 0 });
    expect((await get(jo, `/api/fishinglog/entries/${trip.entry.id}/catches/${pulled.id}`)).json()).toMatchObject({ weightKg: 1.25, version: 2 });
    // Another device still has version 1: its change of the notes is refused whole, with the boat it made in the same push.
    const boat = { id: randomUUID(), name: 'Skiff' };
    const stale = await push(jo, { boats: { created: [boat] }, catches: { updated: [{ ...pulled, notes: 'From device B' }] } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'sync.conflict', errors: [{ pointer: '/changes/catches/updated/0/version' }] });
    expect(stale.json().detail).toContain(pulled.id);
    expect((await get(jo, `/api/gear/boats/${boat.id}`)).statusCode).toBe(404);
    expect((await get(jo, `/api/fishinglog/entries/${trip.entry.id}/catches/${pulled.id}`)).json()).toMatchObject({ notes: null, weightKg: 1.25 });
  });

  it('applies the module’s rules to every record: one refused record writes nothing and is named (table, id, field)', async () => {
    const trip = offlineTrip(2);
    const cases: [string, Record<string, Partial<TableChanges>>, number, string, string][] = [
      ['a too long title', { entries: { created: [{ ...trip.entry, title: 'x'.repeat(201) }] } }, 400, 'request.validation_failed', '/changes/entries/created/0/title'],
      ['a visibility not allowed', { entries: { created: [{ ...trip.entry, visibility: 'Everyone' }] } }, 400, 'request.validation_failed', '/changes/entries/created/0/visibility'],
      ['a NUL byte', { entries: { created: [trip.entry] }, catches: { created: [trip.catches[0]!, { ...trip.catches[1]!, notes: 'a\u0000b' }] } }, 400, 'request.validation_failed', '/changes/catches/created/1/notes'],
      ['an unknown species', { entries: { created: [{ ...trip.entry, session_id: null }] }, catches: { created: [{ ...trip.catches[0]!, species_id: randomUUID() }] } }, 400, '', '/changes/catches/created/0'],
    ];
    for (const [what, changes, status, code, pointer] of cases) {
      const res = await push(jo, changes);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      const problem = res.json();
      if (code) expect(problem.code, what).toBe(code);
      expect(problem.errors.map((e: { pointer: string }) => e.pointer).join(' '), what).toContain(pointer);
      expect((await get(jo, `/api/fishinglog/entries/${trip.entry.id}`)).statusCode, what).toBe(404);
    }
  });

  it('refuses a catch on another angler’s entry (403, nothing written) and a change to another angler’s record', async () => {
    const theirs = await createEntry(t, sam, { title: "Sam's" });
    const boat = { id: randomUUID(), name: 'Mine' };
    const res = await push(jo, { boats: { created: [boat] }, catches: { created: [{ ...offlineTrip(1).catches[0]!, entry_id: theirs.id }] } });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().detail).toMatch(/catches record .* \(created\) was refused/);
    expect((await get(jo, `/api/gear/boats/${boat.id}`)).statusCode).toBe(404);
    const samCatch = await createCatch(t, sam, theirs, { speciesId: PIKE });
    const stolen = await push(jo, { catches: { updated: [{ ...offlineTrip(1).catches[0]!, id: samCatch.id, entry_id: theirs.id, version: 1 }] }, boats: { created: [boat] } });
    expect(stolen.statusCode, stolen.body).toBe(403);
    expect(stolen.json()).toMatchObject({ status: 403, code: 'fishinglog.not_entry_owner', errors: [{ pointer: '/changes/catches/updated/0' }] });
    expect(stolen.json().detail).toContain(`The catches record ${samCatch.id} (updated) was refused`);
    expect((await get(jo, `/api/gear/boats/${boat.id}`)).statusCode).toBe(404);
    const deleting = await push(jo, { catches: { deleted: [samCatch.id] } });
    expect(deleting.statusCode, deleting.body).toBe(403);
    expect(deleting.json()).toMatchObject({ status: 403, code: 'fishinglog.not_entry_owner', errors: [{ pointer: '/changes/catches/deleted/0' }] });
    expect(deleting.json().detail).toContain(`The catches record ${samCatch.id} (deleted) was refused`);
    expect((await get(sam, `/api/fishinglog/entries/${theirs.id}/catches/${samCatch.id}`)).json()).toMatchObject({ id: samCatch.id, version: 1 });
  });

  it('refuses an anonymous push (401), and a banned or a suspended angler’s push (403 auth.banned, nothing written)', async () => {
    const trip = offlineTrip(1);
    const changes = { sessions: { created: [trip.session] }, entries: { created: [trip.entry] }, catches: { created: trip.catches } };
    expectAnonymousRefused(
      await t.app.inject({ method: 'POST', url: '/api/sync/push?lastPulledAt=1', payload: { changes: { catches: { created: trip.catches, updated: [], deleted: [] } } } }),
    );
    const staff = await createStaff(t, 'Users.Ban');
    const banned = await createUser(t);
    const suspended = await createUser(t);
    const permanent = await banUser(t, staff.admin, banned, { durationDays: null, reason: 'Poaching' });
    const weekly = await banUser(t, staff.admin, suspended, { durationDays: 7, reason: 'Spamming the feed' });
    for (const [user, ban, until] of [
      [banned, permanent, 'permanently'],
      [suspended, weekly, `until ${weekly.endsAt}`],
    ] as const) {
      const res = await push(user, changes);
      expect(res.statusCode, res.body).toBe(403);
      expect(String(res.headers['content-type'])).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 403, code: 'auth.banned' });
      expect(res.json().detail).toContain(`Your account is banned ${until}.`);
      expect(res.json().detail).toContain(`POST /api/bans/${ban.id}/appeal`);
    }
    expect((await t.database.owner.pool.query('SELECT id FROM fishing_sessions WHERE id = $1', [trip.session.id])).rowCount).toBe(0);
  });

  it('deletes children before parents, ignores what is gone already, and refuses writes to pulled-only tables', async () => {
    const trip = offlineTrip(2);
    await push(jo, { sessions: { created: [trip.session] }, entries: { created: [trip.entry] }, catches: { created: trip.catches } });
    const res = await push(jo, { entries: { deleted: [trip.entry.id] }, catches: { deleted: [...trip.catches.map((c) => c.id), randomUUID()] } });
    expect(res.json()).toEqual({ created: 0, updated: 0, deleted: 3 });
    expect((await get(jo, `/api/fishinglog/entries/${trip.entry.id}`)).statusCode).toBe(404);
    const readOnly = await push(jo, { species: { created: [{ id: randomUUID(), common_name: 'Nessie' }] } });
    expect(readOnly.json()).toMatchObject({ status: 400, code: 'sync.read_only_table', errors: [{ pointer: '/changes/species/created/0' }] });
  });

  it('accepts the photo of a catch pushed with the device’s id (the EXIF rules hold)', async () => {
    const trip = offlineTrip(1);
    await push(jo, { sessions: { created: [trip.session] }, entries: { created: [trip.entry] }, catches: { created: trip.catches } });
    const res = await sendPhoto(t, jo, catchPhotosUrl(trip.entry.id, trip.catches[0]!.id), await jpegWithGps());
    expect(res.statusCode, res.body).toBe(201);
    const photo = (await pull(jo, null)).changes.photos!.updated.find((p) => p.record_id === trip.catches[0]!.id);
    expect(photo).toMatchObject({ kind: 'Catch', display_url: `/api/photos/${res.json().id}/display` });
  });
});

describe('tombstones', () => {
  it('are purged after the retention; a device that pulled before them re-syncs fully (experimentalStrategy: replacement)', async () => {
    const angler = await createUser(t);
    const entry = await createEntry(t, angler, { title: 'Kept' });
    const gone = await createEntry(t, angler, { title: 'Gone' });
    const old = await pull(angler, null);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${gone.id}`, headers: angler.headers })).statusCode).toBe(204);
    expect((await pull(angler, old.timestamp)).changes.entries!.deleted).toEqual([gone.id]);
    const services = serviceDeps(t);
    expect(await purgeTombstones(services, 90)).toBe(0);
    expect(await purgeTombstones(services, 90, new Date(Date.now() + 91 * 86_400_000))).toBeGreaterThanOrEqual(1);
    // A pull's cursor is its snapshot's xmin, which is the server's: a transaction open since before the purge, in any
    // database (another test file's, on the run's server), holds it at or below the purge horizon, and every pull until
    // it ends is a replacement. Only once none is left is the re-sync's cursor one that goes on incrementally.
    await until('no transaction older than the purge to be open on the server', async () => {
      const { rows } = await t.database.pool.query<{ past: boolean }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) > purged_through AS past FROM sync_horizon WHERE id = 1');
      return rows[0]?.past || undefined;
    });
    const resync = await pull(angler, old.timestamp);
    expect(resync.experimentalStrategy).toBe('replacement');
    expect(resync.changes.entries!.deleted).toEqual([]);
    expect(ids(resync.changes.entries!.updated)).toEqual([entry.id]);
    // A device that pulled after the purge goes on incrementally.
    expect((await pull(angler, resync.timestamp)).experimentalStrategy).toBeUndefined();
  });
});
