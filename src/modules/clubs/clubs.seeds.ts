import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { upsertDemoUser } from '../users/users.service.js';
import { clubMembers, clubs } from './clubs.tables.js';

/** Namespace of the demonstration records' ids (stable, so the seed is idempotent). */
const DEMO_NAMESPACE = 'c2a9e6f1-7d3b-5a40-8e5c-1b6f9d2a4c83';
export const DEMO_CLUB_ID = uuidv5('club:demo-anglers', DEMO_NAMESPACE);
const DEMO_COMMUNITY_SUB = 'demo:community';

/**
 * Demonstration data (`fishlog seed --demo`): one public sample club, labelled as such, placed at
 * the centre of Brainerd, Minnesota (46.3580 N, 94.2008 W); its owner is the demo community user
 * (no password: it cannot sign in). Anyone can join it at once. Idempotent.
 */
export const clubsDemoSeed: Seed = {
  name: 'clubs.demo',
  version: 1,
  description: 'One public sample club',
  async run({ tx }) {
    const user = await upsertDemoUser(tx, { sub: DEMO_COMMUNITY_SUB, username: 'demo_community', email: 'demo-community@example.com' });
    const [created] = await tx
      .insert(clubs)
      .values({
        id: DEMO_CLUB_ID,
        ownerId: user.id,
        name: 'Sample Lakes Area Anglers',
        description: 'Demonstration data of `fishlog seed --demo`: a public club anyone can join. Not a real club.',
        privacy: 'Public',
        homeWater: 'Brainerd lakes area',
        city: 'Brainerd',
        stateCode: 'US-MN',
        lat: 46.358,
        lon: -94.2008,
        memberCount: 1,
      })
      .onConflictDoNothing()
      .returning({ id: clubs.id });
    if (created) await tx.insert(clubMembers).values({ clubId: DEMO_CLUB_ID, userId: user.id, role: 'owner', status: 'Active', joinedAt: new Date() }).onConflictDoNothing();
  },
};
