import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, type Staff, type TestUser, createEvent } from '../../../test/factories.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;
let staff: Staff;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  [jo, sam] = await Promise.all([createUser(t), createUser(t)]);
  staff = await createStaff(t, 'Events.Approve', { otherPermission: 'Events.View' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('proposing and reviewing events', () => {
  it('a proposed event is PendingApproval, seen by its creator and administrators only; approval publishes it (audit-logged)', async () => {
    const event = await createEvent(t, jo, { title: 'Spring swap meet', type: 'SwapMeet', capacity: 50 });
    expect(event).toMatchObject({ title: 'Spring swap meet', type: 'SwapMeet', status: 'PendingApproval', capacity: 50, registeredCount: 0, spotsLeft: 50, registered: false, featured: false, createdBy: { userId: jo.userId } });
    expect((await call('GET', `/api/events/${event.id}`, jo)).statusCode).toBe(200);
    expect((await call('GET', `/api/events/${event.id}`, staff.admin)).statusCode).toBe(200);
    expect((await call('GET', `/api/events/${event.id}`, sam)).json()).toMatchObject({ status: 403, code: 'events.not_public' });
    expect((await call('GET', '/api/events', sam)).json().map((e: { id: string }) => e.id)).not.toContain(event.id);
    expect((await call('GET', `/api/events/${MISSING_ID}`, sam)).statusCode).toBe(404);
    expect((await call('GET', `/api/events/${event.id}`, null)).statusCode).toBe(401);

    const pending = await call('GET', '/api/admin/events', staff.moderator);
    expect(pending.json().map((e: { id: string }) => e.id)).toContain(event.id);
    for (const user of [staff.standard, staff.grantedModerator]) expect((await call('GET', '/api/admin/events', user)).statusCode).toBe(403);

    for (const user of [staff.deniedAdmin, staff.moderator, staff.standard, jo]) {
      expect((await call('POST', `/api/admin/events/${event.id}/approve`, user)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    }
    const approved = await call('POST', `/api/admin/events/${event.id}/approve`, staff.grantedModerator);
    expect(approved.json()).toMatchObject({ id: event.id, status: 'Approved' });
    expect((await call('POST', `/api/admin/events/${event.id}/approve`, staff.admin)).json()).toMatchObject({ status: 409, code: 'events.already_decided' });
    expect((await call('GET', `/api/events/${event.id}`, sam)).json()).toMatchObject({ status: 'Approved', rejectionReason: null });
    expect((await auditEntries(t, 'events.approved')).at(-1)).toMatchObject({ target_id: event.id, actor_user_id: staff.grantedModerator.userId });
    expect((await call('POST', `/api/admin/events/${MISSING_ID}/approve`, staff.admin)).statusCode).toBe(404);
  });

  it('rejection needs Events.Reject and a reason, which the creator sees', async () => {
    const event = await createEvent(t, jo, { title: 'Mystery expo', type: 'Expo' });
    expect((await call('POST', `/api/admin/events/${event.id}/reject`, staff.admin, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/events/${event.id}/reject`, staff.grantedModerator, { reason: 'No venue' })).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    const rejected = await call('POST', `/api/admin/events/${event.id}/reject`, staff.admin, { reason: 'No venue address given' });
    expect(rejected.json()).toMatchObject({ status: 'Rejected', rejectionReason: 'No venue address given' });
    expect((await call('GET', `/api/events/${event.id}`, jo)).json()).toMatchObject({ status: 'Rejected', rejectionReason: 'No venue address given' });
    expect((await call('GET', `/api/events/${event.id}`, sam)).statusCode).toBe(403);
    expect((await auditEntries(t, 'events.rejected')).at(-1)).toMatchObject({ target_id: event.id, reason: 'No venue address given' });
  });

  it('400 for an event ending before it starts, in the past, or with a deadline after the start', async () => {
    const start = Date.now() + 10 * DAY;
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = { title: 'Bad', type: 'Other', venueName: 'x', location: { latitude: 46, longitude: -94 } };
    expect((await call('POST', '/api/events', jo, { ...base, startsAt: iso(start), endsAt: iso(start - 1000) })).json()).toMatchObject({ code: 'events.ends_before_start' });
    expect((await call('POST', '/api/events', jo, { ...base, startsAt: iso(Date.now() - 2 * DAY), endsAt: iso(Date.now() - DAY) })).json()).toMatchObject({ code: 'events.in_past' });
    expect((await call('POST', '/api/events', jo, { ...base, startsAt: iso(start), endsAt: iso(start + 1000), registrationDeadline: iso(start + 1) })).json()).toMatchObject({ code: 'events.deadline_after_start' });
    expect((await call('POST', '/api/events', jo, { ...base, type: 'Rave', startsAt: iso(start), endsAt: iso(start) })).statusCode).toBe(400);
    expect((await call('POST', '/api/events', null, { ...base, startsAt: iso(start), endsAt: iso(start) })).statusCode).toBe(401);
  });
});

describe('the venue\'s place', () => {
  it('is venue.location; the older top-level lat/lon of the body still accepted (deprecated)', async () => {
    const start = Date.now() + 20 * DAY;
    const body = { title: 'Old client expo', type: 'Expo', venueName: 'Hall', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 3_600_000).toISOString() };
    const old = await call('POST', '/api/events', jo, { ...body, lat: 46.1, lon: -94.1 });
    expect(old.statusCode).toBe(201);
    expect(old.json().venue).toEqual({ name: 'Hall', address: null, city: null, stateCode: null, location: { latitude: 46.1, longitude: -94.1 } });
    const both = await call('POST', '/api/events', jo, { ...body, lon: -94.1, location: { latitude: 46.1, longitude: -94.1 } });
    expect(both.json()).toMatchObject({ status: 400, errors: [{ pointer: '/lon' }] });
    const bad = await call('POST', '/api/events', jo, { ...body, location: { latitude: -90.5, longitude: -94.1 } });
    expect(bad.json()).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/location/latitude', in: 'body' }] });
    const oldBad = await call('POST', '/api/events', jo, { ...body, lat: 46.1, lon: 200 });
    expect(oldBad.json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/longitude', in: 'body' }] });
  });

  it('the new spelling; the lists, the detail and the admin answers show venue.location and no lat/lon', async () => {
    const proposed = await createEvent(t, jo, { title: 'Placed seminar', stateCode: 'US-ND', venueName: 'Hall', address: '1 Main St', city: 'Fargo', location: { latitude: 46.877, longitude: -96.79 } });
    const venue = { name: 'Hall', address: '1 Main St', city: 'Fargo', stateCode: 'US-ND', location: { latitude: 46.877, longitude: -96.79 } };
    expect(proposed.venue).toEqual(venue);
    const shown = [
      (await call('GET', '/api/admin/events', staff.admin)).json().find((e: { id: string }) => e.id === proposed.id),
      (await call('POST', `/api/admin/events/${proposed.id}/approve`, staff.admin)).json(),
      (await call('GET', `/api/events/${proposed.id}`, sam)).json(),
      (await call('GET', '/api/events?state=US-ND', sam)).json()[0],
      (await call('GET', '/api/events?lat=46.877&lon=-96.79&radiusKm=1', sam)).json()[0],
      (await call('POST', `/api/admin/events/${proposed.id}/feature`, staff.admin, { reason: 'Placed' })).json(),
    ];
    for (const event of shown) {
      expect(event).toMatchObject({ id: proposed.id });
      expect(event.venue).toEqual(venue);
      expect(event).not.toHaveProperty('lat');
      expect(event).not.toHaveProperty('location');
    }
  });
});

describe('GET /api/events', () => {
  it('lists approved events, featured first then soonest; filters type, state, near, date range and featured', async () => {
    const soon = await createEvent(t, sam, { title: 'Soon seminar', type: 'Seminar', startsAt: new Date(Date.now() + 2 * DAY).toISOString(), endsAt: new Date(Date.now() + 2 * DAY + 3600_000).toISOString(), stateCode: 'US-WI', location: { latitude: 44.5, longitude: -89.5 } }, staff.admin);
    const later = await createEvent(t, sam, { title: 'Later expo', type: 'Expo', startsAt: new Date(Date.now() + 60 * DAY).toISOString(), endsAt: new Date(Date.now() + 61 * DAY).toISOString(), stateCode: 'US-WI', location: { latitude: 44.51, longitude: -89.5 } }, staff.admin);
    const list = (query: string) => call('GET', `/api/events?${query}`, jo).then((r) => r.json().map((e: { title: string }) => e.title) as string[]);
    expect(await list('state=US-WI')).toEqual(['Soon seminar', 'Later expo']);
    expect(await list('state=us-wi&type=Expo')).toEqual(['Later expo']);
    expect(await list(`state=US-WI&to=${new Date(Date.now() + 10 * DAY).toISOString()}`)).toEqual(['Soon seminar']);
    const near = await call('GET', '/api/events?lat=44.5&lon=-89.5&radiusKm=5', jo);
    expect(near.json().map((e: { id: string }) => e.id)).toEqual([soon.id, later.id]);
    expect(near.json()[0].distanceKm).toBe(0);
    expect(near.json()[1].distanceKm).toBeCloseTo(1.113, 2);
    expect((await call('GET', '/api/events?lat=44.5', jo)).json()).toMatchObject({ status: 400, code: 'events.near_incomplete' });
    expect((await call('GET', '/api/events?lat=44.5&lon=-89&radiusKm=500', jo)).statusCode).toBe(400);

    const featured = await call('POST', `/api/admin/events/${later.id}/feature`, staff.admin, { reason: 'Biggest expo of the year', until: new Date(Date.now() + 5 * DAY).toISOString() });
    expect(featured.json()).toMatchObject({ id: later.id, featured: true });
    expect(await list('state=US-WI')).toEqual(['Later expo', 'Soon seminar']);
    expect(await list('state=US-WI&featured=true')).toEqual(['Later expo']);
    expect((await auditEntries(t, 'events.featured')).at(-1)).toMatchObject({ target_id: later.id, reason: 'Biggest expo of the year' });
    expect((await call('POST', `/api/admin/events/${later.id}/feature`, staff.moderator, { reason: 'x'.repeat(5) })).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/events/${later.id}/feature`, staff.admin, { reason: 'bad window', from: new Date(Date.now() + 2 * DAY).toISOString(), until: new Date().toISOString() })).json()).toMatchObject({ code: 'featured.window_invalid' });
    expect((await call('DELETE', `/api/admin/events/${later.id}/feature`, staff.admin)).json()).toMatchObject({ featured: false });
    expect(await list('state=US-WI')).toEqual(['Soon seminar', 'Later expo']);
  });
});

describe('registration', () => {
  it('holds the capacity when many register at once; once per user; cancel frees a place', async () => {
    const event = await createEvent(t, jo, { title: 'Small seminar', capacity: 3 }, staff.admin);
    const anglers = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
    const results = await Promise.all(anglers.map((a) => call('POST', `/api/events/${event.id}/register`, a)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().code).toBe('events.full');
    const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM event_registrations WHERE event_id = $1', [event.id]);
    expect(rows[0].n).toBe(3);
    const winner = anglers[results.findIndex((r) => r.statusCode === 200)]!;
    expect((await call('GET', `/api/events/${event.id}`, winner)).json()).toMatchObject({ registeredCount: 3, spotsLeft: 0, registered: true });
    expect((await call('POST', `/api/events/${event.id}/register`, winner)).json()).toMatchObject({ status: 409, code: 'events.already_registered' });
    expect((await call('DELETE', `/api/events/${event.id}/register`, winner)).json()).toEqual({ registered: false, registeredCount: 2, spotsLeft: 1 });
    expect((await call('DELETE', `/api/events/${event.id}/register`, winner)).json()).toMatchObject({ status: 409, code: 'events.not_registered' });
    expect((await call('POST', `/api/events/${event.id}/register`, sam)).json()).toEqual({ registered: true, registeredCount: 3, spotsLeft: 0 });
  });

  it('refuses registration past the deadline, for unapproved events, and without a token', async () => {
    const closed = await createEvent(t, jo, { title: 'Closed', registrationDeadline: new Date(Date.now() - 1000).toISOString() }, staff.admin);
    expect((await call('POST', `/api/events/${closed.id}/register`, sam)).json()).toMatchObject({ status: 409, code: 'events.registration_closed' });
    const pending = await createEvent(t, jo, { title: 'Pending' });
    expect((await call('POST', `/api/events/${pending.id}/register`, sam)).json()).toMatchObject({ status: 403, code: 'events.not_public' });
    expect((await call('POST', `/api/events/${pending.id}/register`, jo)).json()).toMatchObject({ status: 409, code: 'events.not_open' });
    expect((await call('POST', `/api/events/${MISSING_ID}/register`, sam)).statusCode).toBe(404);
    expect((await call('POST', `/api/events/${closed.id}/register`, null)).statusCode).toBe(401);
  });
});
