import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createSpot, createUser, type TestUser } from '../../../test/factories.js';

/**
 * GET /api/admin/spots: every spot for administrators (deactivated ones too, which no search
 * finds), filtered and paged, with usage statistics; Admin and Owner only.
 */
let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let angler: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, angler, other] = await Promise.all([createUser(t, { role: 'Admin' }), createUser(t, { role: 'Owner' }), createUser(t), createUser(t)]);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload }) });

describe('the administrators’ list of spots', () => {
  it('lists every spot newest first with its usage, deactivated ones included, so that one can be found and reactivated', async () => {
    const ramp = await createSpot(t, angler, { name: 'Quillback Bay ramp', kind: 'BoatRamp', ramp: { rampType: 'Concrete', lanes: 2 } });
    const hole = await createSpot(t, angler, { name: 'Quillback hole', waterBody: 'Quillback Lake', stateCode: 'US-WI' });
    expect((await call('POST', `/api/spots/${ramp.id}/rate`, other, { stars: 4 })).statusCode).toBe(200);
    expect((await call('POST', `/api/spots/${ramp.id}/confirm`, other)).statusCode).toBe(200);
    expect((await call('POST', `/api/admin/spots/${hole.id}/deactivate`, admin, { reason: 'Duplicate of another spot' })).statusCode).toBe(200);

    const res = await call('GET', '/api/admin/spots?q=Quillback', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.json()).toEqual([
      expect.objectContaining({ id: hole.id, name: 'Quillback hole', kind: 'Spot', isActive: false, deactivatedAt: expect.any(String), deactivationReason: 'Duplicate of another spot', stateCode: 'US-WI' }),
      expect.objectContaining({
        id: ramp.id,
        kind: 'BoatRamp',
        status: 'Unverified',
        isActive: true,
        deactivationReason: null,
        featured: false,
        featuredFrom: null,
        createdBy: { userId: angler.userId, username: angler.username },
        usage: { ratings: 1, averageRating: 4, confirmations: 1, photos: 0 },
      }),
    ]);
    expect(res.json()[0]).not.toHaveProperty('photos');

    const ids = async (query: string, user = admin) => ((await call('GET', `/api/admin/spots?q=Quillback&${query}`, user)).json() as Array<{ id: string }>).map((s) => s.id);
    expect(await ids('status=Inactive', owner)).toEqual([hole.id]);
    expect(await ids('status=Active&kind=BoatRamp')).toEqual([ramp.id]);
    expect(await ids('state=US-WI')).toEqual([hole.id]);
    expect(await ids('reference=false&status=Active')).toEqual([ramp.id]);
    expect(await ids('reference=true')).toEqual([]);
    expect((await call('POST', `/api/admin/spots/${ramp.id}/verify`, admin, { reason: 'Matches the state ramp directory' })).statusCode).toBe(200);
    expect(await ids('verification=Verified')).toEqual([ramp.id]);
    expect(await ids('verification=Unverified')).toEqual([hole.id]);
    expect((await call('POST', `/api/admin/spots/${ramp.id}/feature`, admin, { reason: 'Opening weekend promotion' })).statusCode).toBe(200);
    expect(await ids('featured=true')).toEqual([ramp.id]);
    expect(await ids('featured=false')).toEqual([hole.id]);
    // The water body searches too; pages.
    expect(((await call('GET', '/api/admin/spots?q=Quillback%20Lake', admin)).json() as Array<{ id: string }>).map((s) => s.id)).toEqual([hole.id]);
    const second = await call('GET', '/api/admin/spots?q=Quillback&pageSize=1&page=2', admin);
    expect(second.headers['x-total-count']).toBe('2');
    expect((second.json() as Array<{ id: string }>).map((s) => s.id)).toEqual([ramp.id]);

    // Reactivated from what the list found.
    expect((await call('POST', `/api/admin/spots/${hole.id}/reactivate`, admin, { reason: 'Not a duplicate after all' })).json()).toMatchObject({ isActive: true });
  });

  it('lists reference spots (agency data, no owner) with `reference=true`', async () => {
    const reference = (await call('GET', '/api/admin/spots?reference=true&pageSize=5', admin)).json() as Array<{ createdBy: unknown; agency: string | null }>;
    expect(reference.length).toBeGreaterThan(0); // the seeded agency ramps
    for (const spot of reference) expect(spot).toMatchObject({ createdBy: null, agency: expect.any(String) });
  });

  it('is for Admins and the Owner: 403 for Moderators and anglers, 401 without a token, 400 for an unknown filter value', async () => {
    const moderator = await createUser(t, { role: 'Moderator' });
    for (const user of [moderator, angler]) expect((await call('GET', '/api/admin/spots', user)).json()).toMatchObject({ status: 403 });
    expect((await call('GET', '/api/admin/spots', null)).json()).toMatchObject({ status: 401 });
    expect((await call('GET', '/api/admin/spots?kind=Lake', admin)).json()).toMatchObject({ status: 400 });
    expect((await call('GET', '/api/admin/spots?verification=Maybe', admin)).json()).toMatchObject({ status: 400 });
    expect((await call('GET', '/api/admin/spots?state=Minnesota', admin)).json()).toMatchObject({ status: 400 });
  });
});
