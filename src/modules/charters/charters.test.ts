import { serviceDeps } from '../../core/service-deps.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, type Staff, type TestUser, addSlots, APPLICATION, createCaptain, createListing, daysAhead, LISTING, type TestListing, CARDS } from '../../../test/factories.js';
import { paymentsOf } from '../payments/payments.service.js';
import { refundDue, runChartersJob } from './charters.service.js';
import { formatInZone, zonedToUtc } from './charters.time.js';

let t: TestApp;
let staff: Staff;
let captain: TestUser;
let customer: TestUser;
let other: TestUser;
let listing: TestListing;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, 'payments.refund');
  captain = await createCaptain(t, staff.admin);
  customer = await createUser(t);
  other = await createUser(t);
  listing = await createListing(t, captain);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, user: TestUser | null, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(user ? user.headers : {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const book = (listingId: string, user: TestUser, body: Record<string, unknown>, key = randomUUID()) =>
  call('POST', `/api/charter/listings/${listingId}/book`, user, { paymentMethod: CARDS.visa, ...body }, { 'idempotency-key': key });

describe('captains', () => {
  it('applies, shows the application, and only admins verify or reject it (audit-logged)', async () => {
    const user = await createUser(t);
    expect((await call('GET', '/api/charter/captains/me', user)).json().code).toBe('charters.captain_not_found');
    const applied = await call('POST', '/api/charter/captains', user, { ...APPLICATION, licenceType: 'Master' });
    expect(applied.statusCode).toBe(201);
    expect(applied.json()).toMatchObject({ userId: user.userId, licenceType: 'Master', status: 'Pending', licenceValid: false, reviewedAt: null });
    expect((await call('GET', '/api/charter/captains/me', user)).json().status).toBe('Pending');
    const queue = (await call('GET', '/api/admin/charter/captains?status=Pending', staff.admin)).json();
    expect(queue.map((c: { userId: string }) => c.userId)).toContain(user.userId);
    for (const who of [user, staff.standard, staff.moderator, staff.grantedModerator]) {
      const res = await call('POST', `/api/admin/charter/captains/${user.userId}/verify`, who, {});
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('access.admin_only');
    }
    expect((await call('POST', `/api/admin/charter/captains/${user.userId}/verify`, null, {})).statusCode).toBe(401);
    expect((await call('POST', `/api/admin/charter/captains/${MISSING_ID}/verify`, staff.admin, {})).statusCode).toBe(404);
    expect((await call('POST', `/api/admin/charter/captains/${user.userId}/reject`, staff.admin, {})).statusCode).toBe(400);
    const verified = await call('POST', `/api/admin/charter/captains/${user.userId}/verify`, staff.owner, { reason: 'Checked USCG record' });
    expect(verified.json()).toMatchObject({ status: 'Verified', licenceValid: true, reviewReason: 'Checked USCG record' });
    expect((await auditEntries(t, 'charters.captain_verified')).at(-1)).toMatchObject({ target_id: user.userId, actor_user_id: staff.owner.userId, reason: 'Checked USCG record' });
    const again = await call('POST', `/api/admin/charter/captains/${user.userId}/reject`, staff.admin, { reason: 'late' });
    expect(again.statusCode).toBe(409);
    expect((await call('GET', `/api/admin/charter/captains/${user.userId}`, staff.admin)).json().status).toBe('Verified');
  });
});

describe('listings', () => {
  it('only verified captains publish; others get a 403 saying how to become one', async () => {
    const res = await call('POST', '/api/charter/listings', other, LISTING);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'charters.not_a_captain', detail: expect.stringContaining('POST /api/charter/captains') });
    const pending = await createUser(t);
    await call('POST', '/api/charter/captains', pending, APPLICATION);
    expect((await call('POST', '/api/charter/listings', pending, LISTING)).json().code).toBe('charters.captain_not_verified');
    expect((await call('POST', '/api/charter/listings', null, LISTING)).statusCode).toBe(401);
  });

  it('creates a listing with trip types and policy; rounds the location for others', async () => {
    const mine = await call('GET', `/api/charter/listings/${listing.id}`, captain);
    expect(mine.json()).toMatchObject({
      title: LISTING.title,
      location: { latitude: 27.7676, longitude: -82.6309, precision: 'Exact' },
      timeZone: 'America/New_York',
      currency: 'USD',
      depositPercent: 20,
      freeCancellationDays: 7,
      tripTypes: [expect.objectContaining({ id: expect.any(String), name: 'Half day', priceCents: 45_000 }), expect.objectContaining({ pricing: 'PerPerson' })],
      captain: { userId: captain.userId, username: captain.username, licenceType: 'OUPV', licenceValid: true },
      bookable: true,
      notice: null,
      isActive: true,
    });
    expect((await call('GET', `/api/charter/listings/${listing.id}`, other)).json()).toMatchObject({ location: { latitude: 27.77, longitude: -82.63, precision: 'Approximate' } });
    expect((await call('GET', `/api/charter/listings/${MISSING_ID}`, other)).statusCode).toBe(404);
  });

  it('validates: OUPV at most 6 passengers, deposit 0 or 10-30, free days 1-60, time zone', async () => {
    const oupv = await call('POST', '/api/charter/listings', captain, { ...LISTING, tripTypes: [{ ...LISTING.tripTypes[0], maxPartySize: 7 }] });
    expect(oupv.statusCode).toBe(400);
    expect(oupv.json()).toMatchObject({ code: 'charters.oupv_party_limit', errors: [{ pointer: '/tripTypes/0/maxPartySize' }] });
    const master = await createCaptain(t, staff.admin, { licenceType: 'Master' });
    expect((await call('POST', '/api/charter/listings', master, { ...LISTING, tripTypes: [{ ...LISTING.tripTypes[0], maxPartySize: 20 }] })).statusCode).toBe(201);
    for (const bad of [{ depositPercent: 5 }, { depositPercent: 31 }, { freeCancellationDays: 0 }, { freeCancellationDays: 61 }]) {
      expect((await call('POST', '/api/charter/listings', captain, { ...LISTING, ...bad })).statusCode).toBe(400);
    }
    expect((await call('POST', '/api/charter/listings', captain, { ...LISTING, timeZone: 'Mars/Olympus' })).json().code).toBe('charters.invalid_time_zone');
  });

  it('lets only its captain change it (PUT/PATCH) and deactivate it; inactive listings are hidden from others', async () => {
    const own = await createListing(t, captain, { title: 'Offshore' });
    for (const who of [other, customer, staff.admin]) {
      const res = await call('PATCH', `/api/charter/listings/${own.id}`, who, { title: 'Hijacked' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('charters.not_listing_captain');
    }
    expect((await call('PATCH', `/api/charter/listings/${MISSING_ID}`, captain, { title: 'x' })).statusCode).toBe(404);
    const patched = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { title: 'Offshore tuna', instantBook: true });
    expect(patched.json()).toMatchObject({ title: 'Offshore tuna', instantBook: true, description: LISTING.description });
    const put = await call('PUT', `/api/charter/listings/${own.id}`, captain, { ...LISTING, title: 'Replaced' });
    expect(put.json()).toMatchObject({ title: 'Replaced', instantBook: false });
    expect((await call('PUT', `/api/charter/listings/${own.id}`, captain, { title: 'partial' })).json()).toMatchObject({ status: 400, code: 'request.validation_failed' });
    expect((await call('POST', `/api/charter/listings/${own.id}/deactivate`, other, {})).statusCode).toBe(403);
    const off = await call('POST', `/api/charter/listings/${own.id}/deactivate`, captain, { reason: 'Boat in the yard' });
    expect(off.json()).toMatchObject({ isActive: false, bookable: false });
    const hidden = await call('GET', `/api/charter/listings/${own.id}`, other);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().code).toBe('charters.listing_inactive');
    expect((await call('GET', `/api/charter/listings/${own.id}`, staff.admin)).statusCode).toBe(200);
    expect((await call('GET', `/api/charter/listings/${own.id}`, captain)).statusCode).toBe(200);
    expect((await call('GET', '/api/charter/listings?pageSize=100', other)).json().map((l: { id: string }) => l.id)).not.toContain(own.id);
    expect((await call('POST', `/api/charter/listings/${own.id}/deactivate`, captain, {})).statusCode).toBe(409);
    expect((await call('POST', `/api/charter/listings/${own.id}/reactivate`, captain, {})).json().isActive).toBe(true);
  });

  it('PATCH is a JSON Merge Patch: the fields sent change, null clears an optional field and is a 400 on a required one', async () => {
    const own = await createListing(t, captain, { title: 'Merge', currency: 'CAD', targetSpecies: ['Walleye'] });
    const mergePatch = { 'content-type': 'application/merge-patch+json' };
    const patched = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { depositPercent: 25, included: null, currency: null }, mergePatch);
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      title: 'Merge',
      description: LISTING.description,
      depositPercent: 25,
      included: [],
      currency: 'USD',
      targetSpecies: ['Walleye'],
      tripTypes: own.tripTypes.map((type) => expect.objectContaining({ id: type.id, name: type.name })),
    });
    const cleared = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { title: null, instantBook: true }, mergePatch);
    expect(cleared.json()).toMatchObject({
      status: 400,
      code: 'request.required_field_cleared',
      errors: [{ pointer: '/title', in: 'body', detail: 'is required and cannot be cleared with null' }],
    });
    const invalid = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { depositPercent: 5 });
    expect(invalid.json()).toMatchObject({ status: 400, code: 'request.validation_failed' });
    expect((await call('PATCH', `/api/charter/listings/${own.id}`, captain, {})).json()).toMatchObject({ status: 400, code: 'request.validation_failed' });
    expect((await call('GET', `/api/charter/listings/${own.id}`, captain)).json()).toMatchObject({ title: 'Merge', instantBook: false, depositPercent: 25 });
  });

  it('the home port is location: a merge patch may change one coordinate; the older top-level latitude/longitude still accepted (deprecated)', async () => {
    const own = await createListing(t, captain, { title: 'Moving port' });
    const mergePatch = { 'content-type': 'application/merge-patch+json' };
    const north = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { location: { latitude: 27.8 } }, mergePatch);
    expect(north.json().location).toEqual({ latitude: 27.8, longitude: -82.6309, precision: 'Exact' });
    const west = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { longitude: -82.7 }, mergePatch);
    expect(west.json().location).toEqual({ latitude: 27.8, longitude: -82.7, precision: 'Exact' });
    expect(west.json()).not.toHaveProperty('latitude');
    const cleared = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { location: { latitude: null } }, mergePatch);
    expect(cleared.json()).toMatchObject({ status: 400, code: 'request.required_field_cleared', errors: [{ pointer: '/location/latitude' }] });
    const body: Record<string, unknown> = { ...LISTING, latitude: 27.9, longitude: -82.5 };
    delete body.location;
    const replaced = await call('PUT', `/api/charter/listings/${own.id}`, captain, body);
    expect(replaced.json().location).toEqual({ latitude: 27.9, longitude: -82.5, precision: 'Exact' });
    expect((await call('GET', `/api/charter/listings/${own.id}`, other)).json().location).toEqual({ latitude: 27.9, longitude: -82.5, precision: 'Approximate' });
    const both = await call('POST', '/api/charter/listings', captain, { ...LISTING, latitude: 27.9 });
    expect(both.json()).toMatchObject({ status: 400, errors: [{ pointer: '/latitude' }] });
    const patchedBoth = await call('PATCH', `/api/charter/listings/${own.id}`, captain, { longitude: -82.5, location: { latitude: 27.9 } }, mergePatch);
    expect(patchedBoth.json()).toMatchObject({ status: 400, errors: [{ pointer: '/longitude' }] });
  });

  it('the home port: the new and the old spelling of a new listing, out-of-range coordinates a 400 naming /location, shown as location in the search', async () => {
    const created = await call('POST', '/api/charter/listings', captain, { ...LISTING, title: 'New spelling', location: { latitude: 26.1, longitude: -80.1 } });
    expect(created.statusCode).toBe(201);
    expect(created.json().location).toEqual({ latitude: 26.1, longitude: -80.1, precision: 'Exact' });
    const oldBody: Record<string, unknown> = { ...LISTING, title: 'Old spelling', latitude: 26.12345, longitude: -80.12345 };
    delete oldBody.location;
    const old = await call('POST', '/api/charter/listings', captain, oldBody);
    expect(old.statusCode).toBe(201);
    expect(old.json().location).toEqual({ latitude: 26.12345, longitude: -80.12345, precision: 'Exact' });
    expect(old.json()).not.toHaveProperty('latitude');
    expect(old.json()).not.toHaveProperty('longitude');

    const invalid = { status: 400, code: 'request.validation_failed' };
    expect((await call('POST', '/api/charter/listings', captain, { ...LISTING, location: { latitude: 90.01, longitude: -80 } })).json()).toMatchObject({ ...invalid, errors: [{ pointer: '/location/latitude', in: 'body' }] });
    expect((await call('POST', '/api/charter/listings', captain, { ...oldBody, longitude: -180.5 })).json()).toMatchObject({ ...invalid, errors: [{ pointer: '/location/longitude', in: 'body' }] });
    expect((await call('PUT', `/api/charter/listings/${old.json().id}`, captain, { ...LISTING, location: { latitude: -91, longitude: -80 } })).json()).toMatchObject({ ...invalid, errors: [{ pointer: '/location/latitude' }] });
    const mergePatch = { 'content-type': 'application/merge-patch+json' };
    expect((await call('PATCH', `/api/charter/listings/${old.json().id}`, captain, { location: { latitude: 95 } }, mergePatch)).json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/latitude' }] });
    expect((await call('PATCH', `/api/charter/listings/${old.json().id}`, captain, { latitude: 95 }, mergePatch)).json()).toMatchObject({ status: 400, errors: [{ pointer: '/location/latitude' }] });
    expect((await call('GET', `/api/charter/listings/${old.json().id}`, captain)).json().location).toEqual({ latitude: 26.12345, longitude: -80.12345, precision: 'Exact' });

    const found = (await call('GET', '/api/charter/listings?lat=26.12&lon=-80.12&radiusKm=1', other)).json();
    expect(found.map((l: { id: string }) => l.id)).toEqual([old.json().id]);
    expect(found[0].location).toEqual({ latitude: 26.12, longitude: -80.12, precision: 'Approximate' });
    expect(found[0]).not.toHaveProperty('latitude');
    const ownSearch = (await call('GET', '/api/charter/listings?lat=26.12&lon=-80.12&radiusKm=1', captain)).json();
    expect(ownSearch[0].location).toEqual({ latitude: 26.12345, longitude: -80.12345, precision: 'Exact' });
  });

  it('searches by state, distance, date, party size, price, species and text', async () => {
    const keys = await createListing(t, captain, {
      title: 'Key West flats',
      homePort: 'Key West Bight',
      location: { latitude: 24.5615, longitude: -81.8005 },
      targetSpecies: ['Tarpon', 'Bonefish'],
      tripTypes: [{ name: 'Full day', durationHours: 8, pricing: 'PerPerson', priceCents: 30_000, maxPartySize: 3 }],
    });
    const texas = await createListing(t, captain, { title: 'Galveston jetties', state: 'US-TX', location: { latitude: 29.3013, longitude: -94.7977 }, timeZone: 'America/Chicago' });
    const ids = async (query: string) => (await call('GET', `/api/charter/listings?pageSize=100&${query}`, other)).json().map((l: { id: string }) => l.id);
    expect(await ids('state=US-TX')).toEqual([texas.id]);
    const near = await call('GET', '/api/charter/listings?lat=24.55&lon=-81.78&radiusKm=20', other);
    expect(near.json().map((l: { id: string }) => l.id)).toEqual([keys.id]);
    expect(near.json()[0].distanceKm).toBeGreaterThan(1);
    expect(near.json()[0].distanceKm).toBeLessThan(5);
    expect(await ids('lat=27.77&lon=-82.63&radiusKm=500')).toEqual(expect.arrayContaining([listing.id, keys.id]));
    expect(await ids('lat=27.77&lon=-82.63&radiusKm=500')).not.toContain(texas.id);
    expect(await ids('species=tarpon')).toEqual([keys.id]);
    expect(await ids('q=jetties')).toEqual([texas.id]);
    expect(await ids('partySize=4')).not.toContain(keys.id);
    // Per person: 3 × 300.00 = 900.00 for a party of 3.
    expect(await ids('partySize=3&minPriceCents=80000&maxPriceCents=95000')).toEqual([keys.id]);
    const date = daysAhead(40).slice(0, 10);
    await addSlots(t, captain, texas.id, [`${date}T06:00`]);
    expect(await ids(`date=${date}`)).toEqual([texas.id]);
  });

  it('finds listings near a point through the earthdistance GiST index', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      // 5,000 listings spread over the US: the planner picks the index on its own.
      await client.query(
        `INSERT INTO charter_listings (id, captain_id, title, description, boat_name, home_port, state, latitude, longitude, time_zone, trip_types, free_cancellation_days, late_cancellation_refund_percent, deposit_percent)
         SELECT gen_random_uuid(), $1, 'Bulk ' || g, 'x', 'b', 'p', 'US-FL', 25 + (g % 200) * 0.1, -120 + (g / 200) * 1.5, 'America/New_York', '[]'::jsonb, 7, 50, 0
         FROM generate_series(1, 5000) g`,
        [captain.userId],
      );
      await client.query('ANALYZE charter_listings');
      const plan = await client.query(
        'EXPLAIN SELECT id FROM charter_listings WHERE is_active AND earth_box(ll_to_earth(24.55, -81.78), 20000) @> ll_to_earth(latitude, longitude)',
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('charter_listings_earth_idx');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('availability and time zones', () => {
  it('stores local times in the listing zone and answers them with the offset', () => {
    expect(zonedToUtc('2026-07-04T06:00', 'America/New_York').toISOString()).toBe('2026-07-04T10:00:00.000Z');
    expect(zonedToUtc('2026-01-04T06:00', 'America/New_York').toISOString()).toBe('2026-01-04T11:00:00.000Z');
    expect(formatInZone(new Date('2026-07-04T10:00:00Z'), 'America/New_York')).toBe('2026-07-04T06:00:00-04:00');
    expect(formatInZone(new Date('2026-07-04T10:00:00Z'), 'Asia/Kolkata')).toBe('2026-07-04T15:30:00+05:30');
    // RFC 3339 as clients send it: fractional seconds (Date#toISOString), any offset, lower-case t and z.
    expect(zonedToUtc('2026-07-04T10:00:00.000Z', 'America/New_York').toISOString()).toBe('2026-07-04T10:00:00.000Z');
    expect(zonedToUtc('2026-07-04t06:00:00.5-04:00', 'America/New_York').toISOString()).toBe('2026-07-04T10:00:00.500Z');
    expect(zonedToUtc('2026-07-04T06:00:30.250', 'America/New_York').toISOString()).toBe('2026-07-04T10:00:30.250Z');
  });

  it('adds slots (captain only) and lists them with their offset', async () => {
    const slots = await addSlots(t, captain, listing.id, ['2099-07-04T06:00', '2099-01-10T13:30']);
    expect(slots).toEqual([
      { id: expect.any(String), startsAt: '2099-01-10T13:30:00-05:00', booked: false },
      { id: expect.any(String), startsAt: '2099-07-04T06:00:00-04:00', booked: false },
    ]);
    expect((await call('POST', `/api/charter/listings/${listing.id}/slots`, other, { startsAt: ['2099-07-05T06:00'] })).statusCode).toBe(403);
    const listed = await call('GET', `/api/charter/listings/${listing.id}/slots?from=2099-01-01&to=2099-12-31`, other);
    expect(listed.json()).toEqual(slots);
  });

  it('takes slot times as Date#toISOString writes them', async () => {
    const res = await call('POST', `/api/charter/listings/${listing.id}/slots`, captain, { startsAt: ['2098-08-04T10:00:00.000Z', '2098-08-05T06:00:00.000-04:00'] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().map((slot: { startsAt: string }) => slot.startsAt).sort()).toEqual(['2098-08-04T06:00:00-04:00', '2098-08-05T06:00:00-04:00']);
  });
});

describe('bookings', () => {
  it('books a slot: price and policy copied, deposit charged, Pending for 24 h', async () => {
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(30)]);
    const res = await book(listing.id, customer, { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 3 });
    expect(res.statusCode).toBe(201);
    const booking = res.json();
    expect(booking).toMatchObject({
      listingId: listing.id,
      listingTitle: LISTING.title,
      customerId: customer.userId,
      captainId: captain.userId,
      partySize: 3,
      startsAt: slot!.startsAt,
      timeZone: 'America/New_York',
      priceCents: 45_000,
      depositCents: 9_000,
      currency: 'USD',
      policy: { freeCancellationDays: 7, lateCancellationRefundPercent: 50, depositPercent: 20, instantBook: false },
      state: 'Pending',
      acceptBy: expect.stringMatching(/-0[45]:00$/),
      paymentId: expect.any(String),
      refundedCents: 0,
    });
    const payment = await paymentsOf(t).getPayment(booking.paymentId);
    expect(payment).toMatchObject({ kind: 'CharterDeposit', status: 'Succeeded', amountCents: 9_000, payerId: customer.userId, related: { type: 'charter_booking', id: booking.id } });
    // The policy changes later; the booking keeps its own.
    await call('PATCH', `/api/charter/listings/${listing.id}`, captain, { depositPercent: 30, freeCancellationDays: 2 });
    expect((await call('GET', `/api/charter/bookings/${booking.id}`, customer)).json().policy.freeCancellationDays).toBe(7);
    expect((await call('GET', `/api/charter/bookings/${booking.id}`, captain)).statusCode).toBe(200);
    const denied = await call('GET', `/api/charter/bookings/${booking.id}`, other);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('charters.booking_not_yours');
    expect((await call('GET', `/api/charter/bookings/${MISSING_ID}`, customer)).statusCode).toBe(404);
    expect((await call('GET', '/api/charter/bookings', customer)).json().map((b: { id: string }) => b.id)).toContain(booking.id);
    expect((await call('GET', '/api/charter/bookings?as=captain', captain)).json().map((b: { id: string }) => b.id)).toContain(booking.id);
    expect((await call('GET', '/api/charter/bookings?as=captain', customer)).json()).toEqual([]);
    await call('PATCH', `/api/charter/listings/${listing.id}`, captain, { depositPercent: 20, freeCancellationDays: 7 });
  });

  it('makes double booking impossible under 20 parallel bookings', async () => {
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(45)]);
    const customers = await Promise.all(Array.from({ length: 20 }, () => createUser(t)));
    const results = await Promise.all(customers.map((c) => book(listing.id, c, { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 })));
    const created = results.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expect(r.json()).toMatchObject({ status: 409, code: 'charters.slot_taken' });
    const rows = await t.database.pool.query("SELECT count(*)::int AS n FROM charter_bookings WHERE slot_id = $1 AND state IN ('Pending','Confirmed')", [slot!.id]);
    expect(rows.rows[0].n).toBe(1);
    const payments = await t.database.pool.query("SELECT count(*)::int AS n FROM payments WHERE related_type = 'charter_booking' AND related_id = $1", [created[0]!.json().id]);
    expect(payments.rows[0].n).toBe(1);
    expect((await call('GET', `/api/charter/listings/${listing.id}/slots?from=2000-01-01&to=2100-01-01`, other)).json().find((s: { id: string }) => s.id === slot!.id).booked).toBe(true);
  });

  it('answers 402 for a declined card and frees the slot; validates party size, trip type and own listing', async () => {
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(50)]);
    const body = { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 };
    const declined = await book(listing.id, customer, { ...body, paymentMethod: CARDS.declined });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'charters.payment_declined', detail: expect.stringContaining('card_declined') });
    expect((await book(listing.id, customer, body)).statusCode).toBe(201);
    const [slot2] = await addSlots(t, captain, listing.id, [daysAhead(51)]);
    expect((await book(listing.id, customer, { ...body, slotId: slot2!.id, partySize: 5 })).json().code).toBe('charters.party_too_large');
    expect((await book(listing.id, customer, { ...body, slotId: slot2!.id, tripTypeId: MISSING_ID })).json().code).toBe('charters.trip_type_not_found');
    expect((await book(listing.id, customer, { ...body, slotId: MISSING_ID })).statusCode).toBe(404);
    expect((await book(MISSING_ID, customer, body)).statusCode).toBe(404);
    const own = await book(listing.id, captain, { ...body, slotId: slot2!.id });
    expect(own.json()).toMatchObject({ status: 409, code: 'charters.own_listing' });
    const noKey = await call('POST', `/api/charter/listings/${listing.id}/book`, customer, { ...body, slotId: slot2!.id, paymentMethod: CARDS.visa });
    expect(noKey.json().code).toBe('idempotency.key_required');
  });

  it('replays a booking retried with the same Idempotency-Key', async () => {
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(52)]);
    const key = randomUUID();
    const body = { slotId: slot!.id, tripTypeId: listing.tripTypes[1]!.id, partySize: 2 };
    const first = await book(listing.id, customer, body, key);
    const again = await book(listing.id, customer, body, key);
    expect(first.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ priceCents: 18_000, depositCents: 3_600 });
    expect((await book(listing.id, customer, { ...body, partySize: 1 }, key)).statusCode).toBe(422);
  });

  it('captain accepts or declines (full refund); others may not', async () => {
    const [a, b] = await addSlots(t, captain, listing.id, [daysAhead(60), daysAhead(61)]);
    const first = (await book(listing.id, customer, { slotId: a!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 })).json();
    const second = (await book(listing.id, customer, { slotId: b!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 })).json();
    for (const who of [customer, other]) {
      const res = await call('POST', `/api/charter/bookings/${first.id}/accept`, who);
      expect(res.statusCode).toBe(who === other ? 403 : 403);
      expect(res.json().code).toBe(who === other ? 'charters.not_booking_captain' : 'charters.not_booking_captain');
    }
    expect((await call('POST', `/api/charter/bookings/${MISSING_ID}/accept`, captain)).statusCode).toBe(404);
    const accepted = await call('POST', `/api/charter/bookings/${first.id}/accept`, captain);
    expect(accepted.json()).toMatchObject({ state: 'Confirmed' });
    expect((await call('POST', `/api/charter/bookings/${first.id}/accept`, captain)).json().code).toBe('charters.invalid_state');
    const declined = await call('POST', `/api/charter/bookings/${second.id}/decline`, captain, { reason: 'Engine trouble' });
    expect(declined.json()).toMatchObject({ state: 'Declined', declineReason: 'Engine trouble', refundedCents: 9_000 });
    expect(await paymentsOf(t).getPayment(second.paymentId)).toMatchObject({ status: 'Refunded', refundedCents: 9_000 });
  });

  it('refunds a customer cancellation by the stored policy; weather cancels refund everything', async () => {
    const [early] = await addSlots(t, captain, listing.id, [daysAhead(20)]);
    const [late] = await addSlots(t, captain, listing.id, [daysAhead(3)]);
    const [weather] = await addSlots(t, captain, listing.id, [daysAhead(4)]);
    const make = async (slotId: string) => {
      const b = (await book(listing.id, customer, { slotId, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 })).json();
      await call('POST', `/api/charter/bookings/${b.id}/accept`, captain);
      return b;
    };
    const b1 = await make(early!.id);
    const c1 = await call('POST', `/api/charter/bookings/${b1.id}/cancel`, customer, { reason: 'Change of plans' });
    expect(c1.json()).toMatchObject({ state: 'Canceled', canceledBy: 'Customer', canceledByUserId: customer.userId, cancelReason: 'Change of plans', refundedCents: 9_000 });
    const b2 = await make(late!.id);
    const c2 = await call('POST', `/api/charter/bookings/${b2.id}/cancel`, customer, { reason: 'Sick' });
    expect(c2.json()).toMatchObject({ state: 'Canceled', refundedCents: 4_500 });
    expect(await paymentsOf(t).getPayment(b2.paymentId)).toMatchObject({ status: 'PartiallyRefunded', refundedCents: 4_500 });
    const b3 = await make(weather!.id);
    expect((await call('POST', `/api/charter/bookings/${b3.id}/cancel-for-weather`, customer, { reason: 'Wind' })).statusCode).toBe(403);
    const c3 = await call('POST', `/api/charter/bookings/${b3.id}/cancel-for-weather`, captain, { reason: 'Small craft advisory' });
    expect(c3.json()).toMatchObject({ state: 'Canceled', canceledBy: 'Weather', canceledByUserId: captain.userId, refundedCents: 9_000 });
    expect((await call('POST', `/api/charter/bookings/${b3.id}/cancel`, other, { reason: 'x'.repeat(3) })).statusCode).toBe(403);
    expect((await call('POST', `/api/charter/bookings/${b3.id}/cancel`, customer, { reason: 'again' })).json().code).toBe('charters.invalid_state');
    expect((await auditEntries(t, 'payments.refunded')).filter((a) => String(a.reason).startsWith('Booking canceled')).length).toBeGreaterThanOrEqual(3);
    // The freed slot is bookable again.
    expect((await book(listing.id, other, { slotId: weather!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 1 })).statusCode).toBe(201);
  });

  it('auto-declines bookings not accepted within 24 h (injected clock) and completes finished trips', async () => {
    const [slot] = await addSlots(t, captain, listing.id, [daysAhead(70)]);
    const pending = (await book(listing.id, customer, { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2 })).json();
    const deps = { ...serviceDeps(t), payments: paymentsOf(t) };
    expect((await runChartersJob({ ...deps, now: () => new Date(Date.now() + 23 * 3_600_000) })).declined).toBe(0);
    expect((await call('GET', `/api/charter/bookings/${pending.id}`, customer)).json().state).toBe('Pending');
    const later = await runChartersJob({ ...deps, now: () => new Date(Date.now() + 25 * 3_600_000) });
    expect(later.declined).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `/api/charter/bookings/${pending.id}`, customer)).json()).toMatchObject({ state: 'Declined', declineReason: expect.stringContaining('24 hours'), refundedCents: 9_000 });
    const done = await runChartersJob({ ...deps, now: () => new Date(Date.now() + 400 * 86_400_000) });
    expect(done.completed).toBeGreaterThanOrEqual(1);
    expect(refundDue({ depositCents: 1000, startsAt: new Date('2026-01-10T00:00:00Z'), policy: { freeCancellationDays: 7, lateCancellationRefundPercent: 25, depositPercent: 10, instantBook: true }, state: 'Confirmed' }, 'customer', new Date('2026-01-05T00:00:00Z'))).toBe(250);
  });

  it('instant-book confirms at once; an expired licence blocks new bookings and shows a notice', async () => {
    const quick = await createListing(t, captain, { instantBook: true, depositPercent: 0 });
    const [slot] = await addSlots(t, captain, quick.id, [daysAhead(80)]);
    const res = await call('POST', `/api/charter/listings/${quick.id}/book`, customer, { slotId: slot!.id, tripTypeId: quick.tripTypes[0]!.id, partySize: 1 }, { 'idempotency-key': randomUUID() });
    expect(res.json()).toMatchObject({ state: 'Confirmed', acceptBy: null, depositCents: 0, paymentId: null });
    const expired = await createCaptain(t, staff.admin, { licenceExpiresOn: '2020-01-01' });
    const stale = await createListing(t, expired);
    const view = (await call('GET', `/api/charter/listings/${stale.id}`, customer)).json();
    expect(view).toMatchObject({ bookable: false, notice: expect.stringContaining('licence'), captain: { licenceValid: false } });
    const [s] = await addSlots(t, expired, stale.id, [daysAhead(80)]);
    const blocked = await book(stale.id, customer, { slotId: s!.id, tripTypeId: stale.tripTypes[0]!.id, partySize: 1 });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'charters.captain_licence_expired', detail: expect.stringContaining('2020-01-01') });
  });
});

describe('demo seed', () => {
  it('creates a verified captain with a bookable listing, idempotently', async () => {
    const { applySeeds } = await import('../../core/db/seeds.js');
    const { chartersDemoSeed, DEMO_LISTING_ID } = await import('./charters.seeds.js');
    await applySeeds(t.database.pool, [chartersDemoSeed], { force: true });
    await applySeeds(t.database.pool, [chartersDemoSeed], { force: true });
    const res = await call('GET', `/api/charter/listings/${DEMO_LISTING_ID}`, customer);
    expect(res.json()).toMatchObject({ isActive: true, bookable: true, captain: { username: 'demo_captain', licenceValid: true } });
    const slots = (await call('GET', `/api/charter/listings/${DEMO_LISTING_ID}/slots`, customer)).json();
    expect(slots.length).toBeGreaterThanOrEqual(7);
    expect(slots[0].startsAt).toMatch(/T07:00:00-0[45]:00$/);
  });
});
