import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, createCatch, createEntry, deleteCatch, PERCH, PIKE, updateCatch, WALLEYE } from '../../../test/factories.js';

let t: TestApp;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  other = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

async function createCriterion(user: TestUser, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: user.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function myBests(user: TestUser, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/api/personalbest/me${query}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as Array<{ id: string; value: number; isUltimate: boolean; criterion: { id: string }; catch: { id: string }; previous: { id: string; catchId: string | null; value: number } | null }>;
}

const bestOf = async (user: TestUser, criterionId: string) => (await myBests(user)).find((pb) => pb.criterion.id === criterionId);
const ultimateCount = async (userId: string) =>
  (await t.database.pool.query('SELECT count(*)::int AS n FROM personal_bests WHERE owner_id = $1 AND is_ultimate', [userId])).rows[0].n as number;

describe('POST /api/personalbest/me/criteria', () => {
  it('creates a criterion, normalised, without a best while no catch qualifies', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/personalbest/me/criteria',
      headers: user.headers,
      payload: { speciesId: WALLEYE, measure: 'length', waterBody: '  Lake Vermilion ', stateCode: 'us-mn', releasedOnly: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      species: { id: WALLEYE, commonName: 'Walleye' },
      measure: 'Length', // sent as length, the older spelling
      unit: 'cm',
      waterBody: 'Lake Vermilion',
      stateCode: 'US-MN',
      releasedOnly: true,
      createdAt: expect.any(String),
      currentBest: null,
    });
  });

  it('evaluates a criterion created after the catches at once', async () => {
    const user = await createUser(t);
    const entry = await createEntry(t, user.userId);
    await createCatch(t, user.userId, entry, { weightKg: 2.1, caughtAt: '2026-05-01T06:00:00Z' });
    const big = await createCatch(t, user.userId, entry, { weightKg: 3.75, caughtAt: '2026-05-02T06:00:00Z' });
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    expect(criterion.currentBest).toEqual({
      personalBestId: expect.any(String),
      catchId: big.id,
      value: 3.75,
      caughtAt: '2026-05-02T06:00:00.000Z',
      achievedAt: expect.any(String),
    });
  });

  it('refuses an identical criterion with 409 (water body compared case-insensitively)', async () => {
    const user = await createUser(t);
    const first = await createCriterion(user, { speciesId: PIKE, measure: 'length', waterBody: 'Lake of the Woods' });
    const res = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: user.headers, payload: { speciesId: PIKE, measure: 'length', waterBody: 'lake of the woods', releasedOnly: false } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('personalbests.duplicate_criterion');
    expect(res.json().detail).toContain(first.id);
    // Differing in any part is another criterion; another user's identical one is theirs.
    await createCriterion(user, { speciesId: PIKE, measure: 'length', waterBody: 'Lake of the Woods', releasedOnly: true });
    await createCriterion(user, { speciesId: PIKE, measure: 'length' });
    await createCriterion(other, { speciesId: PIKE, measure: 'length', waterBody: 'Lake of the Woods' });
  });

  it('refuses an unknown species with a 400 naming speciesId', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: other.headers, payload: { speciesId: MISSING_ID, measure: 'weight' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'personalbests.unknown_species', errors: [{ pointer: '/speciesId', in: 'body', detail: 'is not a known species' }] });
  });

  it.each([
    [{ measure: 'weight' }, '/speciesId'],
    [{ speciesId: WALLEYE }, '/measure'],
    [{ speciesId: WALLEYE, measure: 'girth' }, '/measure'],
    [{ speciesId: 'walleye', measure: 'weight' }, '/speciesId'],
    [{ speciesId: WALLEYE, measure: 'weight', stateCode: 'Minnesota' }, '/stateCode'],
    [{ speciesId: WALLEYE, measure: 'weight', waterBody: '  ' }, '/waterBody'],
    [{ speciesId: WALLEYE, measure: 'weight', releasedOnly: 'yes' }, '/releasedOnly'],
    [{ speciesId: WALLEYE, measure: 'weight', ownerId: MISSING_ID }, '/ownerId'],
  ])('refuses %j with a 400 naming the field', async (payload, pointer) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', headers: other.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('needs a token (401)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/personalbest/me/criteria', payload: { speciesId: WALLEYE, measure: 'weight' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/personalbest/me/criteria', () => {
  it('lists only the caller’s criteria, newest first, paginated and filtered', async () => {
    const user = await createUser(t);
    const a = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    const b = await createCriterion(user, { speciesId: WALLEYE, measure: 'length' });
    const c = await createCriterion(user, { speciesId: PIKE, measure: 'length' });
    const all = await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria', headers: user.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.headers['x-total-count']).toBe('3');
    const page = await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria?pageSize=1&page=2', headers: user.headers });
    expect(page.json().map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(page.headers.link).toContain('rel="next"');
    const walleye = await t.app.inject({ method: 'GET', url: `/api/personalbest/me/criteria?speciesId=${WALLEYE}&measure=length`, headers: user.headers });
    expect(walleye.json().map((x: { id: string }) => x.id)).toEqual([b.id]);
  });

  it('400 for a bad filter, 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria?measure=girth', headers: other.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria' })).statusCode).toBe(401);
  });
});

describe('automatic personal-best detection', () => {
  it('sets a best when a catch qualifies, then a new best with its previous one when beaten', async () => {
    const user = await createUser(t);
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    const entry = await createEntry(t, user.userId, { waterBody: 'Lake Vermilion', title: 'Opener' });
    const first = await createCatch(t, user.userId, entry, { weightKg: 2.5, lengthCm: 60, caughtAt: '2026-05-10T06:00:00Z' });
    expect(first.changes).toEqual([{ criterionId: criterion.id, personalBestId: expect.any(String), catchId: first.id, previousCatchId: null, kind: 'NewBest' }]);
    const smaller = await createCatch(t, user.userId, entry, { weightKg: 1.9, caughtAt: '2026-05-11T06:00:00Z' });
    expect(smaller.changes).toEqual([]);
    const bigger = await createCatch(t, user.userId, entry, { weightKg: 3.1, released: true, caughtAt: '2026-05-12T06:00:00Z' });
    expect(bigger.changes).toEqual([{ criterionId: criterion.id, personalBestId: expect.any(String), catchId: bigger.id, previousCatchId: first.id, kind: 'NewBest' }]);

    const list = await myBests(user);
    expect(list).toEqual([
      {
        id: bigger.changes[0]!.personalBestId,
        criterion: { id: criterion.id, species: { id: WALLEYE, commonName: 'Walleye' }, measure: 'Weight', unit: 'kg', waterBody: null, stateCode: null, releasedOnly: false },
        value: 3.1,
        unit: 'kg',
        caughtAt: '2026-05-12T06:00:00.000Z',
        achievedAt: expect.any(String),
        isUltimate: false,
        catch: { id: bigger.id, lengthCm: null, weightKg: 3.1, released: true, caughtAt: '2026-05-12T06:00:00.000Z', entry: { id: entry.id, title: 'Opener', waterBody: 'Lake Vermilion', stateCode: 'US-MN' } },
        previous: { id: first.changes[0]!.personalBestId, catchId: first.id, value: 2.5, caughtAt: '2026-05-10T06:00:00.000Z', achievedAt: expect.any(String) },
      },
    ]);
    const criteria = (await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria', headers: user.headers })).json();
    expect(criteria[0].currentBest).toMatchObject({ personalBestId: list[0]!.id, catchId: bigger.id, value: 3.1 });
  });

  it('breaks ties in favour of the earliest catch', async () => {
    const user = await createUser(t);
    const criterion = await createCriterion(user, { speciesId: PIKE, measure: 'length' });
    const entry = await createEntry(t, user.userId);
    const holder = await createCatch(t, user.userId, entry, { speciesId: PIKE, lengthCm: 95, caughtAt: '2026-06-02T06:00:00Z' });
    // As long, caught later: the record holder keeps it.
    const later = await createCatch(t, user.userId, entry, { speciesId: PIKE, lengthCm: 95, caughtAt: '2026-06-03T06:00:00Z' });
    expect(later.changes).toEqual([]);
    expect((await bestOf(user, criterion.id))!.catch.id).toBe(holder.id);
    // As long, caught earlier (logged afterwards): the earliest catch holds the record.
    const earlier = await createCatch(t, user.userId, entry, { speciesId: PIKE, lengthCm: 95, caughtAt: '2026-06-01T06:00:00Z' });
    expect(earlier.changes).toEqual([expect.objectContaining({ catchId: earlier.id, previousCatchId: holder.id, kind: 'NewBest' })]);
    const best = (await bestOf(user, criterion.id))!;
    expect(best.catch.id).toBe(earlier.id);
    expect(best.previous).toMatchObject({ catchId: holder.id, value: 95 });
  });

  it('falls back to the next best when the best catch is edited downwards, and back again when corrected', async () => {
    const user = await createUser(t);
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    const entry = await createEntry(t, user.userId);
    const small = await createCatch(t, user.userId, entry, { weightKg: 1.5, caughtAt: '2026-05-01T06:00:00Z' });
    const second = await createCatch(t, user.userId, entry, { weightKg: 2.8, caughtAt: '2026-05-02T06:00:00Z' });
    const top = await createCatch(t, user.userId, entry, { weightKg: 5.2, caughtAt: '2026-05-03T06:00:00Z' });
    expect((await bestOf(user, criterion.id))!.catch.id).toBe(top.id);

    // 5.2 kg was a typo for 2.5 kg: the 2.8 kg fish is the best again, and its previous best is the 1.5 kg one.
    const changes = await updateCatch(t, user.userId, top.id, { weightKg: 2.5 });
    expect(changes).toEqual([{ criterionId: criterion.id, personalBestId: expect.any(String), catchId: second.id, previousCatchId: top.id, kind: 'Fallback' }]);
    const fallback = (await bestOf(user, criterion.id))!;
    expect(fallback).toMatchObject({ value: 2.8, catch: { id: second.id }, previous: { catchId: small.id, value: 1.5 } });

    // The same catch edited upwards stays the best and shows its new measure.
    expect(await updateCatch(t, user.userId, second.id, { weightKg: 2.9 })).toEqual([]);
    expect((await bestOf(user, criterion.id))!).toMatchObject({ id: fallback.id, value: 2.9 });

    // Corrected once more to 6 kg: a new best again, replacing the 2.9 kg one.
    const again = await updateCatch(t, user.userId, top.id, { weightKg: 6 });
    expect(again).toEqual([expect.objectContaining({ catchId: top.id, previousCatchId: second.id, kind: 'NewBest' })]);
    expect((await bestOf(user, criterion.id))!).toMatchObject({ value: 6, previous: { catchId: second.id, value: 2.9 } });

    const history = await t.database.pool.query('SELECT status, value::float8 AS value FROM personal_bests WHERE criterion_id = $1 ORDER BY achieved_at, id', [criterion.id]);
    expect(history.rows).toEqual([
      { status: 'beaten', value: 1.5 },
      { status: 'beaten', value: 2.8 },
      { status: 'withdrawn', value: 5.2 },
      { status: 'beaten', value: 2.9 },
      { status: 'current', value: 6 },
    ]);
  });

  it('falls back when the best catch is deleted or stops matching, and drops the best when nothing qualifies', async () => {
    const user = await createUser(t);
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'length' });
    const entry = await createEntry(t, user.userId);
    const a = await createCatch(t, user.userId, entry, { lengthCm: 50, caughtAt: '2026-05-01T06:00:00Z' });
    const b = await createCatch(t, user.userId, entry, { lengthCm: 64, caughtAt: '2026-05-02T06:00:00Z' });
    // A deleted catch leaves no id behind: previousCatchId is null, the kind says what happened.
    expect(await deleteCatch(t, user.userId, b.id)).toEqual([expect.objectContaining({ catchId: a.id, previousCatchId: null, kind: 'Fallback' })]);
    expect((await bestOf(user, criterion.id))!).toMatchObject({ value: 50, previous: null });
    // Re-identified as a perch: no walleye left.
    expect(await updateCatch(t, user.userId, a.id, { speciesId: PERCH })).toEqual([]);
    expect(await myBests(user)).toEqual([]);
    const criteria = (await t.app.inject({ method: 'GET', url: '/api/personalbest/me/criteria', headers: user.headers })).json();
    expect(criteria[0].currentBest).toBeNull();
  });

  it('applies the criterion’s water body, state, released-only and measure; ignores other users and multi-fish records', async () => {
    const user = await createUser(t);
    const lake = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight', waterBody: 'lake vermilion' });
    const wisconsin = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight', stateCode: 'US-WI' });
    const released = await createCriterion(user, { speciesId: WALLEYE, measure: 'length', releasedOnly: true });
    const vermilion = await createEntry(t, user.userId, { waterBody: 'Lake Vermilion ', stateCode: 'US-MN' });
    const winnebago = await createEntry(t, user.userId, { waterBody: 'Lake Winnebago', stateCode: 'US-WI' });
    const v = await createCatch(t, user.userId, vermilion, { weightKg: 2, lengthCm: 55, released: false });
    const w = await createCatch(t, user.userId, winnebago, { weightKg: 3, released: true });
    const r = await createCatch(t, user.userId, winnebago, { weightKg: 1, lengthCm: 45, released: true });
    await createCatch(t, user.userId, vermilion, { weightKg: 9, lengthCm: 90, count: 3 });
    const otherEntry = await createEntry(t, other.userId);
    await createCatch(t, other.userId, otherEntry, { weightKg: 8, lengthCm: 80, released: true });

    expect((await bestOf(user, lake.id))!.catch.id).toBe(v.id);
    expect((await bestOf(user, wisconsin.id))!.catch.id).toBe(w.id);
    expect((await bestOf(user, released.id))!.catch.id).toBe(r.id);
    const filtered = await myBests(user, '?measure=length');
    expect(filtered.map((pb) => pb.criterion.id)).toEqual([released.id]);
  });

  it('keeps one current best per criterion when catches are added concurrently', async () => {
    const user = await createUser(t);
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    const entry = await createEntry(t, user.userId);
    const added = await Promise.all([1, 2, 3, 4, 5, 6].map((kg) => createCatch(t, user.userId, entry, { weightKg: kg, caughtAt: `2026-05-0${kg}T06:00:00Z` })));
    const best = (await bestOf(user, criterion.id))!;
    expect(best).toMatchObject({ value: 6, catch: { id: added[5]!.id } });
    const current = await t.database.pool.query("SELECT count(*)::int AS n FROM personal_bests WHERE criterion_id = $1 AND status = 'current'", [criterion.id]);
    expect(current.rows[0].n).toBe(1);
  });
});

describe('lock order', () => {
  it('takes the personal-best lock before the entry row when a catch is added through the API', async () => {
    const user = await createUser(t);
    const entry = await createEntry(t, user.userId);
    const holder = await t.database.owner.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM fishing_log_entries WHERE id = $1 FOR UPDATE', [entry.id]);
      const adding = t.app.inject({ method: 'POST', url: `/api/fishinglog/entries/${entry.id}/catches`, headers: user.headers, payload: { speciesId: WALLEYE, released: true, lengthCm: 40 } });
      // While it waits for the entry row, the request holds the owner's personal-best lock already.
      await vi.waitFor(async () => {
        const held = await holder.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = hashtext($2::text)::oid AND objsubid = 2 AND pid <> pg_backend_pid()",
          [0x50424553, user.userId],
        );
        expect(held.rows[0].n).toBe(1);
      });
      await holder.query('COMMIT');
      expect((await adding).statusCode).toBe(201);
    } finally {
      holder.release();
    }
  });
});

describe('GET /api/personalbest/me', () => {
  it('lists only the caller’s bests, newest first, paginated', async () => {
    const user = await createUser(t);
    const entry = await createEntry(t, user.userId);
    await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    await createCriterion(user, { speciesId: PIKE, measure: 'weight' });
    await createCatch(t, user.userId, entry, { weightKg: 2 });
    const pike = await createCatch(t, user.userId, entry, { speciesId: PIKE, weightKg: 6 });
    const res = await t.app.inject({ method: 'GET', url: '/api/personalbest/me?pageSize=1', headers: user.headers });
    expect(res.json().map((pb: { catch: { id: string } }) => pb.catch.id)).toEqual([pike.id]);
    expect(res.headers['x-total-count']).toBe('2');
    const mine = await myBests(other);
    expect(mine.every((pb) => pb.catch.id !== pike.id)).toBe(true);
  });

  it('400 for bad query parameters, 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/personalbest/me?speciesId=x', headers: other.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/personalbest/me?pageSize=101', headers: other.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/personalbest/me' })).statusCode).toBe(401);
  });
});

describe('PUT /api/personalbest/{pbId}/set-ultimate', () => {
  async function userWithBests(n: number) {
    const user = await createUser(t);
    const entry = await createEntry(t, user.userId, { visibility: 'Public' });
    const species = [WALLEYE, PIKE, PERCH];
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const speciesId = species[i % 3]!;
      const measure = i < 3 ? 'weight' : 'length';
      // Each catch has only the measure of its own criterion, so no catch beats another's best.
      await createCatch(t, user.userId, entry, measure === 'weight' ? { speciesId, weightKg: 1 + i } : { speciesId, lengthCm: 40 + i });
      ids.push((await createCriterion(user, { speciesId, measure })).currentBest.personalBestId);
    }
    return { user, entry, ids };
  }
  const setUltimate = (user: TestUser | undefined, pbId: string) =>
    t.app.inject({ method: 'PUT', url: `/api/personalbest/${pbId}/set-ultimate`, ...(user ? { headers: user.headers } : {}) });

  it('makes one best the ultimate one and moves it on the next choice', async () => {
    const { user, ids } = await userWithBests(2);
    const first = await setUltimate(user, ids[0]!);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: ids[0], isUltimate: true });
    expect((await setUltimate(user, ids[0]!)).statusCode).toBe(200); // idempotent
    const second = await setUltimate(user, ids[1]!);
    expect(second.json()).toMatchObject({ id: ids[1], isUltimate: true });
    const list = await myBests(user);
    expect(list.filter((pb) => pb.isUltimate).map((pb) => pb.id)).toEqual([ids[1]]);
    const shown = await t.app.inject({ method: 'GET', url: `/api/userprofile/${user.userId}/ultimate-pb`, headers: other.headers });
    expect(shown.json()).toMatchObject({ id: ids[1], isUltimate: true });
  });

  it('follows its criterion when a better catch takes over, and refuses the replaced best (409)', async () => {
    const { user, entry, ids } = await userWithBests(1);
    await setUltimate(user, ids[0]!);
    const bigger = await createCatch(t, user.userId, entry, { weightKg: 10 });
    const ultimate = await t.app.inject({ method: 'GET', url: `/api/userprofile/${user.userId}/ultimate-pb`, headers: user.headers });
    expect(ultimate.json()).toMatchObject({ id: bigger.changes[0]!.personalBestId, isUltimate: true, catch: { id: bigger.id }, previous: { id: ids[0] } });
    const replaced = await setUltimate(user, ids[0]!);
    expect(replaced.statusCode).toBe(409);
    expect(replaced.json().code).toBe('personalbests.not_current');
    expect(await ultimateCount(user.userId)).toBe(1);
  });

  it('keeps exactly one ultimate under concurrent calls', async () => {
    const { user, ids } = await userWithBests(6);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(ids.map((id) => setUltimate(user, id)));
      expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
      expect(await ultimateCount(user.userId)).toBe(1);
    }
  });

  it('is guarded by a partial unique index: a second ultimate row is refused by the database', async () => {
    const { user, ids } = await userWithBests(2);
    await setUltimate(user, ids[0]!);
    await expect(t.database.pool.query('UPDATE personal_bests SET is_ultimate = true WHERE id = $1', [ids[1]])).rejects.toMatchObject({
      code: '23505',
      constraint: 'personal_bests_one_ultimate_per_owner',
    });
  });

  it('owner only (403), 404 for an unknown id, 400 for a malformed id, 401 without a token', async () => {
    const { user, ids } = await userWithBests(1);
    const foreign = await setUltimate(other, ids[0]!);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('personalbests.not_owner');
    expect(await ultimateCount(user.userId)).toBe(0);
    const missing = await setUltimate(user, MISSING_ID);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('personalbests.not_found');
    const bad = await setUltimate(user, 'best');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ pointer: '/pbId', in: 'path', detail: 'must be a UUID' }]);
    expect((await setUltimate(undefined, ids[0]!)).statusCode).toBe(401);
  });
});

describe('DELETE /api/personalbest/me/criteria/{criterionId}', () => {
  it('deletes the criterion with its history; owner only', async () => {
    const user = await createUser(t);
    const entry = await createEntry(t, user.userId);
    await createCatch(t, user.userId, entry, { weightKg: 2 });
    const criterion = await createCriterion(user, { speciesId: WALLEYE, measure: 'weight' });
    await t.app.inject({ method: 'PUT', url: `/api/personalbest/${criterion.currentBest.personalBestId}/set-ultimate`, headers: user.headers });

    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/personalbest/me/criteria/${criterion.id}`, headers: other.headers });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('personalbests.criterion_not_owner');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/personalbest/me/criteria/${criterion.id}` })).statusCode).toBe(401);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/personalbest/me/criteria/${criterion.id}`, headers: user.headers });
    expect(res.statusCode).toBe(204);
    expect(await myBests(user)).toEqual([]);
    expect(await ultimateCount(user.userId)).toBe(0);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/personalbest/me/criteria/${criterion.id}`, headers: user.headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('personalbests.criterion_not_found');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/personalbest/me/criteria/1', headers: user.headers })).statusCode).toBe(400);
  });
});
