import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TObject } from 'typebox';
import { withoutNulls } from '../../core/http/merge-patch.js';
import { catches, CatchCreateInput, CatchReplaceInput, EntryCreateInput, EntryReplaceInput, fishingSessions, logEntries, pbCriteria, SessionCreateInput, SessionInput } from '../fishing-log/index.js';
import { boats, BoatBody, BoatCreateBody, gearItems, gearSetupLures, gearSetups, SetupBody, SetupCreateBody } from '../gear/index.js';
import { brands } from '../brands/index.js';
import { fishSpecies } from '../species/index.js';
import { lookupValues } from '../lookups/index.js';
import { userProfiles } from '../profiles/index.js';
import { photos } from '../photos/index.js';
import { catchAsInput, entryAsInput } from '../fishing-log/entries.service.js';
import { sessionAsInput } from '../fishing-log/sessions.service.js';
import { boatAsInput } from '../gear/boats.service.js';
import { setupAsInput } from '../gear/setups.service.js';

/**
 * The tables of the sync protocol (WatermelonDB's raw records: `id` a string, the other columns in
 * snake_case; times are milliseconds since the epoch, as WatermelonDB's `@date` fields keep them;
 * lists are JSON text, as its `@json` fields keep them). Server-managed columns (`version`,
 * `created_at`, `updated_at`) are sent and ignored when pushed, except `version`: an update pushed
 * with another version than the server's is a conflict (sync.service.ts).
 */

export interface Raw {
  id: string;
  [column: string]: string | number | boolean | null;
}

/** What a pull reads of a table: its rows, as raw records, changed at or after the cursor. */
export interface PullSpec {
  /** The protocol's table name. */
  name: string;
  table: PgTable;
  /** The owner column; none for the shared tables (everyone pulls every row). */
  owner?: AnyPgColumn;
  /** The raw columns: name → SQL expression (id first). */
  columns: Record<string, SQL | AnyPgColumn>;
  /** Extra condition (e.g. only the photos of catches and entries). */
  where?: SQL;
  /** Columns whose value is a list, sent as JSON text. */
  json?: readonly string[];
}

const ms = (column: AnyPgColumn): SQL<number> => sql<number>`(extract(epoch from ${column}) * 1000)::float8`;
const msOrNull = (column: AnyPgColumn): SQL<number | null> => sql<number | null>`(extract(epoch from ${column}) * 1000)::float8`;

const stamps = (t: { version?: AnyPgColumn; createdAt: AnyPgColumn; updatedAt?: AnyPgColumn }) => ({
  ...(t.version ? { version: t.version } : {}),
  created_at: ms(t.createdAt),
  ...(t.updatedAt ? { updated_at: ms(t.updatedAt) } : {}),
});

export const SESSIONS: PullSpec = {
  name: 'sessions',
  table: fishingSessions,
  owner: fishingSessions.ownerId,
  columns: {
    id: fishingSessions.id,
    started_at: ms(fishingSessions.startedAt),
    ended_at: msOrNull(fishingSessions.endedAt),
    time_zone: fishingSessions.timeZone,
    latitude: fishingSessions.latitude,
    longitude: fishingSessions.longitude,
    water_body: fishingSessions.waterBody,
    state_code: fishingSessions.stateCode,
    participants: fishingSessions.participants,
    notes: fishingSessions.notes,
    weather_summary: fishingSessions.weatherSummary,
    water_summary: fishingSessions.waterSummary,
    ...stamps(fishingSessions),
  },
  json: ['participants'],
};

export const ENTRIES: PullSpec = {
  name: 'entries',
  table: logEntries,
  owner: logEntries.ownerId,
  columns: {
    id: logEntries.id,
    session_id: logEntries.sessionId,
    title: logEntries.title,
    occurred_at: ms(logEntries.occurredAt),
    time_zone: logEntries.timeZone,
    latitude: logEntries.latitude,
    longitude: logEntries.longitude,
    water_body: logEntries.waterBody,
    state_code: logEntries.stateCode,
    air_temperature_c: logEntries.airTemperatureC,
    sky: logEntries.sky,
    wind_speed_kmh: logEntries.windSpeedKmh,
    wind_direction: logEntries.windDirection,
    pressure_hpa: logEntries.pressureHpa,
    moon_phase: logEntries.moonPhase,
    water_temperature_c: logEntries.waterTemperatureC,
    water_clarity: logEntries.waterClarity,
    water_depth_m: logEntries.waterDepthM,
    method: logEntries.method,
    notes: logEntries.notes,
    visibility: logEntries.visibility,
    share_exact_location: logEntries.shareExactLocation,
    ...stamps(logEntries),
  },
};

export const CATCHES: PullSpec = {
  name: 'catches',
  table: catches,
  owner: catches.ownerId,
  columns: {
    id: catches.id,
    entry_id: catches.entryId,
    species_id: catches.speciesId,
    length_cm: catches.lengthCm,
    weight_kg: catches.weightKg,
    count: catches.count,
    released: catches.released,
    caught_at: ms(catches.caughtAt),
    bait: catches.bait,
    lure: catches.lure,
    lure_item_id: catches.lureItemId,
    gear_setup_id: catches.gearSetupId,
    photo_urls: catches.photoUrls,
    notes: catches.notes,
    latitude: catches.latitude,
    longitude: catches.longitude,
    ...stamps(catches),
  },
  json: ['photo_urls'],
};

export const BOATS: PullSpec = {
  name: 'boats',
  table: boats,
  owner: boats.ownerId,
  columns: {
    id: boats.id,
    name: boats.name,
    make: boats.make,
    model: boats.model,
    year: boats.year,
    length_cm: boats.lengthCm,
    hull_type: boats.hullType,
    hull_material: boats.hullMaterial,
    motor: boats.motor,
    horsepower: boats.horsepower,
    home_water: boats.homeWater,
    notes: boats.notes,
    ...stamps(boats),
  },
};

export const GEAR_SETUPS: PullSpec = {
  name: 'gear_setups',
  table: gearSetups,
  owner: gearSetups.ownerId,
  columns: {
    id: gearSetups.id,
    name: gearSetups.name,
    rod_id: gearSetups.rodId,
    reel_id: gearSetups.reelId,
    line_id: gearSetups.lineId,
    lure_ids: sql<string[]>`ARRAY(SELECT ${gearSetupLures.lureId} FROM ${gearSetupLures} WHERE ${gearSetupLures.setupId} = ${gearSetups.id} ORDER BY ${gearSetupLures.position})::text[]`,
    technique: gearSetups.technique,
    notes: gearSetups.notes,
    ...stamps(gearSetups),
  },
  json: ['lure_ids'],
};

export const PERSONAL_BEST_CRITERIA: PullSpec = {
  name: 'personal_best_criteria',
  table: pbCriteria,
  owner: pbCriteria.ownerId,
  columns: {
    id: pbCriteria.id,
    species_id: pbCriteria.speciesId,
    measure: pbCriteria.measure,
    water_body: pbCriteria.waterBody,
    state_code: pbCriteria.stateCode,
    released_only: pbCriteria.releasedOnly,
    created_at: ms(pbCriteria.createdAt),
  },
};

/** The caller's uploaded photos of catches and entries: metadata and the URLs to GET them with the caller's token (read-only). */
export const PHOTOS: PullSpec = {
  name: 'photos',
  table: photos,
  owner: photos.ownerId,
  columns: {
    id: photos.id,
    kind: photos.kind,
    record_id: photos.recordId,
    position: photos.position,
    is_cover: photos.isCover,
    width: photos.width,
    height: photos.height,
    status: photos.status,
    display_url: sql<string>`'/api/photos/' || ${photos.id} || '/display'`,
    thumbnail_url: sql<string>`'/api/photos/' || ${photos.id} || '/thumbnail'`,
    ...stamps(photos),
  },
  where: sql`${photos.kind} IN ('Catch', 'Entry')`,
};

/** The caller's own profile: one record whose id is the user's id (read-only here; PUT /api/userprofile/me changes it). */
export const PROFILES: PullSpec = {
  name: 'profiles',
  table: userProfiles,
  owner: userProfiles.userId,
  columns: {
    id: userProfiles.userId,
    display_name: userProfiles.displayName,
    bio: userProfiles.bio,
    home_state: userProfiles.homeState,
    home_region: userProfiles.homeRegion,
    favourite_species_id: userProfiles.favouriteSpeciesId,
    units_preference: userProfiles.unitsPreference,
    visibility: userProfiles.visibility,
    ...stamps(userProfiles),
  },
};

export const SPECIES: PullSpec = {
  name: 'species',
  table: fishSpecies,
  columns: { id: fishSpecies.id, common_name: fishSpecies.commonName, scientific_name: fishSpecies.scientificName, is_active: fishSpecies.isActive },
};

export const LOOKUP_VALUES: PullSpec = {
  name: 'lookup_values',
  table: lookupValues,
  columns: { id: lookupValues.id, category: lookupValues.category, code: lookupValues.code, label: lookupValues.label, sort_order: lookupValues.sortOrder, is_active: lookupValues.isActive },
};

export const GEAR_ITEMS: PullSpec = {
  name: 'gear_items',
  table: gearItems,
  columns: { id: gearItems.id, kind: gearItems.kind, brand_id: gearItems.brandId, name: gearItems.name, product_line: gearItems.productLine, model_number: gearItems.modelNumber, is_active: gearItems.isActive },
};

export const BRANDS: PullSpec = {
  name: 'brands',
  table: brands,
  columns: { id: brands.id, name: brands.name, country: brands.country, is_active: brands.isActive },
};

/** Every table a pull reads, in this order (the friends are read apart: sync.repository.ts). */
export const PULLED: readonly PullSpec[] = [SESSIONS, ENTRIES, CATCHES, BOATS, GEAR_SETUPS, PERSONAL_BEST_CRITERIA, PHOTOS, PROFILES, SPECIES, LOOKUP_VALUES, GEAR_ITEMS, BRANDS];
/** The friends' table of the protocol: `{ id, username, display_name }` of each friend (read-only). */
export const FRIENDS = 'friends';
export const TABLE_NAMES: readonly string[] = [...PULLED.map((t) => t.name), FRIENDS];

// ---------------------------------------------------------------------------------------------
// Push: a raw record → the REST body of the owning module (its create or PUT body), so that the
// module's own schema and service decide on it. The module maps it, with the mapping it uses for its
// own rows (`entryAsInput` …): the raw record is read as such a row, each column in camelCase.

type Body = Record<string, unknown>;

const camel = (column: string) => column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * A raw record as its module's row: every column of the table's pull in camelCase (a missing one null), its lists
 * parsed from their JSON text (text that is not JSON stays, for the schema to name the field); times stay
 * milliseconds (the modules' mappers take them: `isoTime`).
 */
function rowOf(spec: PullSpec, raw: Raw): never {
  const row: Body = {};
  for (const column of Object.keys(spec.columns)) {
    const value = raw[column] ?? null;
    row[camel(column)] = spec.json?.includes(column) && typeof value === 'string' ? parsedList(value) : value;
  }
  return row as never;
}

function parsedList(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The module's body without its null fields, in its groups too (a create body omits what it does not give; for a PUT body null is the same). */
const bodyOf = (body: object): Body => withoutNulls(body) as Body;

/** A pushed table: how a raw record becomes the module's body, and where each body field is in the raw record. */
export interface PushSpec {
  name: string;
  createSchema: TObject;
  replaceSchema: TObject;
  body(raw: Raw): Body;
  /** A body field's pointer (`/weather/sky`) → its raw column (`sky`); default: the last segment in snake_case. */
  columnOf?: Record<string, string>;
}

export const SESSIONS_PUSH: PushSpec = {
  name: 'sessions',
  createSchema: SessionCreateInput,
  replaceSchema: SessionInput,
  body: (r) => bodyOf(sessionAsInput(rowOf(SESSIONS, r))),
};

export const ENTRIES_PUSH: PushSpec = {
  name: 'entries',
  createSchema: EntryCreateInput,
  replaceSchema: EntryReplaceInput,
  body: (r) => bodyOf(entryAsInput(rowOf(ENTRIES, r))),
  columnOf: { '/water/temperatureC': 'water_temperature_c', '/water/clarity': 'water_clarity', '/water/depthM': 'water_depth_m', '/weather/pressureHpa': 'pressure_hpa' },
};

export const CATCHES_PUSH: PushSpec = {
  name: 'catches',
  createSchema: CatchCreateInput,
  replaceSchema: CatchReplaceInput,
  body: (r) => bodyOf(catchAsInput(rowOf(CATCHES, r))),
  columnOf: { '/lureId': 'lure_item_id' },
};

export const BOATS_PUSH: PushSpec = {
  name: 'boats',
  createSchema: BoatCreateBody,
  replaceSchema: BoatBody,
  body: (r) => bodyOf(boatAsInput(rowOf(BOATS, r))),
};

export const GEAR_SETUPS_PUSH: PushSpec = {
  name: 'gear_setups',
  createSchema: SetupCreateBody,
  replaceSchema: SetupBody,
  body: (r) => {
    const row: { lureIds: string[] } = rowOf(GEAR_SETUPS, r);
    return bodyOf(setupAsInput(row as never, row.lureIds));
  },
};

/** The tables a push writes, parents first (creates and updates in this order, deletions in the reverse). */
export const PUSHED: readonly PushSpec[] = [BOATS_PUSH, GEAR_SETUPS_PUSH, SESSIONS_PUSH, ENTRIES_PUSH, CATCHES_PUSH];

/** The raw column of a body field's JSON pointer (for the problem of a refused record). */
export function columnOfPointer(spec: PushSpec, pointer: string): string {
  const mapped = spec.columnOf?.[pointer];
  if (mapped) return mapped;
  const segments = pointer.split('/').filter(Boolean);
  const field = segments.find((s) => !['location', 'weather', 'water'].includes(s) && !/^\d+$/.test(s)) ?? segments[0] ?? '';
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
