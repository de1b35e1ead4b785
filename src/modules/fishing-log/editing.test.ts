import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { befriend, createUser, MISSING_ID, PIKE, WALLEYE, type TestUser, FISH_OHIO, inches, SPECIES } from '../../../test/factories.js';

/**
 * Catches and sessions are editable (GET/PUT/PATCH/DELETE), personal bests follow every change in
 * the same transaction, and PATCH is a JSON Merge Patch on entries, catches and sessions.
 */

let t: TestApp;
let owner: TestUser;
let friend: TestUser;
let stranger: TestUser;
let admin: TestUser;

type Headers = Record<string, string>;
const send = (user: TestUser | undefined, method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST', url: string, payload?: unknown, headers: Headers = {}) =>
  t.app.inject({ method, url, headers: { ...(user?.headers ?? {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const MERGE = { 'content-type': 'application/merge-patch+json' };
const patch = (user: TestUser, url: string, body: unknown) => send(user, 'PATCH', url, JSON.stringify(body), MERGE);

const entryBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Dawn on Mille Lacs',
  occurredAt: '2026-06-01T05:00:00Z',
  timeZone: 'America/Chicago',
  location: { latitude: 46.2345, longitude: -93.6543, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
  weather: { airTemperatureC: 18, sky: 'clear' },
  notes: 'Slip bobber on the flats',
  visibility: 'Public',
  ...overrides,
});

async function newEntry(user: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await send(user, 'POST', '/api/fishinglog/entries', entryBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; [key: string]: unknown };
}

async function newCatch(user: TestUser, entryId: string, overrides: Record<string, unknown> = {}) {
  const res = await send(user, 'POST', `/api/fishinglog/entries/${entryId}/catches`, { speciesId: WALLEYE, lengthCm: 60, weightKg: 2.5, released: false, ...overrides });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; personalBests: { criterionId: string; catchId: string; kind: string }[]; masterAngler: { eligible: boolean; programs: { programId: string }[] }; [key: string]: unknown };
}

async function newCriterion(user: TestUser, payload: Record<string, unknown>) {
  const res = await send(user, 'POST', '/api/personalbest/me/criteria', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function criterion(user: TestUser, id: string) {
  const res = await send(user, 'GET', '/api/personalbest/me/criteria?pageSize=100');
  return (res.json() as { id: string; currentBest: { catchId: string; value: number } | null }[]).find((c) => c.id === id)!;
}

async function ultimate(user: TestUser) {
  const res = await send(user, 'GET', `/api/userprofile/${user.userId}/ultimate-pb`);
  return res.statusCode === 200 ? (res.json() as { catch: { id: string }; value: number }) : null;
}

const catchUrl = (entryId: string, catchId: string) => `/api/fishinglog/entries/${entryId}/catches/${catchId}`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  friend = await createUser(t);
  stranger = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
  await befriend(t, owner, friend);
});
afterAll(async () => {
  await t?.close();
});

describe('GET/PUT/PATCH/DELETE /api/fishinglog/entries/{entryId}/catches/{catchId}', () => {
  it('shows a catch as far as its entry is visible, blurred for others; 403 when not shared, 404 when absent or of another entry', async () => {
    const entry = await newEntry(owner, { visibility: 'Friends' });
    const other = await newEntry(owner);
    const fish = await newCatch(owner, entry.id, { location: { latitude: 46.234567, longitude: -93.654321 } });

    const own = await send(owner, 'GET', catchUrl(entry.id, fish.id));
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: fish.id, entryId: entry.id, lengthCm: 60, weightKg: 2.5, location: { latitude: 46.234567, longitude: -93.654321, precision: 'Exact' } });

    const seen = await send(friend, 'GET', catchUrl(entry.id, fish.id));
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: fish.id, gearSetupId: null, location: { latitude: 46.23, longitude: -93.65, precision: 'Approximate' } });

    for (const user of [stranger, admin]) {
      const refused = await send(user, 'GET', catchUrl(entry.id, fish.id));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'fishinglog.entry_not_visible', status: 403 });
    }
    const elsewhere = await send(owner, 'GET', catchUrl(other.id, fish.id));
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ code: 'fishinglog.catch_not_found' });
    expect((await send(owner, 'GET', catchUrl(entry.id, MISSING_ID))).statusCode).toBe(404);
    expect((await send(undefined, 'GET', catchUrl(entry.id, fish.id))).statusCode).toBe(401);
  });

  it('lets only the owner replace, patch or delete a catch (403 for a friend, a stranger, an admin; 404 through another entry)', async () => {
    const entry = await newEntry(owner);
    const other = await newEntry(owner);
    const fish = await newCatch(owner, entry.id);
    for (const user of [friend, stranger, admin]) {
      const put = await send(user, 'PUT', catchUrl(entry.id, fish.id), { speciesId: WALLEYE, released: true, count: 1, caughtAt: '2026-06-01T06:00:00Z' });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toMatchObject({ code: 'fishinglog.not_entry_owner' });
      expect((await patch(user, catchUrl(entry.id, fish.id), { released: true })).statusCode).toBe(403);
      expect((await send(user, 'DELETE', catchUrl(entry.id, fish.id))).statusCode).toBe(403);
    }
    expect((await patch(owner, catchUrl(other.id, fish.id), { released: true })).statusCode).toBe(404);
    expect((await send(owner, 'DELETE', catchUrl(other.id, fish.id))).statusCode).toBe(404);
    expect((await send(owner, 'DELETE', catchUrl(entry.id, MISSING_ID))).statusCode).toBe(404);
    expect((await send(owner, 'GET', catchUrl(entry.id, fish.id))).json()).toMatchObject({ released: false, lengthCm: 60 });
  });

  it('replaces a whole catch with PUT: omitted optional fields are emptied, a missing required field is a 400 naming it', async () => {
    const entry = await newEntry(owner);
    const fish = await newCatch(owner, entry.id, { bait: 'leech', notes: 'nice one' });
    const missing = await send(owner, 'PUT', catchUrl(entry.id, fish.id), { speciesId: PIKE, released: true, count: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ pointer: '/caughtAt', in: 'body', detail: 'is required' }]);

    const res = await send(owner, 'PUT', catchUrl(entry.id, fish.id), { speciesId: PIKE, lengthCm: 80, released: true, count: 1, caughtAt: '2026-06-01T07:00:00Z' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: fish.id,
      species: { id: PIKE },
      lengthCm: 80,
      weightKg: null,
      released: true,
      caughtAt: '2026-06-01T07:00:00.000Z',
      bait: null,
      notes: null,
      personalBests: [],
    });
  });

  it('deletes a catch: gone from the entry', async () => {
    const entry = await newEntry(owner);
    const fish = await newCatch(owner, entry.id);
    expect((await send(owner, 'DELETE', catchUrl(entry.id, fish.id))).statusCode).toBe(204);
    expect((await send(owner, 'GET', catchUrl(entry.id, fish.id))).statusCode).toBe(404);
    expect((await send(owner, 'GET', `/api/fishinglog/entries/${entry.id}`)).json()).toMatchObject({ catchCount: 0, catches: [] });
  });
});

describe('personal bests follow edits and deletions of catches', () => {
  it('edit a best down → the next best takes over; delete it → the same; delete the only one → no best, no ultimate', async () => {
    const angler = await createUser(t);
    const pb = await newCriterion(angler, { speciesId: PIKE, measure: 'length' });
    const entry = await newEntry(angler);
    const big = await newCatch(angler, entry.id, { speciesId: PIKE, lengthCm: 100 });
    expect(big.personalBests).toEqual([expect.objectContaining({ criterionId: pb.id, catchId: big.id, kind: 'NewBest' })]);
    const mid = await newCatch(angler, entry.id, { speciesId: PIKE, lengthCm: 90 });
    expect(mid.personalBests).toEqual([]);
    const small = await newCatch(angler, entry.id, { speciesId: PIKE, lengthCm: 80 });
    const best = (await send(angler, 'GET', '/api/personalbest/me')).json()[0];
    expect((await send(angler, 'PUT', `/api/personalbest/${best.id}/set-ultimate`)).statusCode).toBe(200);

    const edited = await patch(angler, catchUrl(entry.id, big.id), { lengthCm: 70 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().personalBests).toEqual([expect.objectContaining({ criterionId: pb.id, catchId: mid.id, previousCatchId: big.id, kind: 'Fallback' })]);
    expect(await criterion(angler, pb.id)).toMatchObject({ currentBest: { catchId: mid.id, value: 90 } });
    expect(await ultimate(angler)).toMatchObject({ catch: { id: mid.id }, value: 90 });

    // Edited back up, it beats the others again (a catch that is not the best is compared incrementally).
    const back = await patch(angler, catchUrl(entry.id, big.id), { lengthCm: 101 });
    expect(back.json().personalBests).toEqual([expect.objectContaining({ catchId: big.id, previousCatchId: mid.id, kind: 'NewBest' })]);

    expect((await send(angler, 'DELETE', catchUrl(entry.id, big.id))).statusCode).toBe(204);
    expect(await criterion(angler, pb.id)).toMatchObject({ currentBest: { catchId: mid.id, value: 90 } });
    expect(await ultimate(angler)).toMatchObject({ catch: { id: mid.id } });

    for (const fish of [mid, small]) expect((await send(angler, 'DELETE', catchUrl(entry.id, fish.id))).statusCode).toBe(204);
    expect((await criterion(angler, pb.id)).currentBest).toBeNull();
    expect(await send(angler, 'GET', '/api/personalbest/me').then((r) => r.json())).toEqual([]);
    expect(await ultimate(angler)).toBeNull();
  });

  it('a catch changed to another species leaves the old criterion and joins the new one', async () => {
    const angler = await createUser(t);
    const pike = await newCriterion(angler, { speciesId: PIKE, measure: 'weight' });
    const walleye = await newCriterion(angler, { speciesId: WALLEYE, measure: 'weight' });
    const entry = await newEntry(angler);
    const fish = await newCatch(angler, entry.id, { speciesId: PIKE, weightKg: 4 });
    const res = await patch(angler, catchUrl(entry.id, fish.id), { speciesId: WALLEYE });
    expect(res.statusCode).toBe(200);
    expect((await criterion(angler, pike.id)).currentBest).toBeNull();
    expect(await criterion(angler, walleye.id)).toMatchObject({ currentBest: { catchId: fish.id, value: 4 } });
  });

  it('parallel edits of the same best catch leave one consistent best: the largest catch as it finally is', async () => {
    const angler = await createUser(t);
    const pb = await newCriterion(angler, { speciesId: WALLEYE, measure: 'length' });
    const entry = await newEntry(angler);
    const fish = await newCatch(angler, entry.id, { lengthCm: 70 });
    const other = await newCatch(angler, entry.id, { lengthCm: 65 });
    const lengths = [50, 75, 60, 80, 55, 68];
    const results = await Promise.all(lengths.map((lengthCm) => patch(angler, catchUrl(entry.id, fish.id), { lengthCm })));
    expect(results.map((r) => r.statusCode)).toEqual(lengths.map(() => 200));
    const final = (await send(angler, 'GET', catchUrl(entry.id, fish.id))).json().lengthCm as number;
    const expected = final > 65 ? { catchId: fish.id, value: final } : { catchId: other.id, value: 65 };
    expect(await criterion(angler, pb.id)).toMatchObject({ currentBest: expected });
    const current = await t.database.pool.query("SELECT count(*)::int AS n FROM personal_bests WHERE criterion_id = $1 AND status = 'current'", [pb.id]);
    expect(current.rows[0].n).toBe(1);
  });
});

describe('PUT/PATCH/DELETE /api/fishinglog/sessions/{id}', () => {
  async function newSession(user: TestUser) {
    const res = await send(user, 'POST', '/api/fishinglog/sessions', { startedAt: '2026-06-01T04:30:00Z', timeZone: 'America/Chicago', notes: 'Calm', participants: ['Ann'] });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string };
  }

  it('lets only the owner change or delete a session (403 for friend, stranger, admin; 404 when absent)', async () => {
    const session = await newSession(owner);
    for (const user of [friend, stranger, admin]) {
      const put = await send(user, 'PUT', `/api/fishinglog/sessions/${session.id}`, { startedAt: '2026-06-01T04:00:00Z' });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toMatchObject({ code: 'fishinglog.not_session_owner' });
      expect((await patch(user, `/api/fishinglog/sessions/${session.id}`, { notes: 'mine now' })).statusCode).toBe(403);
      expect((await send(user, 'DELETE', `/api/fishinglog/sessions/${session.id}`)).statusCode).toBe(403);
    }
    expect((await send(owner, 'PUT', `/api/fishinglog/sessions/${MISSING_ID}`, { startedAt: '2026-06-01T04:00:00Z' })).statusCode).toBe(404);
    expect((await send(owner, 'DELETE', `/api/fishinglog/sessions/${MISSING_ID}`)).statusCode).toBe(404);
    expect((await send(owner, 'GET', `/api/fishinglog/sessions/${session.id}`)).json()).toMatchObject({ notes: 'Calm' });
  });

  it('replaces with PUT (startedAt required), patches with PATCH (only the fields sent)', async () => {
    const session = await newSession(owner);
    const missing = await send(owner, 'PUT', `/api/fishinglog/sessions/${session.id}`, { notes: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ pointer: '/startedAt', in: 'body', detail: 'is required' }]);

    const patched = await patch(owner, `/api/fishinglog/sessions/${session.id}`, { endedAt: '2026-06-01T10:00:00Z', notes: null });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ startedAt: '2026-06-01T04:30:00.000Z', endedAt: '2026-06-01T10:00:00.000Z', timeZone: 'America/Chicago', notes: null, participants: ['Ann'] });

    const early = await patch(owner, `/api/fishinglog/sessions/${session.id}`, { endedAt: '2026-06-01T01:00:00Z' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ code: 'fishinglog.session_ends_before_start' });

    const put = await send(owner, 'PUT', `/api/fishinglog/sessions/${session.id}`, { startedAt: '2026-06-02T04:00:00Z' });
    expect(put.json()).toMatchObject({ startedAt: '2026-06-02T04:00:00.000Z', endedAt: null, timeZone: null, notes: null, participants: [] });
  });

  it('deletes a session and keeps its entries, detached', async () => {
    const session = await newSession(owner);
    const entry = await newEntry(owner, { sessionId: session.id });
    expect(entry.sessionId).toBe(session.id);
    expect((await send(owner, 'DELETE', `/api/fishinglog/sessions/${session.id}`)).statusCode).toBe(204);
    expect((await send(owner, 'GET', `/api/fishinglog/sessions/${session.id}`)).statusCode).toBe(404);
    const kept = await send(owner, 'GET', `/api/fishinglog/entries/${entry.id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ id: entry.id, sessionId: null, title: 'Dawn on Mille Lacs' });
  });
});

describe('PUT replaces, PATCH merges: log entries and catches', () => {
  it('a PUT without visibility is a 400 naming it, and the entry stays Public', async () => {
    const entry = await newEntry(owner);
    const { visibility: _v, ...withoutVisibility } = entryBody({ shareExactLocation: false });
    const res = await send(owner, 'PUT', `/api/fishinglog/entries/${entry.id}`, withoutVisibility);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.validation_failed', errors: [{ pointer: '/visibility', in: 'body', detail: 'is required' }] });
    const noTime = await send(owner, 'PUT', `/api/fishinglog/entries/${entry.id}`, { ...entryBody({ shareExactLocation: false }), occurredAt: undefined });
    expect(noTime.json().errors).toEqual([{ pointer: '/occurredAt', in: 'body', detail: 'is required' }]);
    expect((await send(owner, 'GET', `/api/fishinglog/entries/${entry.id}`)).json()).toMatchObject({ visibility: 'Public' });
  });

  it('PATCH changes only the fields sent, merges nested objects and clears with null', async () => {
    const entry = await newEntry(owner);
    const res = await patch(owner, `/api/fishinglog/entries/${entry.id}`, { title: 'Renamed', notes: null, location: { waterBody: 'Lake Onamia' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Renamed',
      notes: null,
      visibility: 'Public',
      occurredAt: '2026-06-01T05:00:00.000Z',
      location: { latitude: 46.2345, longitude: -93.6543, waterBody: 'Lake Onamia', stateCode: 'US-MN' },
      weather: { airTemperatureC: 18, sky: 'Clear' },
    });
    // Plain JSON is accepted too.
    const plain = await send(owner, 'PATCH', `/api/fishinglog/entries/${entry.id}`, { weather: null });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ title: 'Renamed', weather: null });
  });

  it('PATCH refuses null on a required field (400 naming it), an invalid result, an unknown field, an empty patch and another content type (415)', async () => {
    const entry = await newEntry(owner);
    const cleared = await patch(owner, `/api/fishinglog/entries/${entry.id}`, { visibility: null, title: 'x' });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json()).toMatchObject({ code: 'request.required_field_cleared', errors: [{ pointer: '/visibility', in: 'body', detail: 'is required and cannot be cleared with null' }] });
    const nested = await patch(owner, `/api/fishinglog/entries/${entry.id}`, { location: { latitude: null } });
    expect(nested.json().errors).toEqual([{ pointer: '/location/latitude', in: 'body', detail: 'is required and cannot be cleared with null' }]);
    const invalid = await patch(owner, `/api/fishinglog/entries/${entry.id}`, { visibility: 'Everyone' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors[0]).toMatchObject({ pointer: '/visibility', detail: 'must be one of Public, Private, Friends, Circle' });
    const unknown = await patch(owner, `/api/fishinglog/entries/${entry.id}`, { colour: 'red' });
    expect(unknown.json().errors).toEqual([{ pointer: '/colour', in: 'body', detail: 'is not a known property; remove it' }]);
    expect((await patch(owner, `/api/fishinglog/entries/${entry.id}`, {})).statusCode).toBe(400);
    const text = await send(owner, 'PATCH', `/api/fishinglog/entries/${entry.id}`, 'title=x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'request.unsupported_media_type' });
    const mergeOnPut = await send(owner, 'PUT', `/api/fishinglog/entries/${entry.id}`, JSON.stringify(entryBody({ shareExactLocation: false })), MERGE);
    expect(mergeOnPut.statusCode).toBe(415);
    expect((await send(owner, 'GET', `/api/fishinglog/entries/${entry.id}`)).json()).toMatchObject({ title: 'Dawn on Mille Lacs', visibility: 'Public' });
  });

  it('PATCH of a catch keeps the other fields; null clears an optional one and is a 400 for a required one', async () => {
    const entry = await newEntry(owner);
    const fish = await newCatch(owner, entry.id, { bait: 'leech', notes: 'hooked deep', photoUrls: ['https://img.example.com/a.jpg'] });
    const res = await patch(owner, catchUrl(entry.id, fish.id), { notes: null, released: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: fish.id, notes: null, released: true, bait: 'leech', lengthCm: 60, weightKg: 2.5, count: 1, photoUrls: ['https://img.example.com/a.jpg'] });
    const required = await patch(owner, catchUrl(entry.id, fish.id), { speciesId: null });
    expect(required.statusCode).toBe(400);
    expect(required.json().errors).toEqual([{ pointer: '/speciesId', in: 'body', detail: 'is required and cannot be cleared with null' }]);
    const unknownSpecies = await patch(owner, catchUrl(entry.id, fish.id), { speciesId: MISSING_ID });
    expect(unknownSpecies.json()).toMatchObject({ status: 400, code: 'fishinglog.unknown_species' });
  });
});

describe('Master Angler eligibility on the catch response', () => {
  const ohio = { location: { latitude: 39.96, longitude: -83.0, waterBody: 'Alum Creek Lake', stateCode: 'US-OH' } };
  const minnesota = { location: { latitude: 46.2345, longitude: -93.6543, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' } };

  it('a 44" muskie logged in Ohio is eligible for Fish Ohio; edited down to 38" it no longer is', async () => {
    const angler = await createUser(t);
    const entry = await newEntry(angler, ohio);
    const fish = await newCatch(angler, entry.id, { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: undefined, released: true });
    expect(fish.masterAngler).toEqual({
      eligible: true,
      programs: [expect.objectContaining({ programId: FISH_OHIO, programName: 'Fish Ohio', state: 'US-OH', qualifiesBy: 'Length', minLengthIn: 40 })],
    });
    const shorter = await patch(angler, catchUrl(entry.id, fish.id), { lengthCm: inches(38) });
    expect(shorter.json().masterAngler).toEqual({ eligible: false, programs: [] });
  });

  it("the angler's home state counts: a 44\" muskie logged in Minnesota by an Ohioan is eligible for Fish Ohio", async () => {
    const angler = await createUser(t);
    const entry = await newEntry(angler, minnesota);
    const before = await newCatch(angler, entry.id, { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: undefined });
    expect(before.masterAngler.programs.map((p: { programId: string }) => p.programId)).not.toContain(FISH_OHIO);
    expect((await patch(angler, '/api/userprofile/me', { homeState: 'US-OH' })).statusCode).toBe(200);
    const after = await newCatch(angler, entry.id, { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: undefined });
    expect(after.masterAngler).toMatchObject({ eligible: true });
    expect(after.masterAngler.programs.map((p: { programId: string }) => p.programId)).toContain(FISH_OHIO);
  });

  it('reads show it to the owner (the catch, the entry\'s catch list, the entry) and to nobody else', async () => {
    const angler = await createUser(t);
    const other = await createUser(t);
    const entry = await newEntry(angler, { ...ohio, visibility: 'Public' });
    const big = await newCatch(angler, entry.id, { speciesId: SPECIES.muskie, lengthCm: inches(44), weightKg: undefined });
    const small = await newCatch(angler, entry.id, { speciesId: SPECIES.muskie, lengthCm: inches(30), weightKg: undefined });
    const eligible = { eligible: true, programs: [expect.objectContaining({ programId: FISH_OHIO, qualifiesBy: 'Length', minLengthIn: 40 })] };
    const notEligible = { eligible: false, programs: [] };
    const one = await send(angler, 'GET', catchUrl(entry.id, big.id));
    expect(one.json().masterAngler).toEqual(eligible);
    const list = await send(angler, 'GET', `/api/fishinglog/entries/${entry.id}/catches`);
    const byId = new Map(list.json().map((c: { id: string; masterAngler: unknown }) => [c.id, c.masterAngler]));
    expect(byId.get(big.id)).toEqual(eligible);
    expect(byId.get(small.id)).toEqual(notEligible);
    const full = await send(angler, 'GET', `/api/fishinglog/entries/${entry.id}`);
    expect(full.json().catches.map((c: { masterAngler: unknown }) => c.masterAngler)).toEqual(expect.arrayContaining([eligible, notEligible]));
    // Another angler reads the public entry and its catches, without the owner's prompt.
    const seen = await send(other, 'GET', catchUrl(entry.id, big.id));
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).not.toHaveProperty('masterAngler');
    expect((await send(other, 'GET', `/api/fishinglog/entries/${entry.id}/catches`)).json().every((c: object) => !('masterAngler' in c))).toBe(true);
    expect((await send(other, 'GET', `/api/fishinglog/entries/${entry.id}`)).json().catches.every((c: object) => !('masterAngler' in c))).toBe(true);
  });
});
