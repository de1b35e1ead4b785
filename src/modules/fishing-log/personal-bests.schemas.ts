import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, StateCode, Timestamp, Uuid } from '../../core/http/schemas.js';
import { SpeciesRef } from '../profiles/index.js';
import { pascalEnum } from '../../core/http/enums.js';

export const MEASURES = ['weight', 'length'] as const;
export type Measure = (typeof MEASURES)[number];
export const UNIT_OF: Record<Measure, 'kg' | 'cm'> = { weight: 'kg', length: 'cm' };

/** Weight or Length; `weight`, `length` are still accepted. */
export const MeasureEnum = pascalEnum(MEASURES, 'Weight (of the catch, in kg) or Length (in cm).');
export const MeasureSchema = MeasureEnum.output;
const UnitSchema = Type.Union([Type.Literal('kg'), Type.Literal('cm')], {
  description: 'Unit of `value`: kg for Weight, cm for Length (SI unit symbols, not vocabulary values: they keep their lower-case spelling)',
});

const criterionFields = {
  id: Uuid,
  species: SpeciesRef,
  measure: MeasureSchema,
  unit: UnitSchema,
  waterBody: Nullable(Type.String({ description: 'Only catches from this water body count (compared case-insensitively); null: any' })),
  stateCode: Nullable(Type.String({ description: 'Only catches logged in this state count; null: any' })),
  releasedOnly: Type.Boolean({ description: 'Only released fish count' }),
};

export const CurrentBest = Type.Object(
  {
    personalBestId: Uuid,
    catchId: Uuid,
    value: Type.Number(),
    caughtAt: Timestamp,
    achievedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const Criterion = Type.Object(
  {
    ...criterionFields,
    createdAt: Timestamp,
    currentBest: Nullable(CurrentBest),
  },
  { additionalProperties: false, $id: 'PersonalBestCriterion', description: 'What counts as a personal best, with the best catch in force (null: no catch qualifies yet)' },
);

export const PersonalBest = Type.Object(
  {
    id: Uuid,
    criterion: Type.Object(criterionFields, { additionalProperties: false }),
    value: Type.Number({ description: 'The best measure, in `unit`' }),
    unit: UnitSchema,
    caughtAt: Timestamp,
    achievedAt: Timestamp,
    isUltimate: Type.Boolean({ description: 'Whether this is the owner’s ultimate personal best (at most one)' }),
    catch: Type.Object(
      {
        id: Uuid,
        lengthCm: Nullable(Type.Number()),
        weightKg: Nullable(Type.Number()),
        released: Type.Boolean(),
        caughtAt: Timestamp,
        entry: Nullable(
          Type.Object(
            { id: Uuid, title: Type.String(), waterBody: Nullable(Type.String()), stateCode: Nullable(Type.String()) },
            { additionalProperties: false, description: 'The log entry of the catch; null when its visibility does not admit you' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    previous: Nullable(
      Type.Object(
        {
          id: Uuid,
          catchId: Nullable(Uuid),
          value: Type.Number(),
          caughtAt: Timestamp,
          achievedAt: Timestamp,
        },
        { additionalProperties: false, description: 'The personal best this one replaced (catchId null: that catch was deleted)' },
      ),
    ),
  },
  { additionalProperties: false, $id: 'PersonalBest', description: 'A personal best in force' },
);

/** One change of a criterion's best, as returned to the fishing log when a catch is added or changed. */
export const PersonalBestChangeSchema = Type.Object(
  {
    criterionId: Uuid,
    personalBestId: Uuid,
    catchId: Uuid,
    previousCatchId: Nullable(Uuid),
    kind: Type.Union([Type.Literal('NewBest'), Type.Literal('Fallback')], {
      description: 'NewBest: the catch beat the previous best (or is the first); Fallback: the previous best was edited below it, no longer matches or was deleted',
    }),
  },
  { additionalProperties: false, description: 'A personal best set by this change (embed in the response of the catch that caused it)' },
);

export const CreateCriterionBody = Type.Object(
  {
    speciesId: Type.String({ format: 'uuid', description: 'Id of a species (GET /api/fish-species)' }),
    measure: MeasureEnum.input,
    waterBody: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Only catches from this water body (trimmed)' }))),
    stateCode: Type.Optional(Nullable(StateCode, { description: 'Only catches logged in this state or province (ISO 3166-2, as log entries record it), e.g. US-MN' })),
    releasedOnly: Type.Optional(Type.Boolean({ default: false, description: 'Only released fish count' })),
  },
  { additionalProperties: false },
);

export const PbIdParams = Type.Object({ pbId: Uuid }, { additionalProperties: false });
export const CriterionIdParams = Type.Object({ criterionId: Uuid }, { additionalProperties: false });
export const OwnerParams = Type.Object({ userId: Uuid }, { additionalProperties: false });

const filters = {
  speciesId: Type.Optional(Type.String({ format: 'uuid', description: 'Only this species' })),
  measure: Type.Optional(MeasureEnum.input),
};
export const PersonalBestsQuery = listQuery(filters);
export const CriteriaQuery = listQuery(filters);
