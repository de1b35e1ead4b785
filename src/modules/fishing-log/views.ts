import { apiValue, ClarityEnum, MethodEnum, MoonPhaseEnum, SkyEnum } from './fishing-log.schemas.js';
import type { CatchWithSpecies, EntryWithOwner } from './entries.repository.js';
import { pointFor, showsExactLocation } from '../../core/access/location.js';
import { isOwner } from '../../core/access/policy.js';
import type { SessionRow } from './fishing-log.tables.js';

/** How records look to a viewer: coordinates are rounded to 0.01° (about 1 km) unless the viewer owns the record or it is shared exactly. */

export { APPROXIMATE_DECIMALS } from '../../core/access/location.js';
const point = pointFor;

export function catchView(row: CatchWithSpecies, exact: boolean, ownerView = exact) {
  return {
    id: row.id,
    entryId: row.entryId,
    species: row.species,
    lengthCm: row.lengthCm,
    weightKg: row.weightKg,
    count: row.count,
    released: row.released,
    caughtAt: row.caughtAt.toISOString(),
    bait: row.bait,
    lure: row.lure,
    lureItem: row.lureItem,
    // Gear setups are private to their owner.
    gearSetupId: ownerView ? row.gearSetupId : null,
    photoUrls: row.photoUrls,
    notes: row.notes,
    location: point(row.latitude, row.longitude, exact),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}


export function entryView(viewerId: string, row: EntryWithOwner) {
  const exact = showsExactLocation(viewerId, row);
  const location = point(row.latitude, row.longitude, exact);
  return {
    id: row.id,
    ownerId: row.ownerId,
    ownerUsername: row.ownerUsername,
    // Sessions are private to their owner: others do not learn which session an entry belongs to.
    sessionId: isOwner(viewerId, row) ? row.sessionId : null,
    title: row.title,
    occurredAt: row.occurredAt.toISOString(),
    timeZone: row.timeZone,
    location: location ? { latitude: location.latitude, longitude: location.longitude, precision: location.precision, waterBody: row.waterBody, stateCode: row.stateCode } : null,
    weather:
      row.airTemperatureC !== null || row.sky !== null || row.windSpeedKmh !== null || row.windDirection !== null || row.pressureHpa !== null || row.moonPhase !== null
        ? { airTemperatureC: row.airTemperatureC, sky: apiValue(SkyEnum, row.sky), windSpeedKmh: row.windSpeedKmh, windDirection: row.windDirection, pressureHpa: row.pressureHpa, moonPhase: apiValue(MoonPhaseEnum, row.moonPhase) }
        : null,
    water:
      row.waterTemperatureC !== null || row.waterClarity !== null || row.waterDepthM !== null
        ? { temperatureC: row.waterTemperatureC, clarity: apiValue(ClarityEnum, row.waterClarity), depthM: row.waterDepthM }
        : null,
    method: apiValue(MethodEnum, row.method),
    notes: row.notes,
    visibility: row.visibility,
    shareExactLocation: row.shareExactLocation,
    catchCount: row.catchCount,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * An entry with its catches (their views: `catches`, else `catchView` of each). The views are
 * built as object literals and completed in place, not copied with `...`: on `/userprofile/me` a
 * spread view cost a fifth of the service's CPU per request.
 */
export function fullEntryView<C = ReturnType<typeof catchView>>(viewerId: string, row: EntryWithOwner, entryCatches: CatchWithSpecies[], catches?: C[]) {
  const exact = showsExactLocation(viewerId, row);
  const view = entryView(viewerId, row);
  view.catchCount = entryCatches.length;
  return Object.assign(view, { catches: catches ?? (entryCatches.map((c) => catchView(c, exact, isOwner(viewerId, row))) as C[]) });
}

export function sessionView(row: SessionRow & { entryCount: number }) {
  return {
    id: row.id,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
    timeZone: row.timeZone,
    location:
      row.latitude !== null && row.longitude !== null
        ? { latitude: row.latitude, longitude: row.longitude, waterBody: row.waterBody, stateCode: row.stateCode, precision: 'Exact' as const }
        : null,
    participants: row.participants,
    notes: row.notes,
    weatherSummary: row.weatherSummary,
    waterSummary: row.waterSummary,
    entryCount: row.entryCount,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
