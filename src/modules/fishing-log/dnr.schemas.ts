import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { Latitude, Longitude, PointView } from '../../core/http/coordinates.js';

export const ConsentLevelSchema = Type.Union([Type.Literal('None'), Type.Literal('Anonymized'), Type.Literal('Identified')], {
  description: 'None: no research use (default). Anonymized: without your id, name or notes, coordinates rounded to 0.1°. Identified: with your user id.',
});

export const ResearchConsentBody = Type.Object({ level: ConsentLevelSchema }, { additionalProperties: false });
export const ResearchConsentView = Type.Object(
  { level: ConsentLevelSchema, givenAt: Type.Union([Timestamp, Type.Null()], { description: 'When the current level was chosen (null: never chosen)' }) },
  { additionalProperties: false, $id: 'ResearchConsent' },
);

export const AnalysisQuery = listQuery({
  purpose: Type.String({ minLength: 3, maxLength: 500, description: 'Why the data is read (kept in the DNR access log and shown to the anglers concerned)' }),
  speciesId: Type.Optional(Uuid),
  stateCode: Type.Optional(StateCode),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
  minLat: Type.Optional(Latitude),
  maxLat: Type.Optional(Latitude),
  minLng: Type.Optional(Longitude),
  maxLng: Type.Optional(Longitude),
  groupBy: Type.Optional(Type.Union([Type.Literal('species'), Type.Literal('state'), Type.Literal('month')], { description: 'Aggregate instead of records' })),
});
export type AnalysisQueryType = Static<typeof AnalysisQuery>;


export const AnalysisRecord = Type.Object(
  {
    consent: Type.Union([Type.Literal('Anonymized'), Type.Literal('Identified')]),
    userId: Nullable(Uuid),
    entryId: Nullable(Uuid),
    catchId: Nullable(Uuid),
    species: Type.Object({ id: Uuid, commonName: Type.String(), scientificName: Type.String() }, { additionalProperties: false }),
    lengthCm: Nullable(Type.Number()),
    weightKg: Nullable(Type.Number()),
    count: Type.Integer(),
    released: Type.Boolean(),
    caughtAt: Timestamp,
    stateCode: Nullable(Type.String()),
    waterBody: Nullable(Type.String()),
    location: Nullable(PointView(), { description: 'Where it was caught (null: not logged); rounded to 0.1° when Anonymized' }),
    method: Nullable(Type.String()),
    airTemperatureC: Nullable(Type.Number()),
    waterTemperatureC: Nullable(Type.Number()),
    waterClarity: Nullable(Type.String()),
    notes: Nullable(Type.String()),
  },
  {
    additionalProperties: false,
    $id: 'DnrAnalysisRecord',
    description: 'One catch. Anonymized: userId, entryId, catchId and notes are null, coordinates rounded to 0.1°, time to the hour.',
  },
);

export const AnalysisGroup = Type.Object(
  {
    key: Type.String({ description: 'Species id, state code or YYYY-MM' }),
    label: Type.String(),
    records: Type.Integer(),
    anglers: Type.Integer({ description: 'Distinct anglers (always ≥ 5: smaller groups are suppressed)' }),
    fish: Type.Integer(),
    meanLengthCm: Nullable(Type.Number()),
    meanWeightKg: Nullable(Type.Number()),
  },
  { additionalProperties: false, $id: 'DnrAnalysisGroup' },
);

export const ResearchAccess = Type.Object(
  {
    id: Uuid,
    occurredAt: Timestamp,
    dnrUsername: Type.String(),
    purpose: Type.String(),
    mode: Type.Union([Type.Literal('records'), Type.Literal('aggregate')]),
    filters: Type.Record(Type.String(), Type.Unknown()),
    consentLevel: Type.Union([Type.Literal('Anonymized'), Type.Literal('Identified')], { description: 'Your consent level at the time of the access' }),
  },
  { additionalProperties: false, $id: 'ResearchAccess' },
);
export const ResearchAccessQuery = listQuery({});
