import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { upsertDemoUser } from '../users/users.service.js';
import { events } from './events.tables.js';

/** Namespace of the demonstration records' ids (stable, so the seed is idempotent). */
const DEMO_NAMESPACE = 'b7e3c1d4-2a5f-5e68-9c0b-4f1d8a6e3b27';
export const DEMO_EVENT_ID = uuidv5('event:demo-swap-meet', DEMO_NAMESPACE);
export const DEMO_COMMUNITY_SUB = 'demo:community';

/**
 * Demonstration data (`fishlog seed --demo`): one approved, public sample event six weeks after the
 * seed runs — a tackle swap meet, clearly labelled as sample data (its venue is the centre of
 * Minneapolis, 44.9778 N, 93.2650 W, not a real booking). Its creator is a demo user without a
 * password (it cannot sign in). Applied again, it leaves the existing row as it is.
 */
export const eventsDemoSeed: Seed = {
  name: 'events.demo',
  version: 1,
  description: 'One approved sample event (a tackle swap meet)',
  async run({ tx }) {
    const user = await upsertDemoUser(tx, { sub: DEMO_COMMUNITY_SUB, username: 'demo_community', email: 'demo-community@example.com' });
    const day = 86_400_000;
    const start = new Date(Math.ceil((Date.now() + 42 * day) / day) * day + 15 * 3_600_000); // 15:00 UTC (9 or 10 a.m. in Minnesota), six weeks ahead
    await tx
      .insert(events)
      .values({
        id: DEMO_EVENT_ID,
        creatorId: user.id,
        title: 'Sample event: spring tackle swap meet',
        description: 'Demonstration data of `fishlog seed --demo`: bring used rods, reels and lures to trade. Not a real event.',
        type: 'SwapMeet',
        startsAt: start,
        endsAt: new Date(start.getTime() + 6 * 3_600_000),
        venueName: 'Sample venue, Minneapolis',
        city: 'Minneapolis',
        stateCode: 'US-MN',
        lat: 44.9778,
        lon: -93.265,
        capacity: 150,
        registrationDeadline: new Date(start.getTime() - day),
        status: 'Approved',
        reviewedAt: new Date(),
      })
      .onConflictDoNothing();
  },
};
