import { randomUUID } from 'node:crypto';
import { LISTING_INPUT_EXAMPLE } from '../../src/modules/charters/charters.schemas.js';
import { createStaff, createUser, type Staff, type TestUser } from './users.js';
import type { TestApp } from '../harness.js';

/** Typed factories of the charters module, through the API as users would. */

export const APPLICATION = {
  licenceType: 'OUPV' as 'OUPV' | 'Master',
  licenceNumber: '1234567',
  licenceExpiresOn: '2099-12-31',
  vesselName: 'Reel Therapy',
  vesselRegistration: 'FL 1234 AB',
  insuranceCarrier: 'Example Marine Insurance',
  insurancePolicyNumber: 'EMI-1',
  insuranceExpiresOn: '2099-12-31',
};

/** The OpenAPI example listing, with a second (per-person) trip type. */
export const LISTING = {
  ...LISTING_INPUT_EXAMPLE,
  tripTypes: [
    { name: 'Half day', durationHours: 4, pricing: 'PerTrip', priceCents: 45_000, maxPartySize: 4 },
    { name: 'Sunset', durationHours: 3, pricing: 'PerPerson', priceCents: 9_000, maxPartySize: 6 },
  ],
  included: ['Rods and tackle', 'Bait'],
};

/** A user who applied as a captain and whom `admin` verified. */
export async function createCaptain(t: TestApp, admin: TestUser, application: Partial<typeof APPLICATION> = {}): Promise<TestUser> {
  const user = await createUser(t);
  const applied = await t.app.inject({ method: 'POST', url: '/api/charter/captains', headers: user.headers, payload: { ...APPLICATION, ...application } });
  if (applied.statusCode !== 201) throw new Error(`apply failed: ${applied.body}`);
  const verified = await t.app.inject({ method: 'POST', url: `/api/admin/charter/captains/${user.userId}/verify`, headers: admin.headers, payload: {} });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  return user;
}

export interface TestListing {
  id: string;
  tripTypes: Array<{ id: string; name: string; priceCents: number; maxPartySize: number }>;
}

export async function createListing(t: TestApp, captain: TestUser, overrides: Record<string, unknown> = {}): Promise<TestListing> {
  const res = await t.app.inject({ method: 'POST', url: '/api/charter/listings', headers: captain.headers, payload: { ...LISTING, ...overrides } });
  if (res.statusCode !== 201) throw new Error(`listing failed: ${res.body}`);
  return res.json();
}

/** Adds local start times; returns the slots (id, startsAt with offset, booked). */
export async function addSlots(t: TestApp, captain: TestUser, listingId: string, startsAt: string[]): Promise<Array<{ id: string; startsAt: string; booked: boolean }>> {
  const res = await t.app.inject({ method: 'POST', url: `/api/charter/listings/${listingId}/slots`, headers: captain.headers, payload: { startsAt } });
  if (res.statusCode !== 201) throw new Error(`slots failed: ${res.body}`);
  return res.json();
}

/** A local date-time `days` from now in the listing's zone (approximately: date part only). */
export function daysAhead(days: number, time = '06:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;
}

/** The cast of a booking test: staff (with `payments.refund` as the permission under test), a verified captain with a listing, and a customer. */
export async function charterCast(t: TestApp): Promise<{ staff: Staff; captain: TestUser; customer: TestUser; listing: TestListing }> {
  const staff = await createStaff(t, 'payments.refund');
  const captain = await createCaptain(t, staff.admin);
  return { staff, captain, customer: await createUser(t), listing: await createListing(t, captain) };
}

let nextDay = 30;

/** `customer` books a new slot of `listing` (`daysOut` days ahead; by default a day no earlier call used) for a party of 2 with `card`: the raw response. */
export async function bookNewSlot(t: TestApp, captain: TestUser, listing: TestListing, customer: TestUser, card = '4242424242424242', daysOut = nextDay++) {
  const [slot] = await addSlots(t, captain, listing.id, [daysAhead(daysOut)]);
  return t.app.inject({
    method: 'POST',
    url: `/api/charter/listings/${listing.id}/book`,
    headers: { ...customer.headers, 'idempotency-key': randomUUID() },
    payload: { slotId: slot!.id, tripTypeId: listing.tripTypes[0]!.id, partySize: 2, paymentMethod: card },
  });
}
