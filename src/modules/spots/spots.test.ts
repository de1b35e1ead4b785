import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, MISSING_ID, type TestUser, createSpot, MILLE_LACS_POINT } from '../../../test/factories.js';
import { toPage } from '../../core/http/pagination.js';
import { nearbySelect } from './spots.repository.js';
import { recordStatements } from '../../../test/statements.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;
let kim: TestUser;
let lee: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [jo, sam, kim, lee, admin] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t), createUser(t, { role: 'Admin' })]);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('POST /api/spots', () => {
  it('creates an unverified spot with ramp facts; 401 without a token', async () => {
    const res = await call('POST', '/api/spots', jo, {
      name: 'Cove ramp',
      kind: 'BoatRamp',
      location: { latitude: 46.1474, longitude: -93.4741 },
      waterBody: 'Mille Lacs Lake',
      stateCode: 'us-mn',
      ramp: { rampType: 'Concrete', lanes: 2, parkingSpaces: 30, feeRequired: true, feeCents: 700, accessible: true, seasonal: false },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      photos: [],
      id: expect.any(String),
      name: 'Cove ramp',
      kind: 'BoatRamp',
      privacy: 'Public',
      location: { latitude: 46.1474, longitude: -93.4741, precision: 'Exact' },
      waterBody: 'Mille Lacs Lake',
      stateCode: 'US-MN',
      description: null,
      ramp: { rampType: 'Concrete', lanes: 2, parkingSpaces: 30, feeRequired: true, feeCents: 700, accessible: true, seasonal: false },
      sourceUrl: null,
      county: null,
      agency: null,
      status: 'Unverified',
      verifiedAt: null,
      confirmationCount: 0,
      rating: { average: null, count: 0 },
      featured: false,
      isActive: true,
      createdBy: { userId: jo.userId, username: jo.username },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await call('POST', '/api/spots', null, { name: 'x', kind: 'Spot', location: { latitude: 1, longitude: 1 } })).statusCode).toBe(401);
  });

  it('refuses a private ramp or pier, ramp facts on another kind, and bad coordinates (400 naming the field)', async () => {
    const privateRamp = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Pier', privacy: 'Private', location: { latitude: 46, longitude: -93 } });
    expect(privateRamp.json()).toMatchObject({ status: 400, code: 'spots.facility_public', errors: [{ pointer: '/privacy' }] });
    const facts = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Shore', location: { latitude: 46, longitude: -93 }, ramp: { lanes: 1 } });
    expect(facts.json()).toMatchObject({ code: 'spots.ramp_facts_not_ramp', errors: [{ pointer: '/ramp' }] });
    const bad = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Reef', location: { latitude: 91, longitude: -181 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/kind', '/location/latitude', '/location/longitude']));
  });
});

describe('the older spelling of the point (top-level lat/lon, deprecated)', () => {
  it('is still accepted and answered as location; both spellings at once are a 400', async () => {
    const old = await call('POST', '/api/spots', jo, { name: 'Old client ramp', kind: 'BoatRamp', lat: 46.3, lon: -93.7 });
    expect(old.statusCode).toBe(201);
    expect(old.json().location).toEqual({ latitude: 46.3, longitude: -93.7, precision: 'Exact' });
    expect(old.json()).not.toHaveProperty('lat');
    const both = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Spot', lat: 46.3, location: { latitude: 46.3, longitude: -93.7 } });
    expect(both.json()).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/lat' }] });
    const halfOld = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Spot', lat: 46.3 });
    expect(halfOld.json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/longitude', detail: 'is required' }] });
    const badOld = await call('POST', '/api/spots', jo, { name: 'x', kind: 'Spot', lat: 91, lon: -93.7 });
    expect(badOld.json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/latitude' }] });
  });
});

describe('location privacy', () => {
  it('a spot from a private log is snapped to the 1 km grid for everyone but its owner; facilities are exact', async () => {
    const secret = await createSpot(t, jo, { name: 'Secret hump', privacy: 'Private', location: { latitude: 46.23456, longitude: -93.65432 } });
    expect(secret.location).toEqual({ latitude: 46.23456, longitude: -93.65432, precision: 'Exact' });
    const mine = await call('GET', `/api/spots/${secret.id}`, jo);
    expect(mine.json().location).toEqual({ latitude: 46.23456, longitude: -93.65432, precision: 'Exact' });
    for (const other of [sam, admin]) {
      const theirs = await call('GET', `/api/spots/${secret.id}`, other);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json().location).toEqual({ latitude: 46.23, longitude: -93.65, precision: 'Approximate' });
      expect(JSON.stringify(theirs.json())).not.toContain('46.23456');
    }
    const near = await call('GET', `/api/spots/nearby?lat=46.23&lon=-93.65&radiusKm=1`, sam);
    const found = near.json().find((s: { id: string }) => s.id === secret.id);
    expect(found).toMatchObject({ location: { latitude: 46.23, longitude: -93.65, precision: 'Approximate' }, distanceKm: 0 });
    const ramp = await createSpot(t, jo, { name: 'Town ramp', kind: 'BoatRamp', location: { latitude: 46.24567, longitude: -93.61234 } });
    expect((await call('GET', `/api/spots/${ramp.id}`, sam)).json().location).toEqual({ latitude: 46.24567, longitude: -93.61234, precision: 'Exact' });
  });
});

describe('GET /api/spots/nearby', () => {
  it('lists active spots within the radius, nearest first, with distances; kind filter; pagination', async () => {
    // Far from the seeded boat ramps (South Dakota).
    const centre = { lat: 44.5, lon: -100.5 };
    const far = await createSpot(t, sam, { name: 'Far', kind: 'Shore', location: { latitude: 44.6, longitude: -100.5 } });
    const nearest = await createSpot(t, sam, { name: 'Nearest', kind: 'Pier', location: { latitude: 44.501, longitude: -100.5 } });
    const middle = await createSpot(t, sam, { name: 'Middle', kind: 'Shore', location: { latitude: 44.55, longitude: -100.5 } });
    await createSpot(t, sam, { name: 'Out of range', location: { latitude: 45.5, longitude: -100.5 } });
    const res = await call('GET', `/api/spots/nearby?lat=${centre.lat}&lon=${centre.lon}&radiusKm=20`, kim);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Array<{ id: string; name: string; distanceKm: number }>;
    expect(body.map((s) => s.name)).toEqual(['Nearest', 'Middle', 'Far']);
    expect(body[0]!.distanceKm).toBeCloseTo(0.111, 2);
    expect(body[0]).toMatchObject({ location: { latitude: 44.501, longitude: -100.5, precision: 'Exact' } });
    for (const spot of body) for (const key of ['lat', 'lon']) expect(spot).not.toHaveProperty(key);
    expect(body[2]!.distanceKm).toBeCloseTo(11.13, 1);
    expect(res.headers['x-total-count']).toBe('3');
    const shore = await call('GET', `/api/spots/nearby?lat=${centre.lat}&lon=${centre.lon}&radiusKm=20&kind=Shore&pageSize=1&page=2`, kim);
    expect(shore.json().map((s: { id: string }) => s.id)).toEqual([far.id]);
    expect(shore.headers['x-total-count']).toBe('2');
    expect([nearest.id, middle.id]).not.toContain(far.id);
    // The page's photos come in one statement, whatever the page's size (no statement per spot).
    const statementsFor = async (pageSize: number) => (await recordStatements(() => call('GET', `/api/spots/nearby?lat=${centre.lat}&lon=${centre.lon}&radiusKm=20&pageSize=${pageSize}`, kim))).length;
    expect(await statementsFor(3)).toBe(await statementsFor(1));
  });

  it('400 for a radius over 100 km, a missing centre or an unknown kind; 401 without a token', async () => {
    for (const query of ['lat=46&lon=-93&radiusKm=101', 'lat=46', 'lat=46&lon=-93&kind=Reef', 'lat=46&lon=-93&radiusKm=0']) {
      expect((await call('GET', `/api/spots/nearby?${query}`, jo)).statusCode, query).toBe(400);
    }
    expect((await call('GET', '/api/spots/nearby?lat=46&lon=-93', null)).statusCode).toBe(401);
  });

  it('uses the GiST index on ll_to_earth(public_lat, public_lon)', async () => {
    await t.database.pool.query(
      `INSERT INTO spots (id, owner_id, name, kind, privacy, lat, lon, public_lat, public_lon)
       SELECT gen_random_uuid(), $1, 'Bulk ' || i, 'Spot', 'Public', 40 + (i % 100) * 0.09, -100 + (i / 100) * 0.09, 40 + (i % 100) * 0.09, -100 + (i / 100) * 0.09
       FROM generate_series(1, 5000) AS i`,
      [lee.userId],
    );
    await t.database.pool.query('ANALYZE spots');
    const query = nearbySelect(t.database.db, { ...MILLE_LACS_POINT, radiusKm: 10 }, {}, toPage({})).toSQL();
    const plan = (await t.database.pool.query(`EXPLAIN ${query.sql}`, query.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('spots_public_earth_idx');
  });
});

describe('GET /api/spots/{id}, rating and confirming', () => {
  it('rates 1–5 once per user (re-rating replaces it) and shows the summary with the caller’s rating', async () => {
    const spot = await createSpot(t, jo, { name: 'Rated' });
    const first = await call('POST', `/api/spots/${spot.id}/rate`, sam, { stars: 3, comment: 'Slow day' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ average: 3, count: 1, distribution: { 1: 0, 2: 0, 3: 1, 4: 0, 5: 0 }, mine: { stars: 3, comment: 'Slow day', ratedAt: expect.any(String) } });
    await call('POST', `/api/spots/${spot.id}/rate`, kim, { stars: 4 });
    const again = await call('POST', `/api/spots/${spot.id}/rate`, sam, { stars: 5 });
    expect(again.json()).toMatchObject({ average: 4.5, count: 2, distribution: { 3: 0, 4: 1, 5: 1 }, mine: { stars: 5, comment: null } });
    const detail = await call('GET', `/api/spots/${spot.id}`, jo);
    expect(detail.json()).toMatchObject({ id: spot.id, rating: { average: 4.5, count: 2 }, ratingSummary: { average: 4.5, count: 2, mine: null } });
    for (const stars of [0, 6, 2.5]) expect((await call('POST', `/api/spots/${spot.id}/rate`, sam, { stars })).statusCode).toBe(400);
    expect((await call('POST', `/api/spots/${MISSING_ID}/rate`, sam, { stars: 3 })).json()).toMatchObject({ status: 404, code: 'spots.not_found' });
    expect((await call('POST', `/api/spots/${spot.id}/rate`, null, { stars: 3 })).statusCode).toBe(401);
    expect((await call('GET', `/api/spots/${MISSING_ID}`, sam)).statusCode).toBe(404);
    expect((await call('GET', `/api/spots/${spot.id}`, null)).statusCode).toBe(401);
  });

  it('three confirmations by other anglers verify a spot; not the creator, not twice', async () => {
    const spot = await createSpot(t, jo, { name: 'To confirm' });
    expect((await call('POST', `/api/spots/${spot.id}/confirm`, jo)).json()).toMatchObject({ status: 409, code: 'spots.own_spot' });
    expect((await call('POST', `/api/spots/${spot.id}/confirm`, sam)).json()).toMatchObject({ status: 'Unverified', confirmationCount: 1 });
    expect((await call('POST', `/api/spots/${spot.id}/confirm`, sam)).json()).toMatchObject({ status: 409, code: 'spots.already_confirmed' });
    await call('POST', `/api/spots/${spot.id}/confirm`, kim);
    const verified = await call('POST', `/api/spots/${spot.id}/confirm`, lee);
    expect(verified.json()).toMatchObject({ status: 'Verified', confirmationCount: 3, verifiedAt: expect.any(String) });
    expect((await call('POST', `/api/spots/${spot.id}/confirm`, admin)).json()).toMatchObject({ status: 409, code: 'spots.already_verified' });
    expect((await call('POST', `/api/spots/${MISSING_ID}/confirm`, sam)).statusCode).toBe(404);
  });
});

describe('administration', () => {
  it('an Admin verifies and deactivates a spot (audit-logged); a deactivated spot is 403 to others, hidden from searches', async () => {
    const spot = await createSpot(t, jo, { name: 'Admin target', location: { latitude: 47.5, longitude: -92.5 } });
    for (const user of [sam, kim]) expect((await call('POST', `/api/admin/spots/${spot.id}/verify`, user)).json()).toMatchObject({ status: 403, code: 'access.admin_only' });
    expect((await call('POST', `/api/admin/spots/${spot.id}/verify`, admin)).json()).toMatchObject({ status: 'Verified', verifiedAt: expect.any(String) });
    expect((await call('POST', `/api/admin/spots/${spot.id}/verify`, admin)).json()).toMatchObject({ status: 409, code: 'spots.already_verified' });
    expect((await call('POST', `/api/admin/spots/${spot.id}/deactivate`, admin, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/spots/${spot.id}/deactivate`, admin, { reason: 'Private property' })).json()).toMatchObject({ isActive: false });
    expect((await auditEntries(t, 'spots.deactivated')).at(-1)).toMatchObject({ target_id: spot.id, reason: 'Private property', actor_user_id: admin.userId });
    expect((await call('GET', `/api/spots/${spot.id}`, sam)).json()).toMatchObject({ status: 403, code: 'spots.deactivated' });
    expect((await call('POST', `/api/spots/${spot.id}/rate`, jo, { stars: 4 })).json()).toMatchObject({ status: 409, code: 'spots.deactivated' });
    expect((await call('GET', `/api/spots/${spot.id}`, jo)).json()).toMatchObject({ isActive: false });
    expect((await call('POST', `/api/spots/${spot.id}/rate`, sam, { stars: 2 })).statusCode).toBe(403);
    expect((await call('GET', '/api/spots/nearby?lat=47.5&lon=-92.5&radiusKm=1', sam)).json()).toEqual([]);
    expect((await call('POST', `/api/admin/spots/${spot.id}/reactivate`, admin, { reason: 'Public access confirmed' })).json()).toMatchObject({ isActive: true });
    expect((await call('POST', `/api/admin/spots/${spot.id}/feature`, admin, { reason: 'Spot of the week' })).json()).toMatchObject({ featured: true });
    expect((await auditEntries(t, 'spots.featured')).at(-1)).toMatchObject({ target_id: spot.id, reason: 'Spot of the week', before: { featuredFrom: null } });
    expect((await call('POST', `/api/admin/spots/${MISSING_ID}/verify`, admin)).statusCode).toBe(404);
  });

  it('an Admin corrects the position as location (the older lat/lon still accepted); the point shown follows the privacy; both spellings or a bad latitude are a 400', async () => {
    const spot = await createSpot(t, jo, { name: 'Mislaid hump', privacy: 'Private', location: { latitude: 46.5, longitude: -94.5 } });
    const correct = (body: object) => call('POST', `/api/admin/spots/${spot.id}/correct`, admin, { reason: 'The owner sent the right point', ...body });
    const moved = await correct({ location: { latitude: 46.51234, longitude: -94.56789 } });
    expect(moved.statusCode).toBe(200);
    // The admin is not the owner: the private spot's point is snapped for them too.
    expect(moved.json().location).toEqual({ latitude: 46.51, longitude: -94.57, precision: 'Approximate' });
    expect(moved.json()).not.toHaveProperty('lat');
    expect(moved.json()).not.toHaveProperty('lon');
    expect((await call('GET', `/api/spots/${spot.id}`, jo)).json().location).toEqual({ latitude: 46.51234, longitude: -94.56789, precision: 'Exact' });
    const old = await correct({ lon: -94.6 });
    expect(old.statusCode).toBe(200);
    expect(old.json().location).toEqual({ latitude: 46.51, longitude: -94.6, precision: 'Approximate' });
    expect((await call('GET', `/api/spots/${spot.id}`, jo)).json().location).toEqual({ latitude: 46.51234, longitude: -94.6, precision: 'Exact' });
    const both = await correct({ lat: 46.5, location: { latitude: 46.5 } });
    expect(both.json()).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/lat' }] });
    for (const bad of [{ location: { latitude: 91 } }, { lat: 91 }]) {
      expect((await correct(bad)).json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/latitude' }] });
    }
    expect((await call('GET', `/api/spots/${spot.id}`, jo)).json().location).toEqual({ latitude: 46.51234, longitude: -94.6, precision: 'Exact' });
  });
});

