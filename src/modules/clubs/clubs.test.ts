import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, MISSING_ID, type TestUser, createClub } from '../../../test/factories.js';

let t: TestApp;
let owner: TestUser;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;
let admin: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, ann, bob, cat, admin, moderator] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t), createUser(t, { role: 'Admin' }), createUser(t, { role: 'Moderator' })]);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('public clubs', () => {
  it('the creator owns the club; anyone joins at once and sees the members; leaving; my-clubs with roles', async () => {
    const club = await createClub(t, owner, { name: 'Gull Lake Anglers', homeWater: 'Gull Lake' });
    expect(club).toMatchObject({ name: 'Gull Lake Anglers', privacy: 'Public', memberCount: 1, myMembership: { role: 'Owner', status: 'Active' }, owner: { userId: owner.userId }, members: [{ userId: owner.userId, role: 'Owner', status: 'Active' }] });
    const joined = await call('POST', `/api/clubs/${club.id}/join`, ann);
    expect(joined.json()).toMatchObject({ memberCount: 2, myMembership: { role: 'Member', status: 'Active' } });
    expect((await call('POST', `/api/clubs/${club.id}/join`, ann)).json()).toMatchObject({ status: 409, code: 'clubs.already_member' });
    expect((await call('GET', `/api/clubs/${club.id}`, bob)).json().members.map((m: { userId: string }) => m.userId)).toEqual([owner.userId, ann.userId]);
    const mine = await call('GET', '/api/clubs/my-clubs', ann);
    expect(mine.json()).toEqual([expect.objectContaining({ id: club.id, myMembership: { role: 'Member', status: 'Active' } })]);
    expect((await call('POST', `/api/clubs/${club.id}/leave`, owner)).json()).toMatchObject({ status: 409, code: 'clubs.owner_cannot_leave' });
    expect((await call('POST', `/api/clubs/${club.id}/leave`, ann)).statusCode).toBe(204);
    expect((await call('POST', `/api/clubs/${club.id}/leave`, ann)).json()).toMatchObject({ status: 409, code: 'clubs.not_member' });
    expect((await call('GET', '/api/clubs/my-clubs', ann)).json()).toEqual([]);
    expect((await call('GET', `/api/clubs/${MISSING_ID}`, ann)).statusCode).toBe(404);
    expect((await call('GET', `/api/clubs/${club.id}`, null)).statusCode).toBe(401);
  });

  it('lists active clubs with text, state and near filters', async () => {
    await createClub(t, owner, { name: 'Driftless Trout Club', stateCode: 'US-WI', location: { latitude: 43.0, longitude: -90.9 }, description: 'Spring creeks' });
    await createClub(t, owner, { name: 'Lake Pepin Bass', stateCode: 'US-WI', location: { latitude: 44.45, longitude: -92.2 } });
    const names = async (q: string) => (await call('GET', `/api/clubs?${q}`, ann)).json().map((c: { name: string }) => c.name);
    expect(await names('state=US-WI')).toEqual(['Driftless Trout Club', 'Lake Pepin Bass']);
    expect(await names('q=spring%20creek')).toEqual(['Driftless Trout Club']);
    expect(await names('lat=44.4&lon=-92.2&radiusKm=20')).toEqual(['Lake Pepin Bass']);
    expect((await call('GET', '/api/clubs?lon=-92', ann)).json()).toMatchObject({ status: 400, code: 'clubs.near_incomplete' });
  });
});

describe('the club\'s place', () => {
  it('is location: {latitude, longitude}; the older top-level lat/lon still accepted (deprecated), both at once a 400', async () => {
    const created = await createClub(t, owner, { name: 'Place test club', location: { latitude: 45.1, longitude: -93.2 } });
    expect(created).toMatchObject({ location: { latitude: 45.1, longitude: -93.2 } });
    expect(created).not.toHaveProperty('lat');
    const old = await call('POST', '/api/clubs', owner, { name: 'Old client club', lat: 45.2, lon: -93.3 });
    expect(old.statusCode).toBe(201);
    expect(old.json().location).toEqual({ latitude: 45.2, longitude: -93.3 });
    const both = await call('POST', '/api/clubs', owner, { name: 'Both spellings club', lat: 45.2, location: { latitude: 45.2, longitude: -93.3 } });
    expect(both.json()).toMatchObject({ status: 400, errors: [{ pointer: '/lat' }] });
    const bad = await call('POST', '/api/clubs', owner, { name: 'Bad place club', location: { latitude: 91, longitude: 0 } });
    expect(bad.json()).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/location/latitude', in: 'body' }] });
    const oldBad = await call('POST', '/api/clubs', owner, { name: 'Bad old place club', lat: 45.2, lon: -181 });
    expect(oldBad.json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/longitude', in: 'body' }] });
    const half = await call('POST', '/api/clubs', owner, { name: 'Half a place club', lat: 45.2 });
    expect(half.json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/longitude' }] });
  });

  it('the lists, the detail, my clubs and the admin answers show location and no lat/lon', async () => {
    const club = await createClub(t, owner, { name: 'Shown place club', stateCode: 'US-ND', location: { latitude: 47.9, longitude: -97.05 } });
    const place = { latitude: 47.9, longitude: -97.05 };
    const shown = [
      (await call('GET', `/api/clubs/${club.id}`, ann)).json(),
      (await call('GET', '/api/clubs?state=US-ND', ann)).json()[0],
      (await call('GET', '/api/clubs?lat=47.9&lon=-97.05&radiusKm=1', ann)).json()[0],
      (await call('GET', '/api/clubs/my-clubs', owner)).json().find((c: { id: string }) => c.id === club.id),
      (await call('POST', `/api/admin/clubs/${club.id}/feature`, admin, { reason: 'Placed' })).json(),
      (await call('DELETE', `/api/admin/clubs/${club.id}/feature`, admin)).json(),
    ];
    for (const view of shown) {
      expect(view).toMatchObject({ id: club.id, location: place });
      expect(view.location).toEqual(place);
      expect(view).not.toHaveProperty('lat');
      expect(view).not.toHaveProperty('lon');
    }
  });
});

describe('private clubs', () => {
  it('joining is a request the club admins approve; members only see the member list; roles and removal', async () => {
    const club = await createClub(t, owner, { name: 'Secret Spot Society', privacy: 'Private' });
    const requested = await call('POST', `/api/clubs/${club.id}/join`, ann);
    expect(requested.json()).toMatchObject({ memberCount: 1, myMembership: { role: 'Member', status: 'Pending' }, members: null });
    expect((await call('POST', `/api/clubs/${club.id}/join`, ann)).json()).toMatchObject({ status: 409, code: 'clubs.request_pending' });
    const outsider = await call('GET', `/api/clubs/${club.id}`, bob);
    expect(outsider.json()).toMatchObject({ name: 'Secret Spot Society', members: null });
    expect((await call('GET', `/api/clubs/${club.id}`, moderator)).json().members).toBeNull();
    expect((await call('GET', `/api/clubs/${club.id}`, admin)).json().members).toHaveLength(1);

    expect((await call('POST', `/api/clubs/${club.id}/members/${ann.userId}/approve`, bob)).json()).toMatchObject({ status: 403, code: 'clubs.not_club_admin' });
    expect((await call('GET', `/api/clubs/${club.id}`, owner)).json().members.map((m: { userId: string; status: string }) => [m.userId, m.status])).toEqual([
      [owner.userId, 'Active'],
      [ann.userId, 'Pending'],
    ]);
    const approved = await call('POST', `/api/clubs/${club.id}/members/${ann.userId}/approve`, owner);
    expect(approved.json()).toMatchObject({ memberCount: 2 });
    expect((await call('POST', `/api/clubs/${club.id}/members/${ann.userId}/approve`, owner)).json()).toMatchObject({ status: 409, code: 'clubs.not_pending' });
    expect((await call('GET', `/api/clubs/${club.id}`, ann)).json().members).toHaveLength(2);

    // ann becomes a club admin (owner only), approves bob, may remove members but not the owner or another admin.
    expect((await call('PUT', `/api/clubs/${club.id}/members/${ann.userId}/role`, ann, { role: 'admin' })).json()).toMatchObject({ status: 403, code: 'clubs.not_club_owner' });
    expect((await call('PUT', `/api/clubs/${club.id}/members/${ann.userId}/role`, owner, { role: 'Admin' })).statusCode).toBe(200);
    expect((await call('PUT', `/api/clubs/${club.id}/members/${owner.userId}/role`, owner, { role: 'member' })).json()).toMatchObject({ status: 400, code: 'clubs.owner_role' });
    await call('POST', `/api/clubs/${club.id}/join`, bob);
    await call('POST', `/api/clubs/${club.id}/join`, cat);
    expect((await call('POST', `/api/clubs/${club.id}/members/${bob.userId}/approve`, ann)).json()).toMatchObject({ memberCount: 3 });
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${owner.userId}`, ann)).json()).toMatchObject({ status: 409, code: 'clubs.cannot_remove_owner' });
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${cat.userId}`, bob)).json()).toMatchObject({ status: 403, code: 'clubs.not_club_admin' });
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${cat.userId}`, ann)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${bob.userId}`, ann)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${ann.userId}`, owner)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/clubs/${club.id}/members/${MISSING_ID}`, owner)).json()).toMatchObject({ status: 404, code: 'clubs.member_not_found' });
    expect((await call('GET', `/api/clubs/${club.id}`, owner)).json()).toMatchObject({ memberCount: 1 });
  });
});

describe('administration', () => {
  it('an Admin deactivates (reason required, audit-logged), features and reactivates a club; others may not', async () => {
    const club = await createClub(t, owner, { name: 'Short-lived club', stateCode: 'US-IA', location: { latitude: 42, longitude: -93.5 } });
    for (const user of [moderator, ann]) expect((await call('POST', `/api/admin/clubs/${club.id}/deactivate`, user, { reason: 'Spam club' })).json()).toMatchObject({ status: 403, code: 'access.admin_only' });
    expect((await call('POST', `/api/admin/clubs/${club.id}/deactivate`, admin, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/clubs/${club.id}/deactivate`, admin, { reason: 'Spam club' })).json()).toMatchObject({ isActive: false });
    expect((await call('POST', `/api/admin/clubs/${club.id}/deactivate`, admin, { reason: 'again' })).json()).toMatchObject({ status: 409, code: 'clubs.already_inactive' });
    expect((await auditEntries(t, 'clubs.deactivated')).at(-1)).toMatchObject({ target_id: club.id, reason: 'Spam club' });
    expect((await call('GET', `/api/clubs/${club.id}`, ann)).json()).toMatchObject({ status: 403, code: 'clubs.deactivated' });
    expect((await call('GET', '/api/clubs?state=US-IA', ann)).json()).toEqual([]);
    expect((await call('POST', `/api/admin/clubs/${club.id}/reactivate`, admin, { reason: 'Reviewed' })).json()).toMatchObject({ isActive: true });
    await createClub(t, owner, { name: 'Another Iowa club', stateCode: 'US-IA', location: { latitude: 42, longitude: -93.5 } });
    expect((await call('POST', `/api/admin/clubs/${club.id}/feature`, admin, { reason: 'Club of the month' })).json()).toMatchObject({ featured: true });
    expect((await call('GET', '/api/clubs?state=US-IA', ann)).json().map((c: { name: string }) => c.name)).toEqual(['Short-lived club', 'Another Iowa club']);
    expect((await auditEntries(t, 'clubs.featured')).at(-1)).toMatchObject({ target_id: club.id, reason: 'Club of the month', before: { featuredFrom: null, featuredUntil: null }, after: { featuredUntil: null } });
    expect((await call('DELETE', `/api/admin/clubs/${club.id}/feature`, admin)).json()).toMatchObject({ featured: false });
    expect((await auditEntries(t, 'clubs.unfeatured')).at(-1)).toMatchObject({ target_id: club.id, after: { featuredFrom: null, featuredUntil: null } });
    expect((await call('POST', `/api/admin/clubs/${MISSING_ID}/deactivate`, admin, { reason: 'Spam club' })).statusCode).toBe(404);
  });
});
