import { uuidv7 } from '../../src/core/db/ids.js';
import { catches, logEntries } from '../../src/modules/fishing-log/fishing-log.tables.js';
import { speciesId } from '../../src/modules/species/species.seeds.js';
import { jurisdictionId, programId, zoneId } from '../../src/modules/regulations/regulations.seeds.js';
import type { TestApp } from '../harness.js';
import { createStaff, createUser, type Staff, type TestUser } from './users.js';

/** Factories of the regulations tests: seeded ids, and logged catches at a place and time. */

export const SPECIES = {
  walleye: speciesId('Sander vitreus'),
  sauger: speciesId('Sander canadensis'),
  pike: speciesId('Esox lucius'),
  muskie: speciesId('Esox masquinongy'),
  largemouth: speciesId('Micropterus salmoides'),
  smallmouth: speciesId('Micropterus dolomieu'),
  bluegill: speciesId('Lepomis macrochirus'),
  perch: speciesId('Perca flavescens'),
  blackCrappie: speciesId('Pomoxis nigromaculatus'),
  lakeTrout: speciesId('Salvelinus namaycush'),
  brookTrout: speciesId('Salvelinus fontinalis'),
};

export const PLACES = {
  /** Near Little Falls, Minnesota: statewide rules. */
  centralMinnesota: { lat: 45.95, lon: -94.35 },
  /** Mille Lacs Lake, Minnesota (the lake's special-regulation water). */
  milleLacs: { lat: 46.23, lon: -93.65 },
  /** Big Traverse Bay, Lake of the Woods (Minnesota waters). */
  lakeOfTheWoods: { lat: 49.1, lon: -94.9 },
  /** Central basin of Lake Erie, Ohio waters. */
  lakeErie: { lat: 41.7, lon: -82.0 },
  /** Columbus, Ohio. */
  columbus: { lat: 39.96, lon: -83.0 },
  /** The Atlantic. */
  atlantic: { lat: 35, lon: -40 },
};

export const MN = jurisdictionId('US-MN');
export const LAKE_OF_THE_WOODS = zoneId('US-MN', 'Lake of the Woods (Minnesota waters)');
export const MILLE_LACS = zoneId('US-MN', 'Mille Lacs Lake');
export const OH = jurisdictionId('US-OH');
export const LAKE_ERIE = zoneId('US-OH', 'Lake Erie (Ohio waters)');
export const MN_OUTLINE = zoneId('US-MN', 'Minnesota');
export const FISH_OHIO = programId('US-OH', 'Fish Ohio');

/** Body of POST /api/admin/regulations/emergency-orders: Lake of the Woods walleye closed in September 2025. */
export const LAKE_OF_THE_WOODS_CLOSURE = {
  jurisdictionId: MN,
  zoneId: LAKE_OF_THE_WOODS,
  speciesId: SPECIES.walleye,
  startsOn: '2025-09-01',
  endsOn: '2025-09-30',
  reason: 'Test closure',
  overrides: { closed: true },
};

/** Body of POST /api/admin/regulations/rule-sets: a statewide Minnesota rule unless overridden. */
export function ruleVersionBody(overrides: Record<string, unknown> = {}) {
  return {
    jurisdictionId: MN,
    speciesId: SPECIES.bluegill,
    effectiveFrom: '2025-07-01',
    openSeasons: [{ from: '2025-03-01', to: '2026-02-28' }],
    dailyBag: 10,
    sourceUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html',
    reason: 'Test version',
    ...overrides,
  };
}

/** Body of POST /api/admin/regulations/programs: a length program in Ohio unless overridden. */
export function programBody(overrides: Record<string, unknown> = {}) {
  return {
    jurisdictionId: jurisdictionId('US-OH'),
    name: 'Test Trophy Program',
    url: 'https://example.org/trophy',
    sourceYear: 2025,
    measurement: 'Length',
    awardLevels: [
      { name: 'Trophy', speciesCount: 1 },
      { name: 'Master', speciesCount: 3 },
    ],
    species: [{ speciesId: SPECIES.muskie, minLengthIn: 40 }],
    reason: 'Test program',
    ...overrides,
  };
}

export interface LoggedCatchOptions {
  lat?: number | null;
  lon?: number | null;
  stateCode?: string | null;
  speciesId?: string;
  lengthCm?: number | null;
  weightKg?: number | null;
  released?: boolean;
  count?: number;
  caughtAt?: string;
  visibility?: 'Public' | 'Private' | 'Friends' | 'Circle';
  entryId?: string;
}

/** A log entry (unless `entryId`) and one catch on it; returns both ids. */
export async function createLoggedCatch(t: TestApp, ownerId: string, options: LoggedCatchOptions = {}): Promise<{ entryId: string; catchId: string }> {
  const caughtAt = new Date(options.caughtAt ?? '2025-06-01T14:00:00Z');
  let entryId = options.entryId;
  if (!entryId) {
    entryId = uuidv7();
    await t.database.db.insert(logEntries).values({
      id: entryId,
      ownerId,
      title: 'Regulation test',
      occurredAt: caughtAt,
      timeZone: 'America/Chicago',
      latitude: options.lat === undefined ? PLACES.centralMinnesota.lat : options.lat,
      longitude: options.lon === undefined ? PLACES.centralMinnesota.lon : options.lon,
      stateCode: options.stateCode === undefined ? 'US-MN' : options.stateCode,
      visibility: options.visibility ?? 'Private',
    });
  }
  const catchId = uuidv7();
  await t.database.db.insert(catches).values({
    id: catchId,
    entryId,
    ownerId,
    speciesId: options.speciesId ?? SPECIES.walleye,
    lengthCm: options.lengthCm === undefined ? 40 : options.lengthCm,
    weightKg: options.weightKg ?? null,
    released: options.released ?? false,
    count: options.count ?? 1,
    caughtAt,
  });
  return { entryId, catchId };
}

export const inches = (n: number) => Math.round(n * 2.54 * 100) / 100;

/**
 * The staff of the regulations admin tests: `edit` (Regulations.Edit denied to deniedAdmin, granted to
 * grantedModerator; its moderator has Regulations.View only), `view` (Regulations.View the same way; its
 * moderator has nothing) and a standard angler.
 */
export async function createRegulationsStaff(t: TestApp): Promise<{ edit: Staff; view: Staff; angler: TestUser }> {
  const edit = await createStaff(t, 'Regulations.Edit', { otherPermission: 'Regulations.View' });
  const view = await createStaff(t, 'Regulations.View');
  return { edit, view, angler: await createUser(t) };
}
