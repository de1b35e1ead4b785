import { uuidv7 } from '../../core/db/ids.js';
import type { Seed } from '../../core/db/seeds.js';
import { users } from '../users/index.js';
import { charterCaptains, charterListings, charterSlots } from './charters.tables.js';
import { zonedToUtc } from './charters.time.js';

/**
 * Demonstration data (`fishlog seed --demo`): one verified captain with one active listing and
 * a week of morning slots. Fictional: the licence, vessel and insurance values are placeholders
 * marked DEMO. The captain's user has no login; sign in as yourself to browse and book.
 */

export const DEMO_CAPTAIN_ID = '0193b7a4-de00-7c3a-9a57-000000000001';
export const DEMO_LISTING_ID = '0193b7a4-de00-7c3a-9a57-000000000002';
const DEMO_TRIP_TYPE_ID = '0193b7a4-de00-7c3a-9a57-000000000003';

export const chartersDemoSeed: Seed = {
  name: 'charters.demo',
  version: 1,
  description: 'Demo: a verified charter captain with an active listing and open slots',
  async run({ tx }) {
    await tx.insert(users).values({ id: DEMO_CAPTAIN_ID, sub: 'demo:charter-captain', username: 'demo_captain', email: null }).onConflictDoNothing();
    await tx
      .insert(charterCaptains)
      .values({
        userId: DEMO_CAPTAIN_ID,
        licenceType: 'OUPV',
        licenceNumber: 'DEMO-0000001',
        licenceExpiresOn: '2099-12-31',
        vesselName: 'Demo Skiff',
        vesselRegistration: 'DEMO 0001',
        insuranceCarrier: 'DEMO insurer',
        insurancePolicyNumber: 'DEMO-POLICY-1',
        insuranceExpiresOn: '2099-12-31',
        status: 'Verified',
        reviewedAt: new Date(),
        reviewReason: 'Demonstration data',
      })
      .onConflictDoNothing();
    await tx
      .insert(charterListings)
      .values({
        id: DEMO_LISTING_ID,
        captainId: DEMO_CAPTAIN_ID,
        title: 'Demo: half-day inshore trip',
        description: 'Demonstration listing created by fishlog seed --demo.',
        boatName: 'Demo Skiff',
        homePort: 'St. Petersburg, Florida',
        state: 'US-FL',
        latitude: 27.77,
        longitude: -82.64,
        timeZone: 'America/New_York',
        tripTypes: [{ id: DEMO_TRIP_TYPE_ID, name: 'Half day', durationHours: 4, pricing: 'PerTrip', priceCents: 40_000, maxPartySize: 4 }],
        targetSpecies: ['Snook', 'Red drum', 'Spotted seatrout'],
        included: ['Rods and tackle', 'Bait'],
        freeCancellationDays: 7,
        lateCancellationRefundPercent: 50,
        depositPercent: 20,
        instantBook: true,
      })
      .onConflictDoNothing();
    const start = new Date();
    const slots = Array.from({ length: 7 }, (_, i) => {
      const day = new Date(start.getTime() + (i + 7) * 86_400_000).toISOString().slice(0, 10);
      return { id: uuidv7(), listingId: DEMO_LISTING_ID, startsAt: zonedToUtc(`${day}T07:00`, 'America/New_York') };
    });
    await tx.insert(charterSlots).values(slots).onConflictDoNothing();
  },
};
