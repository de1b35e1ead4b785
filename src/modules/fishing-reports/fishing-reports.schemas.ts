import { Type, type Static } from 'typebox';
import { MAX_RADIUS_KM } from '../../core/db/geo.js';
import { legacyPointNote, PointBody, ShownLocation } from '../../core/http/coordinates.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, PastDate, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { CONTENT_STATUSES } from '../moderation/index.js';
import { LookupCode } from '../lookups/index.js';
import { BITES, WIND_DIRECTIONS } from './fishing-reports.tables.js';

const Bite = literals(BITES, 'How the species bit: Hot, Good, Fair, Slow, None');

const ConditionsProperties = {
  waterTempC: Type.Optional(Nullable(Type.Number({ minimum: -5, maximum: 45, description: 'Water temperature, °C', examples: [18.5] }))),
  clarity: Type.Optional(Nullable(LookupCode('WaterClarity', 'Water clarity', 'Clear'))),
  sky: Type.Optional(Nullable(LookupCode('Sky', 'Weather', 'PartlyCloudy'))),
  windKmh: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 250, description: 'Wind speed, km/h', examples: [12] }))),
  windDirection: Type.Optional(Nullable(literals(WIND_DIRECTIONS, 'Where the wind came from'))),
};

const createExample = {
  waterBody: 'Mille Lacs Lake',
  stateCode: 'US-MN',
  location: { latitude: 46.2333, longitude: -93.65 },
  fishedOn: '2026-06-01',
  conditions: { waterTempC: 18.5, clarity: 'Clear', sky: 'PartlyCloudy', windKmh: 12, windDirection: 'NW' },
  species: [{ speciesId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', bite: 'Good' }],
  text: 'Walleye on the mud flats at 9 m, leeches on slip bobbers at dusk.',
};

export const CreateFishingReportBody = Type.Object(
  {
    waterBody: Type.String({ minLength: 1, maxLength: 200 }),
    stateCode: Type.Optional(Nullable(StateCode)),
    location: PointBody({ description: `Where you fished. ${legacyPointNote('lat', 'lon')}` }),
    exactLocation: Type.Optional(Type.Boolean({ description: 'Show the exact point to everyone (default false: rounded to ~1 km)', default: false })),
    fishedOn: Type.String({ ...PastDate, description: 'The day fished: from 1900-01-01, not in the future' }),
    conditions: Type.Optional(Type.Object(ConditionsProperties, { additionalProperties: false })),
    species: Type.Optional(
      Type.Array(Type.Object({ speciesId: Uuid, bite: Bite }, { additionalProperties: false }), { maxItems: 20, description: 'Species (GET /api/fish-species) and how they bit' }),
    ),
    text: Type.String({ minLength: 1, maxLength: 5000 }),
  },
  { additionalProperties: false, examples: [createExample] },
);
export type CreateFishingReportInput = Static<typeof CreateFishingReportBody>;

const reportProperties = {
  id: Uuid,
  author: Type.Object({ userId: Uuid, username: Type.String() }, { additionalProperties: false }),
  waterBody: Type.String(),
  stateCode: Nullable(Type.String()),
  location: ShownLocation,
  fishedOn: Type.String({ format: 'date' }),
  conditions: Type.Object(
    {
      waterTempC: Nullable(Type.Number()),
      clarity: Nullable(Type.String({ description: 'A WaterClarity lookup value (GET /api/lookups/WaterClarity)' })),
      sky: Nullable(Type.String({ description: 'A Sky lookup value (GET /api/lookups/Sky)' })),
      windKmh: Nullable(Type.Number()),
      windDirection: Nullable(literals(WIND_DIRECTIONS)),
    },
    { additionalProperties: false },
  ),
  species: Type.Array(Type.Object({ speciesId: Uuid, commonName: Type.String(), bite: Bite }, { additionalProperties: false })),
  text: Type.String(),
  photos: Type.Optional(Type.Array(Type.Ref('Photo'), { description: 'Uploaded photos, in order (POST /api/reports/{id}/photos; others see the published ones); on reads' })),
  status: literals(CONTENT_STATUSES, 'Published, PendingReview (held for a moderator; only its author sees it) or Rejected (its author sees why)'),
  moderationReason: Nullable(Type.String({ description: 'Why it was rejected (its author only)' })),
  helpfulCount: Type.Integer(),
  markedHelpful: Type.Boolean({ description: 'You marked it helpful' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const reportExample = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  author: { userId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', username: 'jo' },
  waterBody: 'Mille Lacs Lake',
  stateCode: 'US-MN',
  location: { latitude: 46.23, longitude: -93.65, precision: 'Approximate' },
  fishedOn: '2026-06-01',
  conditions: { waterTempC: 18.5, clarity: 'Clear', sky: 'PartlyCloudy', windKmh: 12, windDirection: 'NW' },
  species: [{ speciesId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23', commonName: 'Walleye', bite: 'Good' }],
  text: 'Walleye on the mud flats at 9 m, leeches on slip bobbers at dusk.',
  status: 'Published',
  moderationReason: null,
  helpfulCount: 3,
  markedHelpful: false,
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const FishingReport = Type.Object(reportProperties, { additionalProperties: false, $id: 'FishingReport', examples: [reportExample] });
export const NearbyFishingReport = Type.Object(
  { ...reportProperties, distanceKm: Type.Number({ description: 'Distance from the search centre to the location shown, km' }) },
  { additionalProperties: false, $id: 'NearbyFishingReport', examples: [{ ...reportExample, distanceKm: 1.204 }] },
);

export const ByLocationQuery = listQuery({
  lat: Type.Number({ minimum: -90, maximum: 90, examples: [46.2333] }),
  lon: Type.Number({ minimum: -180, maximum: 180, examples: [-93.65] }),
  radiusKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: 25, description: `Radius in km (default 25, at most ${MAX_RADIUS_KM})` })),
  speciesId: Type.Optional(Uuid),
});
export type ByLocationQueryType = Static<typeof ByLocationQuery>;

export const HelpfulResult = Type.Object(
  { helpfulCount: Type.Integer(), markedHelpful: Type.Boolean() },
  { additionalProperties: false, $id: 'FishingReportHelpful', examples: [{ helpfulCount: 4, markedHelpful: true }] },
);

export const AdminReportsQuery = listQuery({
  status: Type.Optional(literals(CONTENT_STATUSES, 'Default PendingReview')),
});

export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 3, maxLength: 1000, description: 'Shown to the author' }) },
  { additionalProperties: false, examples: [{ reason: 'Advertising a guide service; post it as a charter listing instead.' }] },
);
export const NoteBody = Type.Object(
  { note: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'For the audit log' })) },
  { additionalProperties: false, examples: [{ note: 'Reviewed: fishing content only.' }] },
);
