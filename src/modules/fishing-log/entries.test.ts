import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { recordStatements } from '../../../test/statements.js';
import { createUser, type TestUser, MISSING_ID, befriend, addToCircle, requestFriendship, createCatch as createCatchRow, speciesIds } from '../../../test/factories.js';
import { speciesId } from '../species/species.seeds.js';

const WALLEYE = speciesId('Sander vitreus');
const PIKE = speciesId('Esox lucius');

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let pendingFriend: TestUser;
let friend: TestUser;
let circleMember: TestUser;

const entryBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Evening bite on Mille Lacs',
  occurredAt: '2026-06-01T19:30:00-05:00',
  timeZone: 'America/Chicago',
  location: { latitude: 46.234567, longitude: -93.654321, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
  weather: { airTemperatureC: 21.5, sky: 'partly-cloudy', windSpeedKmh: 12, windDirection: 'SW', pressureHpa: 1012.3, moonPhase: 'waxing-gibbous' },
  water: { temperatureC: 17.2, clarity: 'lightly-stained', depthM: 6.5 },
  method: 'boat',
  notes: 'Jig and minnow on the rock reef',
  ...overrides,
});

async function createEntry(user: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/api/fishinglog/entries', headers: user.headers, payload: entryBody(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function addCatch(user: TestUser, entryId: string, overrides: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/fishinglog/entries/${entryId}/catches`,
    headers: user.headers,
    payload: { speciesId: WALLEYE, lengthCm: 55.5, weightKg: 1.85, released: true, ...overrides },
  });
}

const get = (user: TestUser | undefined, url: string) => t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { username: 'olive_owner' });
  stranger = await createUser(t);
  pendingFriend = await createUser(t);
  friend = await createUser(t);
  circleMember = await createUser(t);
  await requestFriendship(t, pendingFriend, owner); // only one side: a pending request
  await befriend(t, owner, friend);
  await befriend(t, owner, circleMember);
  await addToCircle(t, owner, circleMember);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/fishinglog/entries', () => {
  it('creates a private entry by default and shows the owner everything exactly', async () => {
    const entry = await createEntry(owner);
    expect(entry).toEqual({
      id: expect.any(String),
      ownerId: owner.userId,
      ownerUsername: 'olive_owner',
      sessionId: null,
      title: 'Evening bite on Mille Lacs',
      occurredAt: '2026-06-02T00:30:00.000Z',
      timeZone: 'America/Chicago',
      location: { latitude: 46.234567, longitude: -93.654321, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN', precision: 'Exact' },
      // Sent in the older spellings (still accepted), answered PascalCase.
      weather: { airTemperatureC: 21.5, sky: 'PartlyCloudy', windSpeedKmh: 12, windDirection: 'SW', pressureHpa: 1012.3, moonPhase: 'WaxingGibbous' },
      water: { temperatureC: 17.2, clarity: 'LightlyStained', depthM: 6.5 },
      method: 'Boat',
      notes: 'Jig and minnow on the rock reef',
      visibility: 'Private',
      shareExactLocation: false,
      catchCount: 0,
      catches: [],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/fishinglog/entries', payload: entryBody() });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['an unknown property', { ownerId: MISSING_ID }, '/ownerId'],
    ['a latitude out of range', { location: { latitude: 95, longitude: 0 } }, '/location/latitude'],
    ['a bad visibility', { visibility: 'Everyone' }, '/visibility'],
    ['a MISSING_ID title', { title: undefined }, '/title'],
    ['a bad state code', { location: { latitude: 1, longitude: 1, stateCode: 'Minnesota' } }, '/location/stateCode'],
    ['a bad time zone', { timeZone: 'Mars/Olympus' }, '/timeZone'],
    ['an implausible pressure', { weather: { pressureHpa: 5000 } }, '/weather/pressureHpa'],
  ])('refuses %s with a 400 naming the field', async (_name, overrides, pointer) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/fishinglog/entries', headers: owner.headers, payload: entryBody(overrides) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it("refuses another user's session or an unknown one (400 naming sessionId)", async () => {
    const session = await t.app.inject({ method: 'POST', url: '/api/fishinglog/sessions', headers: friend.headers, payload: { startedAt: '2026-06-01T05:00:00Z' } });
    for (const sessionId of [session.json().id, MISSING_ID]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/fishinglog/entries', headers: owner.headers, payload: entryBody({ sessionId }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'fishinglog.unknown_session', errors: [{ pointer: '/sessionId' }] });
    }
  });
});

describe('visibility × relationship', () => {
  const entries: Record<string, { id: string }> = {};
  const viewers = () => ({ owner, stranger, pendingFriend, friend, circleMember });
  const sees: Record<string, string[]> = {
    Public: ['owner', 'stranger', 'pendingFriend', 'friend', 'circleMember'],
    Private: ['owner'],
    Friends: ['owner', 'friend', 'circleMember'],
    Circle: ['owner', 'circleMember'],
  };

  beforeAll(async () => {
    for (const visibility of ['Public', 'Private', 'Friends', 'Circle']) {
      entries[visibility] = await createEntry(owner, { title: `${visibility} trip`, visibility });
      expect((await addCatch(owner, entries[visibility]!.id)).statusCode).toBe(201);
    }
  });

  const cells = ['Public', 'Private', 'Friends', 'Circle'].flatMap((visibility) =>
    ['owner', 'stranger', 'pendingFriend', 'friend', 'circleMember'].map((viewer) => [visibility, viewer] as const),
  );

  it.each(cells)('%s entry seen by %s', async (visibility, viewerName) => {
    const viewer = viewers()[viewerName as keyof ReturnType<typeof viewers>];
    const allowed = sees[visibility]!.includes(viewerName);
    const id = entries[visibility]!.id;
    const one = await get(viewer, `/api/fishinglog/entries/${id}`);
    const caught = await get(viewer, `/api/fishinglog/entries/${id}/catches`);
    const list = await get(viewer, `/api/fishinglog/entries?ownerId=${owner.userId}&pageSize=100`);
    const listed = list.json().map((e: { id: string }) => e.id).includes(id);
    if (allowed) {
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id, visibility, catchCount: 1, catches: [expect.objectContaining({ species: expect.objectContaining({ commonName: 'Walleye' }) })] });
      expect(caught.statusCode).toBe(200);
      expect(caught.json()).toHaveLength(1);
      expect(listed).toBe(true);
    } else {
      expect(one.statusCode).toBe(403);
      expect(one.json()).toMatchObject({ code: 'fishinglog.entry_not_visible' });
      expect(one.body).not.toContain('trip');
      expect(caught.statusCode).toBe(403);
      expect(listed).toBe(false);
    }
  });

  it('applies an ended friendship on the next request', async () => {
    const exFriend = await createUser(t);
    await befriend(t, owner, exFriend);
    expect((await get(exFriend, `/api/fishinglog/entries/${entries.Friends!.id}`)).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/social/friends/${exFriend.userId}`, headers: owner.headers });
    expect((await get(exFriend, `/api/fishinglog/entries/${entries.Friends!.id}`)).statusCode).toBe(403);
  });

  it('answers 404 for an entry that does not exist, 400 for a bad id, 401 without a token', async () => {
    expect((await get(friend, `/api/fishinglog/entries/${MISSING_ID}`)).statusCode).toBe(404);
    expect((await get(friend, `/api/fishinglog/entries/${MISSING_ID}/catches`)).statusCode).toBe(404);
    expect((await get(friend, '/api/fishinglog/entries/xyz')).statusCode).toBe(400);
    expect((await get(undefined, `/api/fishinglog/entries/${entries.Public!.id}`)).statusCode).toBe(401);
    expect((await get(undefined, '/api/fishinglog/entries')).statusCode).toBe(401);
  });
});

describe('location privacy', () => {
  it('rounds coordinates to about 1 km for other viewers, unless shared exactly', async () => {
    const hidden = await createEntry(owner, { visibility: 'Public' });
    await addCatch(owner, hidden.id, { location: { latitude: 46.2411111, longitude: -93.6588888 } });
    const seen = (await get(stranger, `/api/fishinglog/entries/${hidden.id}`)).json();
    expect(seen.location).toEqual({ latitude: 46.23, longitude: -93.65, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN', precision: 'Approximate' });
    expect(seen.catches[0].location).toEqual({ latitude: 46.24, longitude: -93.66, precision: 'Approximate' });
    expect(JSON.stringify(seen)).not.toContain('46.234567');
    const mine = (await get(owner, `/api/fishinglog/entries/${hidden.id}`)).json();
    expect(mine.location).toMatchObject({ latitude: 46.234567, precision: 'Exact' });

    const shared = await createEntry(owner, { visibility: 'Public', shareExactLocation: true });
    expect((await get(stranger, `/api/fishinglog/entries/${shared.id}`)).json().location).toMatchObject({ latitude: 46.234567, precision: 'Exact' });
  });

  it('matches a bounding box against the coordinates the viewer is shown', async () => {
    const entry = await createEntry(owner, { visibility: 'Public', title: 'boxed', location: { latitude: 45.004, longitude: -92.004 } });
    // The exact point lies inside this box, the rounded one (45.00, -92.00) does not.
    const box = 'minLat=45.003&maxLat=45.005&minLng=-92.005&maxLng=-92.003';
    const forStranger = await get(stranger, `/api/fishinglog/entries?${box}`);
    expect(forStranger.json().map((e: { id: string }) => e.id)).not.toContain(entry.id);
    const forOwner = await get(owner, `/api/fishinglog/entries?${box}`);
    expect(forOwner.json().map((e: { id: string }) => e.id)).toContain(entry.id);
    const rounded = await get(stranger, '/api/fishinglog/entries?minLat=44.99&maxLat=45.01&minLng=-92.01&maxLng=-91.99');
    expect(rounded.json().map((e: { id: string }) => e.id)).toContain(entry.id);
    // The rounded point on the box's edge, the exact one just outside it: the stranger finds it, the owner does not.
    const edge = 'minLat=44.995&maxLat=45&minLng=-92&maxLng=-91.995';
    expect((await get(stranger, `/api/fishinglog/entries?${edge}`)).json().map((e: { id: string }) => e.id)).toContain(entry.id);
    expect((await get(owner, `/api/fishinglog/entries?${edge}`)).json().map((e: { id: string }) => e.id)).not.toContain(entry.id);
    const partial = await get(stranger, '/api/fishinglog/entries?minLat=44');
    expect(partial.statusCode).toBe(400);
    expect(partial.json().code).toBe('fishinglog.incomplete_bounding_box');
  });
});

describe('list filters', () => {
  let lister: TestUser;
  beforeAll(async () => {
    lister = await createUser(t);
    const a = await createEntry(lister, { title: 'spring walleye', occurredAt: '2026-04-10T10:00:00Z', visibility: 'Public' });
    await addCatch(lister, a.id);
    const b = await createEntry(lister, { title: 'summer pike', occurredAt: '2026-07-10T10:00:00Z', visibility: 'Friends' });
    await addCatch(lister, b.id, { speciesId: PIKE });
    await createEntry(lister, { title: 'autumn skunk', occurredAt: '2026-10-10T10:00:00Z' });
  });

  const titles = async (query: string, viewer = lister) => (await get(viewer, `/api/fishinglog/entries?${query}`)).json().map((e: { title: string }) => e.title);

  it('lists newest first with pagination headers', async () => {
    const res = await get(lister, '/api/fishinglog/entries?mine=true&pageSize=2');
    expect(res.json().map((e: { title: string }) => e.title)).toEqual(['autumn skunk', 'summer pike']);
    expect(res.headers['x-total-count']).toBeUndefined(); // a feed: no count
    const next = /<([^>]+)>; rel="next"/.exec(String(res.headers.link))![1]!;
    expect((await get(lister, next)).json().map((e: { title: string }) => e.title)).toEqual(['spring walleye']);
    expect(res.json()[0]).not.toHaveProperty('catches');
  });

  it('filters by species, time range and visibility', async () => {
    expect(await titles(`mine=true&speciesId=${PIKE}`)).toEqual(['summer pike']);
    expect(await titles('mine=true&from=2026-05-01T00:00:00Z&to=2026-08-01T00:00:00Z')).toEqual(['summer pike']);
    expect(await titles('mine=true&visibility=Private')).toEqual(['autumn skunk']);
    expect(await titles(`ownerId=${lister.userId}`, stranger)).toEqual(['spring walleye']);
    expect(await titles(`ownerId=${lister.userId}&visibility=Private`, stranger)).toEqual([]);
  });

  it("follows a catch's species as catches are added, changed and deleted, and an entry of over 64 species", async () => {
    const entry = await createEntry(lister, { title: 'species trail', occurredAt: '2026-03-01T10:00:00Z' });
    const first = (await addCatch(lister, entry.id)).json() as { id: string };
    const second = (await addCatch(lister, entry.id, { speciesId: PIKE })).json() as { id: string };
    expect(await titles(`mine=true&speciesId=${WALLEYE}`)).toContain('species trail');
    expect(await titles(`mine=true&speciesId=${PIKE}`)).toContain('species trail');
    // The pike becomes a walleye: the entry is no pike trip any more.
    const patch = { method: 'PATCH' as const, headers: { ...lister.headers, 'content-type': 'application/merge-patch+json' } };
    expect((await t.app.inject({ ...patch, url: `/api/fishinglog/entries/${entry.id}/catches/${second.id}`, payload: { speciesId: WALLEYE } })).statusCode).toBe(200);
    expect(await titles(`mine=true&speciesId=${PIKE}`)).not.toContain('species trail');
    // One walleye left after a deletion, none after both.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}/catches/${first.id}`, headers: lister.headers })).statusCode).toBe(204);
    expect(await titles(`mine=true&speciesId=${WALLEYE}`)).toContain('species trail');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}/catches/${second.id}`, headers: lister.headers })).statusCode).toBe(204);
    expect(await titles(`mine=true&speciesId=${WALLEYE}`)).not.toContain('species trail');
    // 65 species on one entry: more than the feed indexes carry (species_ids is null), found through its catches.
    const many = await createEntry(lister, { title: 'bioblitz', occurredAt: '2026-02-01T10:00:00Z', visibility: 'Public' });
    const species = await speciesIds(t, 65);
    for (const id of species) await createCatchRow(t, lister, many.id, { speciesId: id });
    const { rows } = await t.database.pool.query('SELECT species_ids FROM fishing_log_entries WHERE id = $1', [many.id]);
    expect(rows[0].species_ids).toBeNull();
    expect(await titles(`ownerId=${lister.userId}&speciesId=${species[64]}`, stranger)).toEqual(['bioblitz']);
    expect(await titles(`ownerId=${lister.userId}&speciesId=${PIKE}`, stranger)).toEqual(species.includes(PIKE) ? ['bioblitz'] : []);
  });

  it('refuses contradictory filters', async () => {
    const res = await get(lister, `/api/fishinglog/entries?mine=true&ownerId=${owner.userId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('fishinglog.conflicting_filters');
  });
});

describe('PUT and DELETE /api/fishinglog/entries/{id}', () => {
  it('lets the owner replace an entry, keeping its catches', async () => {
    const entry = await createEntry(owner, { visibility: 'Friends' });
    await addCatch(owner, entry.id);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/fishinglog/entries/${entry.id}`,
      headers: owner.headers,
      payload: entryBody({ title: 'Renamed', visibility: 'Public', shareExactLocation: false, weather: null, notes: null }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: entry.id, title: 'Renamed', visibility: 'Public', weather: null, notes: null, catchCount: 1 });
    expect(res.json().catches).toHaveLength(1);
  });

  it('refuses everyone else, even viewers who can read it (403), and MISSING_ID entries (404)', async () => {
    const entry = await createEntry(owner, { visibility: 'Public' });
    for (const other of [friend, circleMember, stranger]) {
      const put = await t.app.inject({ method: 'PUT', url: `/api/fishinglog/entries/${entry.id}`, headers: other.headers, payload: entryBody({ title: 'hijacked', visibility: 'Public', shareExactLocation: false }) });
      expect(put.statusCode).toBe(403);
      expect(put.json().code).toBe('fishinglog.not_entry_owner');
      const del = await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}`, headers: other.headers });
      expect(del.statusCode).toBe(403);
    }
    expect((await get(owner, `/api/fishinglog/entries/${entry.id}`)).json().title).toBe('Evening bite on Mille Lacs');
    expect((await t.app.inject({ method: 'PUT', url: `/api/fishinglog/entries/${MISSING_ID}`, headers: owner.headers, payload: entryBody({ visibility: 'Private', shareExactLocation: false }) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${MISSING_ID}`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('deletes an entry with its catches, permanently', async () => {
    const entry = await createEntry(owner);
    await addCatch(owner, entry.id);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}`, headers: owner.headers });
    expect(res.statusCode).toBe(204);
    expect((await get(owner, `/api/fishinglog/entries/${entry.id}`)).statusCode).toBe(404);
    const left = await t.database.pool.query('SELECT count(*)::int AS n FROM catches WHERE entry_id = $1', [entry.id]);
    expect(left.rows[0].n).toBe(0);
  });
});

describe('catches', () => {
  it('adds a catch to your own entry with canonical units', async () => {
    const entry = await createEntry(owner);
    const res = await addCatch(owner, entry.id, { count: 2, bait: 'fathead minnow', lure: '1/8 oz jig', photoUrls: ['https://img.example.com/w.jpg'], notes: 'twins' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      entryId: entry.id,
      species: { id: WALLEYE, commonName: 'Walleye', scientificName: 'Sander vitreus' },
      lengthCm: 55.5,
      weightKg: 1.85,
      count: 2,
      released: true,
      caughtAt: '2026-06-02T00:30:00.000Z',
      bait: 'fathead minnow',
      lure: '1/8 oz jig',
      lureItem: null,
      gearSetupId: null,
      photoUrls: ['https://img.example.com/w.jpg'],
      notes: 'twins',
      location: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      personalBests: [],
      masterAngler: { eligible: false, programs: [] },
    });
  });

  it('says when a catch sets a personal best', async () => {
    const angler = await createUser(t);
    const criterion = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: angler.headers, payload: { speciesId: WALLEYE, measure: 'weight' } });
    expect(criterion.statusCode).toBe(201);
    const entry = await createEntry(angler);
    const first = await addCatch(angler, entry.id, { weightKg: 2.1 });
    expect(first.json().personalBests).toEqual([
      { criterionId: criterion.json().id, personalBestId: expect.any(String), catchId: first.json().id, previousCatchId: null, kind: 'NewBest' },
    ]);
    const smaller = await addCatch(angler, entry.id, { weightKg: 1.2 });
    expect(smaller.json().personalBests).toEqual([]);
    const bigger = await addCatch(angler, entry.id, { weightKg: 3.4 });
    expect(bigger.json().personalBests).toEqual([expect.objectContaining({ catchId: bigger.json().id, previousCatchId: first.json().id, kind: 'NewBest' })]);
    // Deleting the entry withdraws the bests its catches held.
    await t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}`, headers: angler.headers });
    const bests = await t.app.inject({ method: 'GET', url: '/api/personalbest/me', headers: angler.headers });
    expect(bests.json()).toEqual([]);
  });

  it('sends the BEGIN of a change or deletion with its first statement (one round trip)', async () => {
    const entry = await createEntry(owner);
    const added = await addCatch(owner, entry.id);
    const firstTrip = (sent: { text: string; trip: number }[]) => sent.filter((s) => s.trip === sent[0]!.trip).map((s) => s.text);
    const patched = await recordStatements(() => t.app.inject({ method: 'PATCH', url: `/api/fishinglog/entries/${entry.id}/catches/${added.json().id}`, headers: { ...owner.headers, 'content-type': 'application/merge-patch+json' }, payload: { notes: 'kept' } }));
    expect(firstTrip(patched)).toEqual(['BEGIN', expect.stringMatching(/^SELECT pg_advisory_xact_lock/)]);
    const deleted = await recordStatements(() => t.app.inject({ method: 'DELETE', url: `/api/fishinglog/entries/${entry.id}`, headers: owner.headers }));
    expect(firstTrip(deleted)).toEqual(['BEGIN', expect.stringMatching(/FOR UPDATE$/)]);
    expect((await get(owner, `/api/fishinglog/entries/${entry.id}`)).statusCode).toBe(404);
  });

  it('keeps one personal best in force, the heaviest, when catches of one angler arrive in parallel', async () => {
    const angler = await createUser(t);
    const criterion = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: angler.headers, payload: { speciesId: WALLEYE, measure: 'weight' } });
    const entry = await createEntry(angler);
    const weights = [2.5, 4.1, 1.2, 3.3, 4.0, 0.8, 3.9, 2.2];
    const added = await Promise.all(weights.map((weightKg) => addCatch(angler, entry.id, { weightKg })));
    expect(added.map((r) => r.statusCode)).toEqual(weights.map(() => 201));
    const heaviest = added[weights.indexOf(4.1)]!.json().id;
    const bests = await t.app.inject({ method: 'GET', url: '/api/personalbest/me', headers: angler.headers });
    expect(bests.json()).toEqual([expect.objectContaining({ criterion: expect.objectContaining({ id: criterion.json().id }), value: 4.1, catch: expect.objectContaining({ id: heaviest }) })]);
    // Each catch was compared with the best in force when it came (one at a time, under the lock):
    // every reported new best beat the one before it, and the last one reported is the heaviest.
    const reported = added.flatMap((r) => r.json().personalBests as { catchId: string; previousCatchId: string | null }[]);
    const weightOf = new Map(added.map((r, i) => [r.json().id as string, weights[i]!]));
    for (const change of reported) if (change.previousCatchId) expect(weightOf.get(change.catchId)!).toBeGreaterThan(weightOf.get(change.previousCatchId)!);
    expect(reported.filter((c) => !reported.some((later) => later.previousCatchId === c.catchId)).map((c) => c.catchId)).toEqual([heaviest]);
    const rows = await t.database.pool.query("SELECT status, count(*)::int AS n FROM personal_bests WHERE owner_id = $1 GROUP BY status ORDER BY status", [angler.userId]);
    expect(rows.rows).toEqual([...(reported.length > 1 ? [{ status: 'beaten', n: reported.length - 1 }] : []), { status: 'current', n: 1 }]);
  });

  it('links a catalog lure and one of your gear setups (the setup shown to you only)', async () => {
    const lure = (await t.database.pool.query("SELECT g.id, g.name, b.name AS brand FROM gear_items g JOIN brands b ON b.id = g.brand_id WHERE g.kind = 'lure' AND g.is_active AND b.is_active ORDER BY g.name LIMIT 1")).rows[0];
    const rod = (await t.database.pool.query("SELECT id FROM gear_items WHERE kind = 'rod' AND is_active LIMIT 1")).rows[0];
    const setup = await t.app.inject({ method: 'POST', url: '/api/gear/setups', headers: owner.headers, payload: { name: 'Walleye jigging', rodId: rod.id } });
    expect(setup.statusCode).toBe(201);
    const entry = await createEntry(owner, { visibility: 'Public' });
    const res = await addCatch(owner, entry.id, { lureId: lure.id, gearSetupId: setup.json().id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ lureItem: { id: lure.id, name: lure.name, brand: lure.brand }, gearSetupId: setup.json().id });
    const seen = await get(stranger, `/api/fishinglog/entries/${entry.id}/catches`);
    expect(seen.json()[0]).toMatchObject({ lureItem: { id: lure.id }, gearSetupId: null });
    // Someone else's setup, a rod given as a lure, unknown ids: 400 naming the field.
    const friendsSetup = await t.app.inject({ method: 'POST', url: '/api/gear/setups', headers: friend.headers, payload: { name: 'Not yours' } });
    for (const [payload, pointer] of [
      [{ gearSetupId: friendsSetup.json().id }, '/gearSetupId'],
      [{ lureId: rod.id }, '/lureId'],
      [{ lureId: MISSING_ID }, '/lureId'],
    ] as const) {
      const bad = await addCatch(owner, entry.id, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('refuses an unknown or inactive species (400, nothing inserted), before checking a lure', async () => {
    const entry = await createEntry(owner);
    const inactive = (await t.database.owner.pool.query("INSERT INTO fish_species (id, common_name, scientific_name, is_active) VALUES (gen_random_uuid(), 'Gone fish', 'Gonus fishus', false) RETURNING id")).rows[0].id;
    for (const payload of [{ speciesId: MISSING_ID }, { speciesId: inactive }, { speciesId: MISSING_ID, lureId: MISSING_ID }]) {
      const res = await addCatch(owner, entry.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'fishinglog.unknown_species', errors: [{ pointer: '/speciesId' }] });
    }
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM catches WHERE entry_id = $1', [entry.id])).rows[0].n).toBe(0);
  });

  it('refuses a NUL character or a lone surrogate in bait, lure or notes with a 400 naming the field, and stores nothing', async () => {
    const entry = await createEntry(owner);
    for (const field of ['bait', 'lure', 'notes']) {
      for (const [text, rule] of [
        ['jig\u0000minnow', 'must not contain the NUL character (U+0000)'],
        ['jig\uD800minnow', 'must not contain an unpaired UTF-16 surrogate'],
      ] as const) {
        const res = await addCatch(owner, entry.id, { [field]: text });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'request.validation_failed', errors: [{ pointer: `/${field}`, in: 'body', detail: expect.stringContaining(rule) }] });
      }
    }
    // A paired surrogate (an emoji) is text like any other.
    expect((await addCatch(owner, entry.id, { notes: 'Big one 🎣' })).json().notes).toBe('Big one 🎣');
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM catches WHERE entry_id = $1', [entry.id])).rows[0].n).toBe(1);
    const catchId = (await t.database.pool.query('SELECT id FROM catches WHERE entry_id = $1', [entry.id])).rows[0].id;
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/fishinglog/entries/${entry.id}/catches/${catchId}`, headers: owner.headers, payload: { notes: 'a\u0000b' } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().errors).toEqual([{ pointer: '/notes', in: 'body', detail: 'must not contain the NUL character (U+0000)' }]);
    const search = await get(owner, `/api/fishinglog/entries?cursor=${encodeURIComponent('a\u0000')}`);
    expect(search.statusCode).toBe(400);
    expect(search.json().errors[0]).toEqual({ pointer: '/cursor', in: 'query', detail: 'must not contain the NUL character (U+0000)' });
  });

  it('matches a state criterion against entries logged through the API (one state-code format)', async () => {
    const angler = await createUser(t);
    const criterion = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: angler.headers, payload: { speciesId: WALLEYE, measure: 'length', stateCode: 'US-MN' } });
    expect(criterion.statusCode).toBe(201);
    const entry = await createEntry(angler, { location: { latitude: 46, longitude: -93, stateCode: 'us-mn' } });
    expect(entry.location.stateCode).toBe('US-MN');
    const res = await addCatch(angler, entry.id, { lengthCm: 61 });
    expect(res.json().personalBests).toEqual([expect.objectContaining({ criterionId: criterion.json().id, kind: 'NewBest' })]);
  });

  it('lets only the owner add catches (nothing inserted for anyone else)', async () => {
    const entry = await createEntry(owner, { visibility: 'Public' });
    for (const other of [friend, stranger]) {
      for (const overrides of [{}, { lureId: MISSING_ID }]) {
        const res = await addCatch(other, entry.id, overrides);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ status: 403, code: 'fishinglog.not_entry_owner' });
      }
    }
    const missing = await addCatch(owner, MISSING_ID);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('fishinglog.entry_not_found');
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM catches WHERE entry_id = $1', [entry.id])).rows[0].n).toBe(0);
  });

  it('reads an entry by id in one round trip: the entry and its catches together (their policy checked after)', async () => {
    const shared = await createEntry(owner, { visibility: 'Public' });
    const hidden = await createEntry(owner, { visibility: 'Private' });
    for (const entry of [shared, hidden]) expect((await addCatch(owner, entry.id)).statusCode).toBe(201);
    const read = async (user: TestUser, id: string) => {
      let res!: Awaited<ReturnType<typeof t.app.inject>>;
      const sent = await recordStatements(async () => {
        res = await t.app.inject({ method: 'GET', url: `/api/fishinglog/entries/${id}`, headers: user.headers });
      });
      return { res, sent };
    };
    const { res, sent } = await read(stranger, shared.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: shared.id, catches: [{ entryId: shared.id, species: { id: WALLEYE } }] });
    expect(sent.map((s) => s.trip)).toEqual([1, 1, 1]);
    expect(sent[0]!.text).toMatch(/FROM "fishing_log_entries"/);
    expect(sent[1]!.text).toMatch(/FROM "catches"/);
    expect(sent[2]!.text).toMatch(/from "photos"/i);
    // The owner's view adds their Master Angler eligibility, after the first trip.
    const own = await read(owner, shared.id);
    expect(own.res.statusCode).toBe(200);
    expect(own.sent.slice(0, 3).map((s) => s.trip)).toEqual([1, 1, 1]);
    // Catches read with an entry the viewer may not see go nowhere: the answer is the refusal alone.
    const refused = await read(stranger, hidden.id);
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json()).toEqual(expect.objectContaining({ status: 403, code: expect.any(String) }));
    expect(refused.res.body).not.toContain(WALLEYE);
    expect(refused.res.body).not.toContain('catches');
  });

  it('adds a catch in two round trips: BEGIN, the entry lock, the species read, the INSERT and the personal-best read together; COMMIT', async () => {
    const entry = await createEntry(owner);
    let res!: Awaited<ReturnType<typeof addCatch>>;
    const sent = await recordStatements(async () => {
      res = await addCatch(owner, entry.id);
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ caughtAt: entry.occurredAt, personalBests: [] }); // no time of its own: the entry's
    const trips = [...new Set(sent.map((s) => s.trip))].map((trip) => sent.filter((s) => s.trip === trip).map((s) => s.text));
    expect(trips[0]).toHaveLength(5);
    expect(trips[0]![0]).toBe('BEGIN');
    expect(trips[0]![1]).toMatch(/FOR UPDATE$/);
    expect(trips[0]![2]).toMatch(/FROM "fish_species" .*"is_active"$/);
    expect(trips[0]![3]).toMatch(/INSERT INTO "catches"/);
    expect(trips[0]![4]).toMatch(/JOIN "personal_best_criteria"/);
    expect(trips.at(-1)).toEqual(['COMMIT']);
    expect(trips.length).toBeLessThanOrEqual(3); // + the owner's home state when a Master Angler program lists the species
  });

  it.each([
    ['an unknown species', { speciesId: MISSING_ID }, '/speciesId'],
    ['a zero length', { lengthCm: 0 }, '/lengthCm'],
    ['an implausible weight', { weightKg: 5000 }, '/weightKg'],
    ['a negative count', { count: -1 }, '/count'],
    ['a MISSING_ID released flag', { released: undefined }, '/released'],
    ['a photo that is not a URL', { photoUrls: ['javascript:alert(1)'] }, '/photoUrls/0'],
  ])('refuses %s with a 400 naming the field', async (_name, overrides, pointer) => {
    const entry = await createEntry(owner);
    const res = await addCatch(owner, entry.id, overrides);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('pages the catches of an entry in the order they were caught', async () => {
    const entry = await createEntry(owner, { visibility: 'Public' });
    for (const hour of [3, 1, 2]) await addCatch(owner, entry.id, { caughtAt: `2026-06-02T0${hour}:00:00Z` });
    const res = await get(stranger, `/api/fishinglog/entries/${entry.id}/catches?pageSize=2`);
    expect(res.json().map((c: { caughtAt: string }) => c.caughtAt)).toEqual(['2026-06-02T01:00:00.000Z', '2026-06-02T02:00:00.000Z']);
    expect(res.headers['x-total-count']).toBe('3');
  });
});

describe('sessions', () => {
  it('creates a session and shows it, with its entries, to its owner only', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/fishinglog/sessions',
      headers: owner.headers,
      payload: {
        startedAt: '2026-06-01T04:30:00Z',
        endedAt: '2026-06-01T11:00:00Z',
        timeZone: 'America/Chicago',
        location: { latitude: 46.2, longitude: -93.6, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
        participants: ['Dad', 'Uncle Ray'],
        notes: 'Opener',
        weatherSummary: 'Calm, overcast',
        waterSummary: '15 °C, stained',
      },
    });
    expect(created.statusCode).toBe(201);
    const session = created.json();
    expect(session).toMatchObject({ participants: ['Dad', 'Uncle Ray'], entryCount: 0, entries: [], location: { waterBody: 'Mille Lacs Lake', precision: 'Exact' } });
    const entry = await createEntry(owner, { sessionId: session.id });
    expect(entry.sessionId).toBe(session.id);
    const full = await get(owner, `/api/fishinglog/sessions/${session.id}`);
    expect(full.json()).toMatchObject({ id: session.id, entryCount: 1, entries: [{ id: entry.id, title: entry.title, occurredAt: entry.occurredAt }] });
    for (const other of [friend, circleMember, stranger]) {
      const res = await get(other, `/api/fishinglog/sessions/${session.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('fishinglog.not_session_owner');
    }
    expect((await get(owner, `/api/fishinglog/sessions/${MISSING_ID}`)).statusCode).toBe(404);
    expect((await get(undefined, `/api/fishinglog/sessions/${session.id}`)).statusCode).toBe(401);
  });

  it("lists only the caller's sessions, newest first", async () => {
    const res = await get(friend, '/api/fishinglog/sessions');
    expect(res.statusCode).toBe(200);
    expect(res.json().every((s: { id: string }) => typeof s.id === 'string')).toBe(true);
    const mine = await get(owner, '/api/fishinglog/sessions');
    expect(mine.json().length).toBeGreaterThan(0);
    const ownerSessionIds = new Set(mine.json().map((s: { id: string }) => s.id));
    expect(res.json().some((s: { id: string }) => ownerSessionIds.has(s.id))).toBe(false);
  });

  it('refuses a session that ends before it starts', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/fishinglog/sessions', headers: owner.headers, payload: { startedAt: '2026-06-01T10:00:00Z', endedAt: '2026-06-01T09:00:00Z' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ pointer: '/endedAt', in: 'body', detail: 'is before startedAt' }]);
  });

  it('hides the session id of an entry from other viewers', async () => {
    const session = (await t.app.inject({ method: 'POST', url: '/api/fishinglog/sessions', headers: owner.headers, payload: { startedAt: '2026-06-01T04:30:00Z' } })).json();
    const entry = await createEntry(owner, { sessionId: session.id, visibility: 'Public' });
    expect((await get(stranger, `/api/fishinglog/entries/${entry.id}`)).json().sessionId).toBeNull();
  });
});
