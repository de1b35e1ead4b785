import { serviceDeps } from '../../core/service-deps.js';
import { recordStatements } from '../../../test/statements.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, createCatch, createEntry, PIKE, WALLEYE } from '../../../test/factories.js';
import { getResearchConsent } from './research-consent.service.js';

let t: TestApp;
let alice: TestUser; // the profile owner
let stranger: TestUser;
let pending: TestUser; // asked alice to be friends; alice has not answered
let friend: TestUser; // mutual friend
let circle: TestUser; // mutual friend in alice's circle

async function post(user: TestUser, url: string) {
  const res = await t.app.inject({ method: 'POST', url, headers: user.headers });
  expect([200, 201], `${url}: ${res.body}`).toContain(res.statusCode);
}

async function putProfile(user: TestUser, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: user.headers, payload });
}

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t, { username: 'alice_angler' });
  stranger = await createUser(t);
  pending = await createUser(t);
  friend = await createUser(t);
  circle = await createUser(t);
  // Relationships through the real social API.
  await post(pending, `/api/social/friends/${alice.userId}`);
  for (const user of [friend, circle]) {
    await post(alice, `/api/social/friends/${user.userId}`);
    await post(user, `/api/social/friends/${alice.userId}`);
  }
  await post(alice, `/api/social/circle/${circle.userId}`);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/userprofile/me', () => {
  it('answers the defaults for a user who never edited a profile (no row is needed)', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: user.userId,
      username: user.username,
      email: user.email,
      role: 'Standard',
      displayName: null,
      bio: null,
      homeState: null,
      homeRegion: null,
      avatarUrl: null,
      avatar: null,
      favouriteSpecies: null,
      unitsPreference: 'Imperial',
      visibility: 'Public',
      researchConsent: { level: 'None', givenAt: null },
      memberSince: expect.any(String),
      updatedAt: null,
      pendingDeletion: null,
    });
    const rows = await t.database.pool.query('SELECT 1 FROM user_profiles WHERE user_id = $1', [user.userId]);
    expect(rows.rowCount).toBe(0);
  });

  it("reads two statements sent at once, the profile's and its avatar's (none to authenticate a token seen before), then none while the view is kept", async () => {
    const user = await createUser(t);
    const patched = await putProfile(user, { researchConsent: 'Anonymized', displayName: 'One Query', favouriteSpeciesId: PIKE });
    expect(patched.statusCode).toBe(200);
    // The PATCH's own NOTIFY may arrive while the first read loads: that read is then not kept
    // (it might predate the change), and the next one reads again. Within a few reads, none.
    const counts: number[] = [];
    for (let i = 0; i < 20 && counts.at(-1) !== 0; i++) {
      let res!: Awaited<ReturnType<typeof t.app.inject>>;
      const statements = await recordStatements(async () => {
        res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(patched.body); // the same answer as the PATCH (built by the transaction's queries)
      expect(res.json().researchConsent).toEqual({ level: 'Anonymized', givenAt: expect.any(String) });
      counts.push(statements.length);
      if (statements.length > 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(counts[0]).toBe(2);
    expect(counts.every((n) => n <= 2)).toBe(true);
    expect(counts.at(-1)).toBe(0);
  });

  it('needs a token (401)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
  });
});

describe('PUT /api/userprofile/me', () => {
  it('creates the profile on first change, normalises texts and answers the whole profile', async () => {
    const user = await createUser(t);
    const res = await putProfile(user, {
      displayName: '  Walleye Wendy ',
      bio: 'Jigging since 1998.',
      homeState: 'us-mn',
      homeRegion: 'Arrowhead',
      avatarUrl: 'https://images.example.com/w.png',
      favouriteSpeciesId: WALLEYE,
      unitsPreference: 'metric',
      visibility: 'Friends',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      userId: user.userId,
      displayName: 'Walleye Wendy',
      bio: 'Jigging since 1998.',
      homeState: 'US-MN',
      homeRegion: 'Arrowhead',
      avatarUrl: 'https://images.example.com/w.png',
      favouriteSpecies: { id: WALLEYE, commonName: 'Walleye' },
      unitsPreference: 'Metric',
      visibility: 'Friends',
      researchConsent: { level: 'None', givenAt: null },
      updatedAt: expect.any(String),
    });
    const again = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });
    expect(again.json()).toEqual(res.json());
  });

  it('changes only the fields sent; null clears', async () => {
    const user = await createUser(t);
    await putProfile(user, { displayName: 'Pike Pete', bio: 'Big teeth.', favouriteSpeciesId: PIKE });
    const res = await putProfile(user, { bio: null, favouriteSpeciesId: null, homeRegion: 'Iron Range' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ displayName: 'Pike Pete', bio: null, favouriteSpecies: null, homeRegion: 'Iron Range', visibility: 'Public' });
  });

  it('sets research consent through the one consent the fishing log uses, without a second copy', async () => {
    const user = await createUser(t);
    const res = await putProfile(user, { researchConsent: 'Anonymized' });
    expect(res.statusCode).toBe(200);
    const consent = await getResearchConsent(serviceDeps(t), user.userId);
    expect(consent.level).toBe('Anonymized');
    expect(res.json().researchConsent).toEqual(consent);
    // Sending the same level again keeps when it was given.
    const same = await putProfile(user, { researchConsent: 'Anonymized', displayName: 'R' });
    expect(same.json().researchConsent).toEqual(consent);
    const changed = await putProfile(user, { researchConsent: 'None' });
    expect(changed.json().researchConsent.level).toBe('None');
    expect((await getResearchConsent(serviceDeps(t), user.userId)).level).toBe('None');
    const columns = await t.database.pool.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'user_profiles' AND column_name ILIKE '%consent%'");
    expect(columns.rowCount).toBe(0);
  });

  it('refuses an unknown species with a 400 naming favouriteSpeciesId', async () => {
    const res = await putProfile(alice, { favouriteSpeciesId: MISSING_ID });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'profiles.unknown_species', errors: [{ pointer: '/favouriteSpeciesId', in: 'body' }] });
  });

  it('refuses a deactivated species as favourite', async () => {
    const retired = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d99';
    await t.database.pool.query("INSERT INTO fish_species (id, common_name, scientific_name, is_active) VALUES ($1, 'Retired fish', 'Piscis retiratus', false)", [retired]);
    const res = await putProfile(alice, { favouriteSpeciesId: retired });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].pointer).toBe('/favouriteSpeciesId');
  });

  it.each([
    [{ email: 'x@example.com' }, '/email'],
    [{ role: 'Owner' }, '/role'],
    [{ visibility: 'Everyone' }, '/visibility'],
    [{ unitsPreference: 'furlongs' }, '/unitsPreference'],
    [{ researchConsent: 'Maybe' }, '/researchConsent'],
    [{ homeState: 'Minnesota' }, '/homeState'],
    [{ avatarUrl: 'javascript:alert(1)' }, '/avatarUrl'],
    [{ displayName: '   ' }, '/displayName'],
    [{ displayName: 'x'.repeat(61) }, '/displayName'],
    [{ favouriteSpeciesId: 'walleye' }, '/favouriteSpeciesId'],
  ])('refuses %j with a 400 naming the field', async (payload, pointer) => {
    const res = await putProfile(alice, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('needs a token (401)', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/userprofile/me', payload: { bio: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

type Viewer = 'owner' | 'stranger' | 'pending' | 'friend' | 'circle';
const viewers = (): Record<Viewer, TestUser> => ({ owner: alice, stranger, pending, friend, circle });

/** Who sees a profile of each visibility (Friends: mutual friends; Circle: alice's circle). */
const MATRIX: Array<[visibility: string, allowed: Viewer[]]> = [
  ['Public', ['owner', 'stranger', 'pending', 'friend', 'circle']],
  ['Friends', ['owner', 'friend', 'circle']],
  ['Circle', ['owner', 'circle']],
  ['Private', ['owner']],
];

describe('GET /api/userprofile/{userId}', () => {
  beforeAll(async () => {
    await putProfile(alice, { displayName: 'Alice', bio: 'Muskie hunter', homeState: 'US-WI', favouriteSpeciesId: PIKE, unitsPreference: 'metric', researchConsent: 'Identified' });
  });

  it.each(MATRIX)('a %s profile is seen by exactly %j', async (visibility, allowed) => {
    expect((await putProfile(alice, { visibility })).statusCode).toBe(200);
    for (const [name, viewer] of Object.entries(viewers())) {
      const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}`, headers: viewer.headers });
      if (allowed.includes(name as Viewer)) {
        expect(res.statusCode, `${visibility} seen by ${name}`).toBe(200);
        expect(res.json()).toEqual({
          avatar: null,
          userId: alice.userId,
          username: 'alice_angler',
          displayName: 'Alice',
          bio: 'Muskie hunter',
          homeState: 'US-WI',
          homeRegion: null,
          avatarUrl: null,
          favouriteSpecies: { id: PIKE, commonName: 'Northern pike' },
          visibility,
          memberSince: expect.any(String),
        });
      } else {
        expect(res.statusCode, `${visibility} hidden from ${name}`).toBe(403);
        expect(res.json().code).toBe('profiles.not_visible');
      }
    }
  });

  it('never shows email, role, units or research consent to others', async () => {
    await putProfile(alice, { visibility: 'Public' });
    const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}`, headers: stranger.headers });
    expect(res.statusCode).toBe(200);
    for (const secret of ['email', 'role', 'unitsPreference', 'researchConsent']) expect(res.json()).not.toHaveProperty(secret);
    expect(res.body).not.toContain(alice.email);
    expect(res.body).not.toContain('Identified');
  });

  it('answers the defaults for a user without a profile row', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${user.userId}`, headers: stranger.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: user.userId, username: user.username, displayName: null, visibility: 'Public', favouriteSpecies: null });
  });

  it('hides a deactivated user’s profile (404)', async () => {
    const user = await createUser(t);
    await t.database.pool.query('UPDATE users SET is_active = false, deactivated_at = now() WHERE id = $1', [user.userId]);
    const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${user.userId}`, headers: stranger.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('profiles.user_not_found');
  });

  it('404 for an unknown user, 400 for a malformed id, 401 without a token', async () => {
    const missing = await t.app.inject({ method: 'GET', url: `/api/userprofile/${MISSING_ID}`, headers: stranger.headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('profiles.user_not_found');
    const bad = await t.app.inject({ method: 'GET', url: '/api/userprofile/alice', headers: stranger.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ pointer: '/userId', in: 'path', detail: 'must be a UUID' }]);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/userprofile/{userId}/personal-bests and /ultimate-pb', () => {
  let pbId: string;
  beforeAll(async () => {
    const privateEntry = await createEntry(t, alice.userId, { visibility: 'Private', title: 'Secret spot' });
    const friendsEntry = await createEntry(t, alice.userId, { visibility: 'Friends', title: 'Pike bay', waterBody: 'Lake of the Woods' });
    await createCatch(t, alice.userId, privateEntry, { speciesId: WALLEYE, weightKg: 4.2, lengthCm: 71 });
    await createCatch(t, alice.userId, friendsEntry, { speciesId: PIKE, lengthCm: 102 });
    const walleye = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: alice.headers, payload: { speciesId: WALLEYE, measure: 'weight' } });
    expect(walleye.statusCode).toBe(201);
    pbId = walleye.json().currentBest.personalBestId;
    const pike = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: alice.headers, payload: { speciesId: PIKE, measure: 'length' } });
    expect(pike.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'PUT', url: `/api/personalbest/${pbId}/set-ultimate`, headers: alice.headers })).statusCode).toBe(200);
  });

  /** The walleye best comes from a Private entry, the pike best from a Friends entry. */
  const bestsSeenBy: Record<Viewer, string[]> = { owner: [WALLEYE, PIKE], friend: [PIKE], circle: [PIKE], stranger: [], pending: [] };

  it.each(MATRIX)('follow a %s profile: seen by exactly %j, each best as far as its entry is visible', async (visibility, allowed) => {
    await putProfile(alice, { visibility });
    for (const [name, viewer] of Object.entries(viewers()) as Array<[Viewer, TestUser]>) {
      const list = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/personal-bests`, headers: viewer.headers });
      const ultimate = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/ultimate-pb`, headers: viewer.headers });
      if (allowed.includes(name)) {
        expect(list.statusCode, `${visibility} list seen by ${name}`).toBe(200);
        const species = list.json().map((pb: { criterion: { species: { id: string } } }) => pb.criterion.species.id);
        expect(species.sort(), `${visibility} bests seen by ${name}`).toEqual([...bestsSeenBy[name]].sort());
        expect(list.headers['x-total-count']).toBe(String(bestsSeenBy[name].length));
        if (name === 'owner') {
          expect(ultimate.statusCode).toBe(200);
          expect(ultimate.json()).toMatchObject({ id: pbId, isUltimate: true, value: 4.2, unit: 'kg' });
        } else {
          // The ultimate best's entry is Private: others are told there is none to show.
          expect(ultimate.statusCode).toBe(404);
          expect(ultimate.body).not.toContain('4.2');
        }
      } else {
        expect(list.statusCode, `${visibility} list hidden from ${name}`).toBe(403);
        expect(list.json().code).toBe('profiles.not_visible');
        expect(ultimate.statusCode).toBe(403);
        expect(ultimate.json().code).toBe('profiles.not_visible');
      }
    }
  });

  it('shows the log entry of a catch only to viewers its own visibility admits', async () => {
    await putProfile(alice, { visibility: 'Public' });
    const entryOf = async (viewer: TestUser) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/personal-bests`, headers: viewer.headers });
      const bySpecies = Object.fromEntries(res.json().map((pb: { criterion: { species: { id: string } }; catch: { entry: unknown } }) => [pb.criterion.species.id, pb.catch.entry]));
      return { walleye: bySpecies[WALLEYE], pike: bySpecies[PIKE] };
    };
    expect(await entryOf(stranger)).toEqual({ walleye: undefined, pike: undefined });
    expect(await entryOf(friend)).toEqual({ walleye: undefined, pike: { id: expect.any(String), title: 'Pike bay', waterBody: 'Lake of the Woods', stateCode: 'US-MN' } });
    expect((await entryOf(alice)).walleye).toMatchObject({ title: 'Secret spot' });
  });

  it('never shows another viewer the previous best (it may come from an entry they cannot see)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/personal-bests`, headers: friend.headers });
    expect(res.json().map((pb: { previous: unknown }) => pb.previous)).toEqual([null]);
  });

  it('404 without an ultimate personal best or for an unknown user; 400 for a malformed id; 401 without a token', async () => {
    const none = await t.app.inject({ method: 'GET', url: `/api/userprofile/${stranger.userId}/ultimate-pb`, headers: alice.headers });
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('personalbests.ultimate_not_set');
    const emptyList = await t.app.inject({ method: 'GET', url: `/api/userprofile/${stranger.userId}/personal-bests`, headers: alice.headers });
    expect(emptyList.statusCode).toBe(200);
    expect(emptyList.json()).toEqual([]);
    for (const suffix of ['personal-bests', 'ultimate-pb']) {
      const missing = await t.app.inject({ method: 'GET', url: `/api/userprofile/${MISSING_ID}/${suffix}`, headers: alice.headers });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('profiles.user_not_found');
      const bad = await t.app.inject({ method: 'GET', url: `/api/userprofile/nope/${suffix}`, headers: alice.headers });
      expect(bad.statusCode).toBe(400);
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/${suffix}` });
      expect(anonymous.statusCode).toBe(401);
    }
    const badFilter = await t.app.inject({ method: 'GET', url: `/api/userprofile/${alice.userId}/personal-bests?measure=girth`, headers: alice.headers });
    expect(badFilter.statusCode).toBe(400);
  });
});
