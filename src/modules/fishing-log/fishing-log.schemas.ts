import { pascalEnum } from '../../core/http/enums.js';
import { Type, type Static } from 'typebox';
import { feedScopeSchema, VisibilitySchema } from '../../core/access/visibility-levels.js';
import { withClientId } from '../../core/http/client-ids.js';
import { VersionField } from '../../core/http/conditional.js';
import { feedQuery, listQuery } from '../../core/http/pagination.js';
import { Latitude, Longitude, PRECISION_DESCRIPTION, ShownLocation } from '../../core/http/coordinates.js';
import { Nullable, PastTimestamp, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { PersonalBestChangeSchema } from './personal-bests.schemas.js';

/**
 * Fishing-log request and response schemas. Canonical units (also in each field's description):
 * lengths cm, weights kg, temperatures °C, wind km/h, pressure hPa, depth m, coordinates WGS 84.
 */

const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

export const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the place, e.g. America/Chicago', examples: ['America/Chicago'] });

export const SKY = ['clear', 'partly-cloudy', 'overcast', 'fog', 'drizzle', 'rain', 'storm', 'snow'] as const;
export const WIND_DIRECTIONS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;
export const MOON_PHASES = ['new', 'waxing-crescent', 'first-quarter', 'waxing-gibbous', 'full', 'waning-gibbous', 'last-quarter', 'waning-crescent'] as const;
export const CLARITY = ['clear', 'lightly-stained', 'stained', 'muddy'] as const;
export const METHODS = ['shore', 'boat', 'kayak', 'ice', 'fly', 'wade', 'pier', 'charter', 'trolling', 'other'] as const;

const literals = <T extends readonly string[]>(values: T, description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const SkyEnum = pascalEnum(SKY, 'Sky: Clear, PartlyCloudy, Overcast, Fog, Drizzle, Rain, Storm or Snow.');
export const MoonPhaseEnum = pascalEnum(MOON_PHASES, 'Moon phase: New, WaxingCrescent, FirstQuarter, WaxingGibbous, Full, WaningGibbous, LastQuarter or WaningCrescent.');
export const ClarityEnum = pascalEnum(CLARITY, 'Water clarity: Clear, LightlyStained, Stained or Muddy.');
export const MethodEnum = pascalEnum(METHODS, 'How you fished: Shore, Boat, Kayak, Ice, Fly, Wade, Pier, Charter, Trolling or Other.');
/** A stored value as the API answers it (null stays null). */
export const apiValue = (values: { toApi(stored: never): string }, stored: string | null): string | null => (stored === null ? null : values.toApi(stored as never));

export const LocationInput = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    waterBody: Type.Optional(Text(200, 'Lake, river or sea area')),
    stateCode: Type.Optional(StateCode),
  },
  { additionalProperties: false },
);

export const WeatherInput = Type.Object(
  {
    airTemperatureC: Type.Optional(Type.Number({ minimum: -60, maximum: 60, description: 'Air temperature, °C' })),
    sky: Type.Optional(SkyEnum.input),
    windSpeedKmh: Type.Optional(Type.Number({ minimum: 0, maximum: 300, description: 'Wind speed, km/h' })),
    windDirection: Type.Optional(literals(WIND_DIRECTIONS, 'Where the wind comes from (16-point compass)')),
    pressureHpa: Type.Optional(Type.Number({ minimum: 850, maximum: 1100, description: 'Barometric pressure, hPa' })),
    moonPhase: Type.Optional(MoonPhaseEnum.input),
  },
  { additionalProperties: false },
);

export const WaterInput = Type.Object(
  {
    temperatureC: Type.Optional(Type.Number({ minimum: -2, maximum: 45, description: 'Water temperature, °C' })),
    clarity: Type.Optional(ClarityEnum.input),
    depthM: Type.Optional(Type.Number({ minimum: 0, maximum: 11000, description: 'Depth fished, metres' })),
  },
  { additionalProperties: false },
);

export const EntryInput = Type.Object(
  {
    title: Text(200),
    occurredAt: PastTimestamp,
    timeZone: TimeZone,
    sessionId: Type.Optional(Nullable(Uuid)),
    location: Type.Optional(Nullable(LocationInput)),
    weather: Type.Optional(Nullable(WeatherInput)),
    water: Type.Optional(Nullable(WaterInput)),
    method: Type.Optional(Nullable(MethodEnum.input)),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    visibility: Type.Optional(VisibilitySchema),
    shareExactLocation: Type.Optional(Type.Boolean({ description: 'Show exact coordinates to other viewers (default: rounded to about 1 km)' })),
  },
  { additionalProperties: false },
);
export type EntryInputType = Static<typeof EntryInput>;
export const EntryCreateInput = withClientId(EntryInput);

/** PUT: the whole entry. What creation defaults (visibility, shareExactLocation) must be sent. */
export const EntryReplaceInput = Type.Object(
  {
    ...EntryInput.properties,
    visibility: VisibilitySchema,
    shareExactLocation: Type.Boolean({ description: 'Show exact coordinates to other viewers (false: rounded to about 1 km)' }),
  },
  { additionalProperties: false, description: 'The whole entry: omitted optional fields become null; catches are kept' },
);
export type EntryReplaceType = Static<typeof EntryReplaceInput>;

export const LocationView = Type.Object(
  {
    latitude: Type.Number(),
    longitude: Type.Number(),
    waterBody: Nullable(Type.String()),
    stateCode: Nullable(Type.String()),
    precision: Type.Union([Type.Literal('Exact'), Type.Literal('Approximate')], { description: `${PRECISION_DESCRIPTION}, for viewers other than the owner` }),
  },
  { additionalProperties: false },
);

export const WeatherView = Type.Object(
  {
    airTemperatureC: Nullable(Type.Number()),
    sky: Nullable(Type.String()),
    windSpeedKmh: Nullable(Type.Number()),
    windDirection: Nullable(Type.String()),
    pressureHpa: Nullable(Type.Number()),
    moonPhase: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const WaterView = Type.Object(
  { temperatureC: Nullable(Type.Number()), clarity: Nullable(Type.String()), depthM: Nullable(Type.Number()) },
  { additionalProperties: false },
);

export const SpeciesRef = Type.Object({ id: Uuid, commonName: Type.String(), scientificName: Type.String() }, { additionalProperties: false });

export const CatchInput = Type.Object(
  {
    speciesId: Uuid,
    lengthCm: Type.Optional(Type.Number({ minimum: 0.5, maximum: 600, description: 'Total length, centimetres (0.5–600)' })),
    weightKg: Type.Optional(Type.Number({ minimum: 0.001, maximum: 1500, description: 'Weight, kilograms (0.001–1500)' })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1, description: 'How many fish this record stands for' })),
    released: Type.Boolean({ description: 'true: released; false: kept' }),
    caughtAt: Type.Optional(PastTimestamp),
    bait: Type.Optional(Text(200)),
    lure: Type.Optional(Text(200)),
    lureId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'A lure of the gear catalog (GET /api/gear/lures)' })),
    gearSetupId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'One of your gear setups (GET /api/gear/setups)' })),
    photoUrls: Type.Optional(Type.Array(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), { maxItems: 10 })),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    location: Type.Optional(Type.Object({ latitude: Latitude, longitude: Longitude }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type CatchInputType = Static<typeof CatchInput>;
export const CatchCreateInput = withClientId(CatchInput);

/** PUT: the whole catch. What creation defaults (count, caughtAt) must be sent. */
export const CatchReplaceInput = Type.Object(
  {
    ...CatchInput.properties,
    count: Type.Integer({ minimum: 1, maximum: 10_000, description: 'How many fish this record stands for' }),
    caughtAt: PastTimestamp,
  },
  { additionalProperties: false, description: 'The whole catch: omitted optional fields become empty' },
);
export type CatchReplaceType = Static<typeof CatchReplaceInput>;
export const CatchIdParams = Type.Object({ entryId: Uuid, catchId: Uuid }, { additionalProperties: false });

export const MasterAnglerEligibility = Type.Object(
  {
    eligible: Type.Boolean({ description: 'Whether the catch meets the minimum of a Master Angler program of its state or your home state' }),
    programs: Type.Array(
      Type.Object(
        {
          programId: Uuid,
          programName: Type.String({ examples: ['Fish Ohio'] }),
          state: Type.String({ description: 'The program’s state, ISO 3166-2', examples: ['US-OH'] }),
          category: Type.String({ description: 'any, release or harvest' }),
          qualifiesBy: Type.Union([Type.Literal('Length'), Type.Literal('Weight')]),
          minLengthIn: Nullable(Type.Number({ description: 'inches' })),
          minWeightLb: Nullable(Type.Number({ description: 'pounds' })),
        },
        { additionalProperties: false },
      ),
      { description: 'Submit with POST /api/regulations/master-angler/submissions' },
    ),
  },
  { additionalProperties: false, description: 'Master Angler programs the catch is eligible for (detected, not submitted). On catch reads, shown to the catch’s owner only.' },
);

export const CatchView = Type.Object(
  {
    id: Uuid,
    entryId: Uuid,
    species: SpeciesRef,
    lengthCm: Nullable(Type.Number({ description: 'cm' })),
    weightKg: Nullable(Type.Number({ description: 'kg' })),
    count: Type.Integer(),
    released: Type.Boolean(),
    caughtAt: Timestamp,
    bait: Nullable(Type.String()),
    lure: Nullable(Type.String()),
    lureItem: Nullable(Type.Object({ id: Uuid, name: Type.String(), brand: Type.String() }, { additionalProperties: false, description: 'The catalog lure' })),
    gearSetupId: Type.Union([Uuid, Type.Null()], { description: 'Your gear setup (shown to the owner only)' }),
    photoUrls: Type.Array(Type.String(), { description: 'Links to pictures elsewhere' }),
    photos: Type.Optional(Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos, in order (POST …/catches/{catchId}/photos); on reads of the catch and its entry' })),
    notes: Nullable(Type.String()),
    location: Nullable(ShownLocation, { description: 'Where the catch itself was made (null: at the entry’s location)' }),
    version: VersionField,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    masterAngler: Type.Optional(MasterAnglerEligibility),
  },
  { additionalProperties: false, $id: 'Catch' },
);

export const CatchCreated = Type.Object(
  {
    ...CatchView.properties,
    masterAngler: MasterAnglerEligibility,
    personalBests: Type.Array(PersonalBestChangeSchema, { description: 'Personal bests this catch set (empty when none)' }),
  },
  { additionalProperties: false, $id: 'CatchCreated' },
);

export const CatchUpdated = Type.Object(
  {
    ...CatchView.properties,
    masterAngler: MasterAnglerEligibility,
    personalBests: Type.Array(PersonalBestChangeSchema, {
      description: 'Personal bests the change moved (empty when none): `new_best` when this catch now holds one, `fallback` when it lost one to the next best',
    }),
  },
  { additionalProperties: false, $id: 'CatchUpdated' },
);

const entryProperties = {
  id: Uuid,
  ownerId: Uuid,
  ownerUsername: Type.String(),
  sessionId: Nullable(Uuid),
  title: Type.String(),
  occurredAt: Timestamp,
  timeZone: Type.String(),
  location: Nullable(LocationView),
  weather: Nullable(WeatherView),
  water: Nullable(WaterView),
  method: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  visibility: VisibilitySchema,
  shareExactLocation: Type.Boolean(),
  catchCount: Type.Integer(),
  version: VersionField,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const EntrySummary = Type.Object(
  {
    ...entryProperties,
    photos: Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos of the entry, in order (its catches’ photos are on the entry’s and the catches’ reads)' }),
  },
  { additionalProperties: false, $id: 'LogEntrySummary' },
);
export const EntryFull = Type.Object(
  {
    ...entryProperties,
    photos: Type.Optional(Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos of the entry, in order (POST …/entries/{entryId}/photos); on reads of the entry' })),
    catches: Type.Array(Type.Ref('Catch')),
  },
  { additionalProperties: false, $id: 'LogEntry' },
);

export const EntriesQuery = feedQuery({
  mine: Type.Optional(Type.Boolean({ description: 'Only your own entries' })),
  ownerId: Type.Optional(Uuid),
  speciesId: Type.Optional(Uuid),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
  visibility: Type.Optional(VisibilitySchema),
  scope: Type.Optional(feedScopeSchema('entries')),
  minLat: Type.Optional(Latitude),
  maxLat: Type.Optional(Latitude),
  minLng: Type.Optional(Longitude),
  maxLng: Type.Optional(Longitude),
});
export type EntriesQueryType = Static<typeof EntriesQuery>;

export const EntryIdParams = Type.Object({ entryId: Uuid }, { additionalProperties: false });

export const SessionInput = Type.Object(
  {
    startedAt: PastTimestamp,
    endedAt: Type.Optional(Nullable(PastTimestamp)),
    timeZone: Type.Optional(TimeZone),
    location: Type.Optional(Nullable(LocationInput)),
    participants: Type.Optional(Type.Array(Text(100), { maxItems: 20, description: 'Who fished with you (free text)' })),
    notes: Type.Optional(Type.String({ maxLength: 10_000 })),
    weatherSummary: Type.Optional(Type.String({ maxLength: 1000 })),
    waterSummary: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
export type SessionInputType = Static<typeof SessionInput>;
export const SessionCreateInput = withClientId(SessionInput);

const sessionProperties = {
  id: Uuid,
  startedAt: Timestamp,
  endedAt: Nullable(Timestamp),
  timeZone: Nullable(Type.String()),
  location: Nullable(LocationView),
  participants: Type.Array(Type.String()),
  notes: Nullable(Type.String()),
  weatherSummary: Nullable(Type.String()),
  waterSummary: Nullable(Type.String()),
  entryCount: Type.Integer(),
  version: VersionField,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
export const SessionSummary = Type.Object(sessionProperties, { additionalProperties: false, $id: 'FishingSessionSummary' });
export const SessionFull = Type.Object(
  { ...sessionProperties, entries: Type.Array(Type.Object({ id: Uuid, title: Type.String(), occurredAt: Timestamp }, { additionalProperties: false })) },
  { additionalProperties: false, $id: 'FishingSession' },
);
export const SessionsQuery = listQuery({ from: Type.Optional(Timestamp), to: Type.Optional(Timestamp) });
export const CatchesQuery = listQuery({});
