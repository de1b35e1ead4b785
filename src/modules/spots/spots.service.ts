import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { adminChange, featureChange, type AdminRecord } from '../../core/admin/change.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { Viewer } from '../../core/access/policy.js';
import { allows, authorize } from '../../core/access/policy.js';
import { spotPolicy } from '../../core/access/policies/spots.js';
import type { DbOrTx } from '../../core/db/client.js';
import { isFeatured, type FeatureInput } from '../../core/db/featured.js';
import type { AuditContext } from '../../core/audit/audit.js';
import { snapToGrid, toKm, type Near } from '../../core/db/geo.js';
import { shownLocation } from '../../core/http/coordinates.js';
import type { Page } from '../../core/http/pagination.js';
import { SpotErrors } from './spots.errors.js';
import * as repo from './spots.repository.js';
import type { CreateSpotInput, RateSpotInput } from './spots.schemas.js';
import { FACILITY_KINDS, type SpotKind, type SpotPrivacy } from './spots.tables.js';
import { photoViews } from '../photos/photos.service.js';

/**
 * Spots: any angler adds one (Unverified until an administrator verifies it or
 * CONFIRMATIONS_TO_VERIFY other anglers confirm it), rates it (1–5, one rating each) and finds
 * them by distance. Location privacy: see the spot policy.
 */

export const CONFIRMATIONS_TO_VERIFY = 3;

function average(sum: number, count: number): number | null {
  return count === 0 ? null : Math.round((sum / count) * 100) / 100;
}

export async function spotView(deps: ServiceDeps<DbOrTx>, viewer: Viewer, row: repo.SpotWithCreator, now = new Date()) {
  return (await spotViews(deps, viewer, [row], now))[0]!;
}

/** The views of a page of spots: their photos read in one statement for the page. */
export async function spotViews(deps: ServiceDeps<DbOrTx>, viewer: Viewer, rows: readonly repo.SpotWithCreator[], now = new Date()) {
  const [exact, photos] = await Promise.all([Promise.all(rows.map((row) => allows(spotPolicy, viewer, 'seeExact', row, deps))), photoViews(deps, viewer.userId, rows.map((row) => row.id))]);
  return rows.map((row, i) => viewOf(row, exact[i]!, photos, now));
}

function viewOf(row: repo.SpotWithCreator, exact: boolean, photos: Awaited<ReturnType<typeof photoViews>>, now: Date) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    privacy: row.privacy,
    location: shownLocation(exact, { latitude: row.lat, longitude: row.lon }, { latitude: row.publicLat, longitude: row.publicLon }),
    waterBody: row.waterBody,
    stateCode: row.stateCode,
    description: row.description,
    ramp:
      row.kind === 'BoatRamp'
        ? {
            rampType: row.rampType,
            lanes: row.lanes,
            parkingSpaces: row.parkingSpaces,
            feeRequired: row.feeRequired,
            feeCents: row.feeCents,
            accessible: row.accessible,
            seasonal: row.seasonal,
          }
        : null,
    sourceUrl: row.sourceUrl,
    county: row.county,
    agency: row.agency,
    status: row.status,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    confirmationCount: row.confirmationCount,
    rating: { average: average(row.ratingSum, row.ratingCount), count: row.ratingCount },
    featured: isFeatured(row, now),
    photos: photos.get(row.id)!,
    isActive: row.isActive,
    createdBy: row.ownerId ? { userId: row.ownerId, username: row.creatorUsername ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored values of a new spot (also used by the demo seed). */
export function spotValues(ownerId: string, input: CreateSpotInput) {
  const kind = input.kind as SpotKind;
  const privacy = (input.privacy ?? 'Public') as SpotPrivacy;
  if (FACILITY_KINDS.includes(kind) && privacy !== 'Public') throw SpotErrors.facilityIsPublic(kind);
  const ramp = input.ramp ?? null;
  if (ramp && kind !== 'BoatRamp') throw SpotErrors.rampFactsOnlyForRamps();
  if (ramp?.feeCents != null && ramp.feeRequired === false) throw SpotErrors.feeWithoutFlag();
  const { latitude: lat, longitude: lon } = input.location;
  const shown = privacy === 'Public' ? { lat, lon } : snapToGrid(lat, lon);
  return {
    id: uuidv7(),
    ownerId,
    name: input.name.trim(),
    kind,
    privacy,
    lat,
    lon,
    publicLat: shown.lat,
    publicLon: shown.lon,
    waterBody: input.waterBody ?? null,
    stateCode: input.stateCode?.toUpperCase() ?? null,
    description: input.description ?? null,
    rampType: ramp?.rampType ?? null,
    lanes: ramp?.lanes ?? null,
    parkingSpaces: ramp?.parkingSpaces ?? null,
    feeRequired: ramp?.feeRequired ?? null,
    feeCents: ramp?.feeCents ?? null,
    accessible: ramp?.accessible ?? null,
    seasonal: ramp?.seasonal ?? null,
    sourceUrl: input.sourceUrl ?? null,
  };
}

export async function createSpot(deps: ServiceDeps, viewer: Viewer, input: CreateSpotInput) {
  const { db } = deps;
  const row = await repo.insertSpot(db, spotValues(viewer.userId, input));
  return spotView(deps, viewer, (await repo.findSpot(db, row.id))!);
}

type SpotAction = Parameters<typeof spotPolicy.can>[1];

/** The spot when the viewer may do `action` on it (404 missing, 403 refused). */
async function permitted(deps: ServiceDeps<DbOrTx>, viewer: Viewer, action: SpotAction, id: string, row: repo.SpotWithCreator | undefined): Promise<repo.SpotWithCreator> {
  await authorize(spotPolicy, viewer, action, row, deps, () => SpotErrors.notFound(id));
  return row!;
}

/** The spot when the viewer may see it (404 missing, 403 deactivated). */
export async function requireVisibleSpot(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string, options: { lock?: boolean } = {}) {
  const { db } = deps;
  return permitted(deps, viewer, 'view', id, await repo.findSpot(db, id, options));
}

export async function nearby(deps: ServiceDeps, viewer: Viewer, near: Near, filter: { kind?: SpotKind | undefined }, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.nearbySpots(db, near, filter, page);
  const now = new Date();
  const views = await spotViews(deps, viewer, items, now);
  return { items: views.map((view, i) => Object.assign(view, { distanceKm: toKm(items[i]!.distanceM) })), total };
}

async function ratingSummary(deps: ServiceDeps<DbOrTx>, viewer: Viewer, row: repo.SpotWithCreator) {
  const { db } = deps;
  const [distribution, mine] = await Promise.all([repo.ratingDistribution(db, row.id), repo.findRating(db, row.id, viewer.userId)]);
  return {
    average: average(row.ratingSum, row.ratingCount),
    count: row.ratingCount,
    distribution: { 1: distribution.get(1) ?? 0, 2: distribution.get(2) ?? 0, 3: distribution.get(3) ?? 0, 4: distribution.get(4) ?? 0, 5: distribution.get(5) ?? 0 },
    mine: mine ? { stars: mine.stars, comment: mine.comment, ratedAt: mine.updatedAt.toISOString() } : null,
  };
}

export async function getSpot(deps: ServiceDeps, viewer: Viewer, id: string) {
  const row = await requireVisibleSpot(deps, viewer, id);
  return { ...(await spotView(deps, viewer, row)), ratingSummary: await ratingSummary(deps, viewer, row) };
}

/** Rates the spot (a new rating replaces the user's previous one); the rating summary after it. */
export async function rateSpot(deps: ServiceDeps, viewer: Viewer, id: string, input: RateSpotInput) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await permitted(inTx(deps, tx), viewer, 'rate', id, await requireVisibleSpot(inTx(deps, tx), viewer, id, { lock: true }));
    await repo.upsertRating(tx, row.id, viewer.userId, input.stars, input.comment ?? null);
    return ratingSummary(inTx(deps, tx), viewer, (await repo.findSpot(tx, id))!);
  });
}

/** Confirms the spot exists as described; the CONFIRMATIONS_TO_VERIFY-th confirmation verifies it. */
export async function confirmSpot(deps: ServiceDeps, viewer: Viewer, id: string) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await permitted(inTx(deps, tx), viewer, 'confirm', id, await requireVisibleSpot(inTx(deps, tx), viewer, id, { lock: true }));
    if (!(await repo.insertConfirmation(tx, row.id, viewer.userId))) throw SpotErrors.alreadyConfirmed();
    const count = row.confirmationCount + 1;
    const verify = count >= CONFIRMATIONS_TO_VERIFY ? { status: 'Verified' as const, verifiedAt: new Date(), verifiedBy: null } : {};
    await repo.updateSpot(tx, row.id, { confirmationCount: count, ...verify });
    return spotView(inTx(deps, tx), viewer, (await repo.findSpot(tx, id))!);
  });
}

// ---- administration ----

/** The spot as an administrator's action changes it (core/admin/change), answered as the viewer sees it. */
const spotRecord = (viewer: Viewer): AdminRecord<repo.SpotWithCreator, Awaited<ReturnType<typeof spotView>>> => ({
  ...spotLifecycle(viewer),
  write: (tx, id, values) => repo.updateSpot(tx, id, values),
});

export async function verifySpot(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, reason: string | null) {
  return adminChange(deps, context, spotRecord(viewer), id, 'spots.verified', reason, (row) => {
    if (row.status === 'Verified') throw SpotErrors.alreadyVerified(id);
    return { status: 'Verified' as const, verifiedAt: new Date(), verifiedBy: viewer.userId };
  });
}

/** Deactivation (never deletion) and back, through core/admin/lifecycle; the answer is the spot as the viewer sees it. */
export async function setSpotActive(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, spotLifecycle(viewer), id, active, reason);
}

const spotLifecycle = (viewer: Viewer): Lifecycle<repo.SpotWithCreator, Awaited<ReturnType<typeof spotView>>> => ({
  lock: (tx, id) => repo.findSpot(tx, id, { lock: true }),
  update: async (tx, id, values) => {
    await repo.updateSpot(tx, id, values);
  },
  view: async (deps, id) => spotView(deps, viewer, (await repo.findSpot(deps.db, id))!),
  notFound: SpotErrors.notFound,
  alreadyActive: SpotErrors.alreadyActive,
  alreadyInactive: SpotErrors.alreadyInactive,
  audit: { targetType: 'spot', deactivated: 'spots.deactivated', reactivated: 'spots.reactivated' },
});

export interface SpotCorrection {
  name?: string | undefined;
  location?: { latitude?: number | undefined; longitude?: number | undefined } | undefined;
  waterBody?: string | null | undefined;
  county?: string | null | undefined;
  description?: string | null | undefined;
  sourceUrl?: string | null | undefined;
  reason: string;
}

/** An administrator's correction of a spot's facts (reference spots included: the seed never undoes it). */
export async function correctSpot(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, input: SpotCorrection) {
  const { reason, location, ...fields } = input;
  return adminChange(deps, context, spotRecord(viewer), id, 'spots.corrected', reason, (row) => {
    const values: Partial<repo.SpotWithCreator> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (values.name !== undefined) values.name = values.name.trim();
    if (location) {
      const lat = location.latitude ?? row.lat;
      const lon = location.longitude ?? row.lon;
      const shown = row.privacy === 'Public' ? { lat, lon } : snapToGrid(lat, lon);
      Object.assign(values, { lat, lon, publicLat: shown.lat, publicLon: shown.lon });
    }
    return values;
  });
}

export async function featureSpot(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, input: FeatureInput | null) {
  return featureChange(deps, context, spotRecord(viewer), id, 'spots', input);
}
