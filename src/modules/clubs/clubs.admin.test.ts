import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createClub, createUser, type TestUser } from '../../../test/factories.js';

/**
 * GET /api/admin/clubs: every club for administrators (deactivated ones too, which nothing else
 * lists), filtered and paged, with usage statistics; Admin and Owner only.
 */
let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let founder: TestUser;
let joiner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, founder, joiner] = await Promise.all([createUser(t, { role: 'Admin' }), createUser(t, { role: 'Owner' }), createUser(t), createUser(t)]);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload }) });

describe('the administrators’ list of clubs', () => {
  it('lists every club newest first with its usage, deactivated ones included, so that one can be found and reactivated', async () => {
    const open = await createClub(t, founder, { name: 'Zebra Mussel Watch Club', homeWater: 'Lake Zebra' });
    const closed = await createClub(t, founder, { name: 'Zebra Lake Private Anglers', privacy: 'Private', stateCode: 'US-WI', city: 'Hayward', location: { latitude: 46.01, longitude: -91.48 } });
    await call('POST', `/api/clubs/${open.id}/join`, joiner);
    await call('POST', `/api/clubs/${closed.id}/join`, joiner); // a request: the club is private
    expect((await call('POST', `/api/admin/clubs/${open.id}/deactivate`, admin, { reason: 'Spam club advertising charters' })).statusCode).toBe(200);
    // Gone from the public list…
    expect(((await call('GET', '/api/clubs?q=Zebra', joiner)).json() as Array<{ id: string }>).map((c) => c.id)).toEqual([closed.id]);

    // …found by the administrators, with why it was deactivated.
    const res = await call('GET', '/api/admin/clubs?q=Zebra', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.json()).toEqual([
      expect.objectContaining({
        id: closed.id,
        name: 'Zebra Lake Private Anglers',
        privacy: 'Private',
        stateCode: 'US-WI',
        isActive: true,
        deactivatedAt: null,
        deactivationReason: null,
        featured: false,
        owner: { userId: founder.userId, username: founder.username },
        usage: { members: 1, admins: 1, pendingRequests: 1 },
      }),
      expect.objectContaining({
        id: open.id,
        isActive: false,
        deactivatedAt: expect.any(String),
        deactivationReason: 'Spam club advertising charters',
        usage: { members: 2, admins: 1, pendingRequests: 0 },
      }),
    ]);
    expect(res.json()[0]).not.toHaveProperty('myMembership');

    const inactive = (await call('GET', '/api/admin/clubs?q=Zebra&status=Inactive', owner)).json() as Array<{ id: string }>;
    expect(inactive.map((c) => c.id)).toEqual([open.id]);
    expect(((await call('GET', '/api/admin/clubs?q=Zebra&status=Active&privacy=Private&state=US-WI', admin)).json() as Array<{ id: string }>).map((c) => c.id)).toEqual([closed.id]);
    expect((await call('GET', '/api/admin/clubs?q=Zebra&state=US-MN&status=Active', admin)).json()).toEqual([]);

    // Featured now.
    expect((await call('POST', `/api/admin/clubs/${closed.id}/feature`, admin, { reason: 'Club of the month' })).statusCode).toBe(200);
    const featured = (await call('GET', '/api/admin/clubs?q=Zebra&featured=true', admin)).json() as Array<{ id: string; featuredFrom: string | null; featuredUntil: string | null }>;
    expect(featured).toEqual([expect.objectContaining({ id: closed.id, featured: true, featuredFrom: expect.any(String) })]);
    expect(((await call('GET', '/api/admin/clubs?q=Zebra&featured=false', admin)).json() as Array<{ id: string }>).map((c) => c.id)).toEqual([open.id]);

    // Pages.
    const first = await call('GET', '/api/admin/clubs?q=Zebra&pageSize=1', admin);
    expect(first.json()).toHaveLength(1);
    expect(first.headers['x-total-count']).toBe('2');
    expect(((await call('GET', '/api/admin/clubs?q=Zebra&pageSize=1&page=2', admin)).json() as Array<{ id: string }>).map((c) => c.id)).toEqual([open.id]);

    // Reactivated from what the list found.
    expect((await call('POST', `/api/admin/clubs/${open.id}/reactivate`, admin, { reason: 'The owner removed the ads' })).json()).toMatchObject({ isActive: true });
  });

  it('is for Admins and the Owner: 403 for Moderators and anglers, 401 without a token, 400 for an unknown filter value', async () => {
    const moderator = await createUser(t, { role: 'Moderator' });
    for (const user of [moderator, joiner]) expect((await call('GET', '/api/admin/clubs', user)).json()).toMatchObject({ status: 403 });
    expect((await call('GET', '/api/admin/clubs', null)).json()).toMatchObject({ status: 401 });
    expect((await call('GET', '/api/admin/clubs?status=Gone', admin)).json()).toMatchObject({ status: 400 });
    expect((await call('GET', '/api/admin/clubs?privacy=Secret', admin)).json()).toMatchObject({ status: 400 });
    expect((await call('GET', '/api/admin/clubs?pageSize=500', admin)).json()).toMatchObject({ status: 400 });
  });
});
