import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type Staff, type TestUser } from '../../../test/factories.js';
import { addSlots, charterCast, daysAhead, type TestListing } from '../../../test/factories/charters.js';
import { CARDS } from '../../../test/factories/payments.js';
import { createOrganizer, createTournament, endTournament, register } from '../../../test/factories/tournaments.js';
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

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(user ? user.headers : {}), ...headers }, ...(payload === undefined ? {} : { payload }) });

const inbox = async (user: TestUser, query = '') => (await call('GET', `/api/notifications${query}`, user)).json() as Note[];

async function book(user: TestUser, card: string = CARDS.visa) {
  const [slot] = await addSlots(t, captain, listing.id, [daysAhead(30 + Math.floor(Math.random() * 300))]);
  return call('POST', `/api/charter/listings/${listing.id}/book`, user, { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2, paymentMethod: card }, { 'idempotency-key': randomUUID() });
}

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

  it('tells the customer of a decline and of its refund; the automatic decline has its own notice', async () => {
    const declined = (await book(customer)).json();
    await call('POST', `/api/charter/bookings/${declined.id}/decline`, captain, { reason: 'Boat in the yard' });
    const [refund, decline] = await inbox(customer);
    expect(decline).toMatchObject({ type: 'charters.booking_declined', path: `/api/charter/bookings/${declined.id}` });
    expect(decline!.body).toContain('Boat in the yard');
    expect(refund).toMatchObject({ type: 'payments.refund_issued', title: 'Refund issued', path: `/api/charter/bookings/${declined.id}` });
    expect(refund!.body).toContain(`${(declined.depositCents / 100).toFixed(2)} USD was refunded to you`);

    const late = (await book(customer)).json();
    await runChartersJob({ db: t.database.db, payments: paymentsOf(t), now: () => new Date(Date.now() + 25 * 3_600_000) });
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
