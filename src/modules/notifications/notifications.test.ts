import { serviceDeps } from '../../core/service-deps.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type Staff, type TestUser, addSlots, bookNewSlot, charterCast, createListing, daysAhead, type TestListing, CARDS, createOrganizer, createTournament, endTournament, register, banUser, createClub, createEvent, createCatch, createEntry, createPost } from '../../../test/factories.js';
import { paymentsOf } from '../payments/payments.service.js';
import { runChartersJob } from '../charters/charters.service.js';

/** In-app notifications: written with the workflow's change, read only by their recipient. */

let t: TestApp;
let staff: Staff;
let captain: TestUser;
let customer: TestUser;
let listing: TestListing;

beforeAll(async () => {
  t = await createTestApp();
  ({ staff, captain, customer, listing } = await charterCast(t));
});
afterAll(async () => {
  await t?.close();
});

interface Note {
  id: string;
  type: string;
  title: string;
  body: string;
  path: string;
  createdAt: string;
  readAt: string | null;
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: TestUser | null, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(user ? user.headers : {}), ...headers }, ...(payload === undefined ? {} : { payload }) });

const inbox = async (user: TestUser, query = '') => (await call('GET', `/api/notifications${query}`, user)).json() as Note[];

const book = (user: TestUser, card: string = CARDS.visa) => bookNewSlot(t, captain, listing, user, card);

describe('booking notifications', () => {
  it('tells the captain of a request and the customer of the acceptance, with the booking path and nothing of the other party', async () => {
    const booked = (await book(customer)).json();
    const [request] = await inbox(captain);
    expect(request).toMatchObject({ type: 'charters.booking_requested', title: 'New booking request', path: `/api/charter/bookings/${booked.id}`, readAt: null });
    expect(request!.body).toContain('A party of 2 asked to book');
    expect(request!.body).not.toContain(customer.username);
    expect(request!.body).not.toContain(customer.email);
    expect((await inbox(customer)).filter((n) => n.path === request!.path)).toEqual([]);
    // The path is one the captain may open.
    expect((await call('GET', request!.path, captain)).statusCode).toBe(200);

    expect((await call('POST', `/api/charter/bookings/${booked.id}/accept`, captain)).statusCode).toBe(200);
    const [accepted] = await inbox(customer);
    expect(accepted).toMatchObject({ type: 'charters.booking_accepted', title: 'Booking accepted', path: `/api/charter/bookings/${booked.id}` });
    expect(accepted!.body).toContain('was accepted by the captain');
  });

  it('tells the captain of a booking without a deposit, written in the booking’s own transaction', async () => {
    const free = await createListing(t, captain, { depositPercent: 0 });
    const [slot] = await addSlots(t, captain, free.id, [daysAhead(300)]);
    const res = await call('POST', `/api/charter/listings/${free.id}/book`, customer, { slotId: slot!.id, tripTypeId: free.tripTypes[0]!.id, partySize: 2 }, { 'idempotency-key': randomUUID() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ state: 'Pending', depositCents: 0 });
    const [request] = await inbox(captain);
    expect(request).toMatchObject({ type: 'charters.booking_requested', path: `/api/charter/bookings/${res.json().id}`, readAt: null });
    // One event for the booking, committed with it.
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM notification_events WHERE path = $1`, [request!.path]);
    expect(rows[0].n).toBe(1);
  });

  it('tells the customer of a decline and of its refund; the automatic decline has its own notice', async () => {
    const declined = (await book(customer)).json();
    await call('POST', `/api/charter/bookings/${declined.id}/decline`, captain, { reason: 'Boat in the yard' });
    const [refund, decline] = await inbox(customer);
    expect(decline).toMatchObject({ type: 'charters.booking_declined', path: `/api/charter/bookings/${declined.id}` });
    expect(decline!.body).toContain('Boat in the yard');
    expect(refund).toMatchObject({ type: 'payments.refund_issued', title: 'Refund issued', path: `/api/charter/bookings/${declined.id}` });
    expect(refund!.body).toContain(`${(declined.depositCents / 100).toFixed(2)} USD was refunded to you`);

    const late = (await book(customer)).json();
    await runChartersJob({ ...serviceDeps(t), payments: paymentsOf(t), now: () => new Date(Date.now() + 25 * 3_600_000) });
    const notes = (await inbox(customer)).filter((n) => n.path === `/api/charter/bookings/${late.id}`);
    expect(notes.map((n) => n.type)).toEqual(['payments.refund_issued', 'charters.booking_auto_declined']);
  });

  it('tells the other party of a cancellation; a weather cancellation says so', async () => {
    const mine = (await book(customer)).json();
    await call('POST', `/api/charter/bookings/${mine.id}/cancel`, customer, { reason: 'Family matters' });
    const [toCaptain] = (await inbox(captain)).filter((n) => n.path === `/api/charter/bookings/${mine.id}`);
    expect(toCaptain).toMatchObject({ type: 'charters.booking_canceled' });
    expect(toCaptain!.body).toContain('canceled by the customer: Family matters');

    const stormy = (await book(customer)).json();
    await call('POST', `/api/charter/bookings/${stormy.id}/accept`, captain);
    await call('POST', `/api/charter/bookings/${stormy.id}/cancel-for-weather`, captain, { reason: 'Small craft advisory' });
    const types = (await inbox(customer)).filter((n) => n.path === `/api/charter/bookings/${stormy.id}`).map((n) => n.type);
    expect(types).toEqual(['charters.booking_weather_canceled', 'payments.refund_issued', 'charters.booking_accepted']);
  });

  it('writes nothing for a booking that did not happen (taken slot, declined card)', async () => {
    const before = (await inbox(captain)).length;
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(340)]);
    const payload = { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 1, paymentMethod: CARDS.visa };
    const other = await createUser(t);
    const results = await Promise.all([customer, other].map((user) => call('POST', `/api/charter/listings/${listing.id}/book`, user, payload, { 'idempotency-key': randomUUID() })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await book(customer, CARDS.declined)).statusCode).toBe(402);
    expect((await inbox(captain)).length).toBe(before + 1);
  });

  it('tells an applicant the verdict on their captain application', async () => {
    const applicant = await createUser(t);
    await call('POST', '/api/charter/captains', applicant, { licenceType: 'OUPV', licenceNumber: '7654321', licenceExpiresOn: '2099-12-31', vesselName: 'Knot Working', vesselRegistration: 'FL 9 ZZ', insuranceCarrier: 'Example', insurancePolicyNumber: 'E-2', insuranceExpiresOn: '2099-12-31' });
    await call('POST', `/api/admin/charter/captains/${applicant.userId}/reject`, staff.admin, { reason: 'Licence number does not match' });
    const [note] = await inbox(applicant);
    expect(note).toMatchObject({ type: 'charters.captain_rejected', path: '/api/charter/captains/me' });
    expect(note!.body).toContain('Licence number does not match');
  });
});

describe('tournament notifications', () => {
  it('tells organizers of verdicts, anglers of confirmed and refunded registrations, registrants of results', async () => {
    const organizer = await createOrganizer(t, { status: 'Pending' });
    await call('POST', `/api/admin/organizers/${organizer.organizerId}/verify`, staff.admin, { reason: 'Known club' });
    expect((await inbox(organizer))[0]).toMatchObject({ type: 'tournaments.organizer_verified', path: '/api/tournament/organizers/me' });

    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    await call('POST', `/api/admin/tournaments/${pending.id}/approve`, staff.admin, { reason: 'Complete' });
    const [approved] = await inbox(organizer);
    expect(approved).toMatchObject({ type: 'tournaments.approved', path: `/api/tournament/${pending.id}` });
    expect(approved!.body).toContain('Spring Bass Classic');

    const angler = await createUser(t);
    const division = pending.body.divisions[0]!.id;
    const registration = await register(t, angler, pending.id, division);
    const path = `/api/tournament/${pending.id}/registrations/${registration.id}`;
    expect((await inbox(angler))[0]).toMatchObject({ type: 'tournaments.registration_confirmed', path });
    expect((await call('GET', path, angler)).statusCode).toBe(200);
    await call('POST', `${path}/cancel`, angler);
    const [refund] = await inbox(angler);
    expect(refund).toMatchObject({ type: 'payments.refund_issued', path });
    expect(refund!.body).toContain('25.00 USD was refunded to you (Entry fee: Spring Bass Classic)');

    const free = await createTournament(t, organizer, { overrides: { entryFeeCents: 0 } });
    const registrants = [await createUser(t), await createUser(t)];
    for (const user of registrants) await register(t, user, free.id, free.body.divisions[0]!.id);
    await endTournament(t, free.id);
    expect((await call('POST', `/api/tournament/${free.id}/results`, organizer, { kind: 'publish' })).statusCode).toBe(201);
    for (const user of registrants) expect((await inbox(user))[0]).toMatchObject({ type: 'tournaments.results_published', path: `/api/tournament/${free.id}/results` });
    expect((await inbox(angler)).map((n) => n.type)).not.toContain('tournaments.results_published');
  });
});

describe('other workflows', () => {
  it('bans: the banned user reads the notice while banned; lifting and appeal decisions are told too', async () => {
    const user = await createUser(t);
    const ban = await banUser(t, staff.admin, user, { durationDays: 3, reason: 'Spam links' });
    const [issued] = await inbox(user);
    expect(issued).toMatchObject({ type: 'bans.issued', path: '/api/bans/me' });
    expect(issued!.body).toContain('Spam links');
    expect((await call('POST', `/api/bans/${ban.id}/appeal`, user, { text: 'A hacked account' })).statusCode).toBe(201);
    const appeal = (await call('GET', `/api/admin/bans/${ban.id}`, staff.owner)).json().appeal;
    await call('POST', `/api/admin/ban-appeals/${appeal.id}/decide`, staff.owner, { decision: 'Overturned', reply: 'Password reset confirmed' });
    const [decided] = await inbox(user);
    expect(decided).toMatchObject({ type: 'bans.appeal_decided', title: 'Appeal accepted' });

    const other = await createUser(t);
    const second = await banUser(t, staff.admin, other, { durationDays: 1 });
    await call('POST', `/api/admin/bans/${second.id}/lift`, staff.owner, { reason: 'Mistaken identity' });
    expect((await inbox(other)).map((n) => n.type)).toEqual(['bans.lifted', 'bans.issued']);
  });

  it('employees hear of role and permission changes', async () => {
    const employee = await createUser(t, { role: 'Moderator' });
    await call('POST', `/api/admin/employees/${employee.userId}/permissions`, staff.owner, { permission: 'Users.Ban', isGranted: true, reason: 'Weekend shift' });
    await call('PUT', `/api/admin/employees/${employee.userId}/role`, staff.owner, { role: 'Admin', reason: 'Promotion' });
    const notes = await inbox(employee);
    expect(notes.map((n) => n.type)).toEqual(['employees.role_changed', 'employees.permission_changed']);
    expect(notes[0]!.body).toBe('Your role is now Admin (was Moderator): Promotion.');
    expect(notes[1]!.body).toBe('Users.Ban was granted to you: Weekend shift.');
  });

  it('moderation and reports: the author of a rejected post, the reporter of a resolved report', async () => {
    const author = await createUser(t);
    const reporter = await createUser(t);
    const post = await createPost(t, author, { text: 'Cheap reels at example.com' });
    expect((await call('POST', `/api/social/posts/${post.id}/report`, reporter, { reason: 'Spam' })).statusCode).toBe(201);
    const [report] = (await call('GET', '/api/admin/reports?status=Open', staff.admin)).json() as Array<{ id: string }>;
    expect((await call('POST', `/api/admin/reports/${report!.id}/resolve`, staff.admin, { resolution: 'ContentRejected', note: 'Advertising' })).statusCode).toBe(200);
    const [rejected] = await inbox(author);
    expect(rejected).toMatchObject({ type: 'moderation.post_rejected', path: `/api/social/posts/${post.id}` });
    expect(rejected!.body).toContain('Advertising');
    expect(rejected!.body).not.toContain(reporter.username);
    const [resolved] = await inbox(reporter);
    expect(resolved).toMatchObject({ type: 'reports.resolved', path: `/api/social/posts/${post.id}` });
    expect(resolved!.body).not.toContain(author.username);
  });

  it('clubs, events and personal bests', async () => {
    const owner = await createUser(t);
    const club = await createClub(t, owner, { privacy: 'Private' });
    const joiner = await createUser(t);
    await call('POST', `/api/clubs/${club.id}/join`, joiner);
    expect((await inbox(owner))[0]).toMatchObject({ type: 'clubs.join_requested', path: `/api/clubs/${club.id}` });
    await call('POST', `/api/clubs/${club.id}/members/${joiner.userId}/approve`, owner);
    expect((await inbox(joiner))[0]).toMatchObject({ type: 'clubs.join_decided', title: 'Welcome to the club' });

    const creator = await createUser(t);
    const event = await createEvent(t, creator, {}, staff.admin);
    expect((await inbox(creator))[0]).toMatchObject({ type: 'events.approved', path: `/api/events/${event.id}` });
    await call('POST', `/api/events/${event.id}/register`, joiner);
    expect((await inbox(joiner))[0]).toMatchObject({ type: 'events.registration_confirmed', path: `/api/events/${event.id}` });

    const angler = await createUser(t);
    await call('POST', '/api/personalbest/me/criteria', angler, { speciesId: (await t.database.pool.query("SELECT id FROM fish_species WHERE scientific_name = 'Sander vitreus'")).rows[0].id, measure: 'Length' });
    const entry = await createEntry(t, angler);
    await createCatch(t, angler, entry, { lengthCm: 50 });
    expect((await inbox(angler))[0]).toMatchObject({ type: 'personalbests.new', path: '/api/personalbest/me' });
  });
});

describe('GET/POST /api/notifications', () => {
  it('lists newest first in keyset pages, filters unread, counts and marks read', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) await book(user);
    const all = await inbox(captain);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const times = all.map((n) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const first = await call('GET', '/api/notifications?pageSize=2', captain);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!;
    const second = (await call('GET', next, captain)).json() as Note[];
    expect(second[0]!.id).toBe(all[2]!.id);

    const unreadBefore = Number((await call('GET', '/api/notifications', captain)).headers['x-unread-count']);
    expect((await call('GET', '/api/notifications/unread-count', captain)).json()).toEqual({ unread: unreadBefore });
    const read = await call('POST', `/api/notifications/${all[0]!.id}/read`, captain);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: all[0]!.id, readAt: expect.any(String) });
    const again = await call('POST', `/api/notifications/${all[0]!.id}/read`, captain);
    expect(again.json().readAt).toBe(read.json().readAt);
    expect((await call('GET', '/api/notifications/unread-count', captain)).json()).toEqual({ unread: unreadBefore - 1 });
    expect((await inbox(captain, '?unread=true&pageSize=100')).map((n) => n.id)).not.toContain(all[0]!.id);

    expect((await call('POST', '/api/notifications/read-all', captain)).json()).toEqual({ marked: unreadBefore - 1 });
    expect((await call('GET', '/api/notifications/unread-count', captain)).json()).toEqual({ unread: 0 });
    expect(await inbox(captain, '?unread=true')).toEqual([]);
    expect((await call('GET', `/api/notifications/${all[1]!.id}`, captain)).json()).toMatchObject({ id: all[1]!.id, readAt: expect.any(String) });
  });

  it('lets only the recipient read or mark a notification: 403 for others, 404 for none, 401 without a token', async () => {
    const [note] = await inbox(captain);
    for (const stranger of [customer, staff.admin, staff.owner]) {
      for (const res of [await call('GET', `/api/notifications/${note!.id}`, stranger), await call('POST', `/api/notifications/${note!.id}/read`, stranger)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'notifications.not_recipient' });
        expect(res.body).not.toContain(note!.body);
      }
    }
    expect((await call('GET', `/api/notifications/${MISSING_ID}`, captain)).json()).toMatchObject({ status: 404, code: 'notifications.not_found' });
    expect((await call('POST', `/api/notifications/${MISSING_ID}/read`, captain)).statusCode).toBe(404);
    expect((await call('POST', '/api/notifications/not-an-id/read', captain)).statusCode).toBe(400);
    expect((await call('GET', '/api/notifications?cursor=bogus', captain)).json()).toMatchObject({ code: 'pagination.invalid_cursor' });
    expect((await call('GET', '/api/notifications', null)).statusCode).toBe(401);
    // read-all touches only one's own.
    await call('POST', '/api/notifications/read-all', customer);
    expect((await call('GET', `/api/notifications/${note!.id}`, captain)).json().readAt).toBe(note!.readAt);
  });
});

describe('/api/notifications/preferences', () => {
  it('lists every type on by default; turning a type off in-app hides it, security notices stay in-app', async () => {
    const user = await createUser(t);
    const initial = (await call('GET', '/api/notifications/preferences', user)).json() as Array<Record<string, unknown>>;
    expect(initial.find((p) => p.type === 'charters.booking_requested')).toEqual({ type: 'charters.booking_requested', description: expect.any(String), security: false, inApp: true, email: true, emailAvailable: true });
    expect(initial.find((p) => p.type === 'bans.issued')).toMatchObject({ security: true, inApp: true });
    expect(initial.find((p) => p.type === 'personalbests.new')).toMatchObject({ email: false, emailAvailable: false });

    const security = await call('PUT', '/api/notifications/preferences', user, { preferences: [{ type: 'bans.issued', inApp: false }] });
    expect(security.statusCode).toBe(400);
    expect(security.json()).toMatchObject({ code: 'notifications.security_in_app', errors: [{ pointer: '/preferences/0/inApp' }] });
    const inAppOnly = await call('PUT', '/api/notifications/preferences', user, { preferences: [{ type: 'charters.booking_accepted' }, { type: 'personalbests.new', email: true }] });
    expect(inAppOnly.json()).toMatchObject({ code: 'notifications.email_unavailable', errors: [{ pointer: '/preferences/1/email' }] });
    expect((await call('PUT', '/api/notifications/preferences', user, { preferences: [{ type: 'no.such_type', email: false }] })).statusCode).toBe(400);
    expect((await call('PUT', '/api/notifications/preferences', null, { preferences: [{ type: 'bans.issued', email: false }] })).statusCode).toBe(401);

    const set = await call('PUT', '/api/notifications/preferences', user, { preferences: [{ type: 'bans.issued', email: false }, { type: 'charters.booking_requested', inApp: false }] });
    expect(set.statusCode).toBe(200);
    const after = set.json() as Array<Record<string, unknown>>;
    expect(after.find((p) => p.type === 'bans.issued')).toMatchObject({ inApp: true, email: false });
    expect(after.find((p) => p.type === 'charters.booking_requested')).toMatchObject({ inApp: false, email: true });
    // Another user's preferences are untouched.
    expect(((await call('GET', '/api/notifications/preferences', customer)).json() as Array<Record<string, unknown>>).find((p) => p.type === 'bans.issued')).toMatchObject({ email: true });

    // The captain's own choice hides booking requests in-app (and from the unread count).
    await call('PUT', '/api/notifications/preferences', captain, { preferences: [{ type: 'charters.booking_requested', inApp: false }] });
    await call('POST', '/api/notifications/read-all', captain);
    await book(customer);
    expect(await inbox(captain, '?unread=true')).toEqual([]);
    expect((await call('GET', '/api/notifications/unread-count', captain)).json()).toEqual({ unread: 0 });
    await call('PUT', '/api/notifications/preferences', captain, { preferences: [{ type: 'charters.booking_requested', inApp: true }] });
    expect((await inbox(captain, '?unread=true')).map((n) => n.type)).toEqual(['charters.booking_requested']);
  });
});
