import { v5 as uuidv5 } from 'uuid';
import type { Seed } from '../../core/db/seeds.js';
import { speciesId } from '../species/index.js';
import { upsertDemoUser } from '../users/users.service.js';
import { tournamentDivisions, tournamentOrganizers, tournaments } from './tournaments.tables.js';

/** Namespace of the demonstration records' ids (stable, so the seed is idempotent). */
const DEMO_NAMESPACE = '3d8f0a52-6b1e-5c47-8f2a-9e4d7c1b6a03';
export const demoId = (name: string) => uuidv5(name, DEMO_NAMESPACE);

export const DEMO_ORGANIZER_SUB = 'demo:tournament-organizer';
export const DEMO_TOURNAMENT_ID = demoId('tournament:demo-walleye-classic');

/**
 * Demonstration data (`fishlog seed --demo`): a verified organizer (a user without a password,
 * it cannot sign in) with one approved, free, public walleye tournament a month after the seed
 * runs. Applied again, it leaves existing rows as they are.
 */
export const tournamentsDemoSeed: Seed = {
  name: 'tournaments.demo',
  version: 1,
  description: 'A verified demo organizer with one approved tournament',
  async run({ tx }) {
    const user = await upsertDemoUser(tx, { sub: DEMO_ORGANIZER_SUB, username: 'demo_organizer', email: 'demo-organizer@example.com' });
    const organizerId = demoId('organizer:demo');
    await tx
      .insert(tournamentOrganizers)
      .values({
        id: organizerId,
        userId: user.id,
        name: 'Demo Walleye Club',
        contactEmail: 'demo-organizer@example.com',
        takesPayments: false,
        paymentsAllowed: false,
        status: 'Verified',
        statusReason: null,
        reviewedAt: new Date(),
      })
      .onConflictDoNothing();
    const day = 86_400_000;
    const start = new Date(Math.ceil((Date.now() + 30 * day) / day) * day + 11 * 3_600_000); // 11:00 UTC, a month ahead
    await tx
      .insert(tournaments)
      .values({
        id: DEMO_TOURNAMENT_ID,
        organizerId,
        ownerId: user.id,
        name: 'Demo Walleye Classic',
        description: 'A free catch-photo-release event: best 3 walleye or perch count. Show the identifier code in every photo.',
        waterBody: 'Lake Mille Lacs',
        stateCode: 'US-MN',
        timeZone: 'America/Chicago',
        startsAt: start,
        endsAt: new Date(start.getTime() + 10 * 3_600_000),
        registrationDeadline: new Date(start.getTime() - day),
        capacity: 200,
        entryFeeCents: 0,
        currency: 'USD',
        visibility: 'Public',
        format: 'CPR',
        identifierCode: 'FL-DEMO01',
        status: 'Approved',
        reviewedAt: new Date(),
      })
      .onConflictDoNothing();
    await tx
      .insert(tournamentDivisions)
      .values([
        { id: demoId('division:open'), tournamentId: DEMO_TOURNAMENT_ID, name: 'Open', speciesIds: [speciesId('Sander vitreus'), speciesId('Perca flavescens')], measure: 'length', bestN: 3, minLengthQuarterInches: 48, position: 0 },
        { id: demoId('division:youth'), tournamentId: DEMO_TOURNAMENT_ID, name: 'Youth', speciesIds: [speciesId('Sander vitreus'), speciesId('Perca flavescens')], measure: 'length', bestN: 2, position: 1 },
      ])
      .onConflictDoNothing({ target: tournamentDivisions.id });
  },
};
