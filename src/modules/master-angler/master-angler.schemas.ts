import { Type, type Static } from 'typebox';
import { pascalEnum } from '../../core/http/enums.js';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { Active, HttpUrl, Reason, ReasonBody, Search } from '../regulations/index.js';
import { CATEGORIES, MEASUREMENTS } from './master-angler.tables.js';

export { ReasonBody };

/** The Master Angler API's schemas: programs, submissions and progress; administration of programs. */

const StateId = Type.String({ pattern: '^([A-Za-z]{2}-)?[A-Za-z]{2}$', description: 'ISO 3166-2 state code (US-MN) or the two letters (MN)', examples: ['US-MN'] });
const ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
const ID2 = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22';
const SPECIES_ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23';
const AT = '2025-06-01T12:00:00.000Z';
const Inches = (description: string) => Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100, description }));

// Master Angler

/** Any, Release or Harvest; `any`, `release`, `harvest` are still accepted. */
export const CategoryEnum = pascalEnum(CATEGORIES, 'Release (by length) / Harvest (by weight) category, where the program has them; Any otherwise.');
export const Category = CategoryEnum.output;
/** Length, Weight or Either; `length`, `weight`, `either` are still accepted. */
export const MeasurementEnum = pascalEnum(MEASUREMENTS, 'What the program measures: Length, Weight or Either.');
export const AwardLevel = Type.Object(
  { name: Type.String({ examples: ['Master Angler'] }), speciesCount: Type.Integer({ minimum: 1, maximum: 500, examples: [4] }), description: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
/** Current, Outdated or Missing (answered only). */
export const ProgramDataStatusEnum = pascalEnum(
  ['current', 'outdated', 'missing'] as const,
  'Current: every minimum is confirmed for this program year; Outdated: some are only confirmed for an earlier year (`dataYear`); Missing: no minimums in our data yet (submissions open once an administrator enters them).',
);
export const ProgramView = Type.Object(
  {
    id: Uuid,
    state: Type.String({ examples: ['US-OH'] }),
    name: Type.String({ examples: ['Fish Ohio'] }),
    url: Type.String(),
    sourceYear: Type.Integer({ examples: [2025], description: 'Year the program’s rules and levels were read from its page' }),
    dataYear: Nullable(Type.Integer({ examples: [2020] }), { description: 'The oldest program year any of its minimums is confirmed for (null: no minimums)' }),
    dataStatus: ProgramDataStatusEnum.output,
    measurement: MeasurementEnum.output,
    lengthIncrementIn: Nullable(Type.Number({ description: 'Lengths counted down to this increment (Iowa: 0.25)' })),
    rules: Nullable(Type.String()),
    awardLevels: Type.Array(AwardLevel),
    isActive: Type.Boolean(),
    species: Type.Array(
      Type.Object(
        {
          speciesId: Uuid,
          commonName: Type.String({ examples: ['Muskellunge'] }),
          category: Category,
          minLengthIn: Nullable(Type.Number({ examples: [40] })),
          minLengthCm: Nullable(Type.Number({ examples: [101.6] })),
          minWeightLb: Nullable(Type.Number()),
          minWeightKg: Nullable(Type.Number()),
          notes: Nullable(Type.String()),
          dataYear: Nullable(Type.Integer({ description: 'The program year this minimum is confirmed for (null: the program’s sourceYear)', examples: [2023] })),
          sourceUrl: Nullable(Type.String({ description: 'Where this minimum was read' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'MasterAnglerProgram' },
);
export const StatePrograms = Type.Object(
  { state: Type.String({ examples: ['US-OH'] }), name: Type.String({ examples: ['Ohio'] }), programs: Type.Array(Type.Ref('MasterAnglerProgram')) },
  { additionalProperties: false, $id: 'MasterAnglerStatePrograms' },
);
export const StateParams = Type.Object({ stateId: StateId }, { additionalProperties: false });

const Status = Type.Union([Type.Literal('Submitted'), Type.Literal('UnderReview'), Type.Literal('Approved'), Type.Literal('Rejected')]);
const submissionProperties = {
  id: Uuid,
  programId: Uuid,
  programName: Type.String({ examples: ['Fish Ohio'] }),
  catchId: Uuid,
  species: Type.Object({ id: Uuid, commonName: Type.String() }, { additionalProperties: false }),
  programYear: Type.Integer({ examples: [2025] }),
  category: Category,
  lengthCm: Nullable(Type.Number()),
  weightKg: Nullable(Type.Number()),
  caughtAt: Timestamp,
  waterBody: Nullable(Type.String()),
  stateCode: Nullable(Type.String()),
  photoUrl: Nullable(Type.String()),
  witness: Nullable(Type.String()),
  status: Status,
  rejectionReason: Nullable(Type.String()),
  attempt: Type.Integer({ description: '1, or 2 after the one resubmission allowed after a rejection' }),
  canResubmit: Type.Boolean(),
  history: Type.Array(
    Type.Object({ status: Status, reason: Nullable(Type.String()), at: Timestamp, byReviewer: Type.Boolean() }, { additionalProperties: false }),
    { description: 'Every state the submission went through, oldest first' },
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
export const Submission = Type.Object(submissionProperties, { additionalProperties: false, $id: 'MasterAnglerSubmission' });
export const ReviewSubmission = Type.Object({ ...submissionProperties, userId: Uuid }, { additionalProperties: false, $id: 'MasterAnglerSubmissionForReview' });

const HttpsUrl = Type.String({ maxLength: 500, pattern: '^https://[^\\s]+$', examples: ['https://photos.example.com/musky.jpg'] });
export const SubmitBody = Type.Object(
  {
    programId: Uuid,
    catchId: Uuid,
    category: Type.Optional(CategoryEnum.input),
    photoUrl: Type.Optional(HttpsUrl),
    witness: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['Jo Angler, (555) 010-0199'] })),
  },
  { additionalProperties: false, examples: [{ programId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', catchId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', witness: 'Jo Angler' }] },
);
export type SubmitBodyType = Static<typeof SubmitBody>;
export const ResubmitBody = Type.Object(
  { photoUrl: Type.Optional(HttpsUrl), witness: SubmitBody.properties.witness },
  { additionalProperties: false, minProperties: 1, description: 'New evidence', examples: [{ photoUrl: 'https://photos.example.com/musky-on-board.jpg' }] },
);
export const SubmissionsQuery = listQuery({ status: Type.Optional(Status), year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 3000 })) });
export const ReviewQuery = listQuery({ status: Type.Optional(Status), programId: Type.Optional(Uuid) });
export const ProgressQuery = Type.Object({ year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 3000 })) }, { additionalProperties: false });
export const Progress = Type.Array(
  Type.Object(
    {
      programId: Uuid,
      programName: Type.String(),
      programYear: Type.Integer(),
      approvedSpecies: Type.Integer(),
      level: Nullable(Type.String({ examples: ['Fish Ohio'] })),
      nextLevel: Nullable(Type.Object({ name: Type.String(), speciesNeeded: Type.Integer() }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
  { $id: 'MasterAnglerProgress' },
);
export const DecisionBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
  { additionalProperties: false, examples: [{ reason: 'Photo does not show the fish on a measuring board' }] },
);

// Master Angler programs

const ProgramSpeciesInput = Type.Object(
  {
    speciesId: Uuid,
    category: Type.Optional(CategoryEnum.input),
    minLengthIn: Type.Optional(Inches('Qualifying length, inches')),
    minWeightLb: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'Qualifying weight, pounds' }))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    dataYear: Type.Optional(Nullable(Type.Integer({ minimum: 1900, maximum: 3000, description: 'The program year this minimum is confirmed for (default: the program’s sourceYear)' }))),
    sourceUrl: Type.Optional(Nullable(Type.String({ minLength: 8, maxLength: 500, pattern: '^https?://[^\\s]+$', description: 'Where the minimum was read' }))),
  },
  { additionalProperties: false },
);
const programFields = {
  name: Type.String({ minLength: 1, maxLength: 200, examples: ['Fish Ohio'] }),
  url: HttpUrl,
  sourceYear: Type.Integer({ minimum: 1900, maximum: 3000, description: 'Year the program’s numbers were taken from its page', examples: [2025] }),
  measurement: MeasurementEnum.input,
  lengthIncrementIn: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Lengths counted down to this increment (Iowa: 0.25)' }))),
  rules: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
  awardLevels: Type.Array(AwardLevel, { maxItems: 20 }),
  species: Type.Array(ProgramSpeciesInput, { maxItems: 200, description: 'The complete list of qualifying species and minimums' }),
};
const programExample = {
  name: 'Fish Ohio',
  url: 'https://ohiodnr.gov/buy-and-apply/hunting-fishing-boating/fishing-resources/fish-ohio',
  sourceYear: 2025,
  measurement: 'Length',
  awardLevels: [
    { name: 'Fish Ohio', speciesCount: 1 },
    { name: 'Master Angler', speciesCount: 4 },
  ],
  species: [{ speciesId: SPECIES_ID, minLengthIn: 40 }],
};
export const CreateProgramBody = Type.Object(
  { jurisdictionId: Uuid, ...programFields, reason: Reason },
  { additionalProperties: false, examples: [{ jurisdictionId: ID, ...programExample, reason: 'Program added' }] },
);
/** A program's changeable fields with the reason of the change: what a PATCH, merged onto the program, must amount to. */
export const ProgramBody = Type.Object({ ...programFields, reason: Reason }, { additionalProperties: false });
/** JSON Merge Patch of a program; `reason` is required. */
export const UpdateProgramBody = {
  ...mergePatchSchema(ProgramBody, {
    description:
      'JSON Merge Patch (RFC 7396): only the fields sent change, `null` clears an optional one; `reason` is required (kept in the revision and audit log). `species` and `awardLevels`, when given, replace the whole list (species left out are deactivated and kept for history).',
    examples: [{ species: [{ speciesId: SPECIES_ID, minLengthIn: 42 }], reason: '2026 minimums' }],
  }),
  required: ['reason'],
  minProperties: 2,
};
const programViewExample = {
  id: ID,
  state: 'US-OH',
  ...programExample,
  lengthIncrementIn: null,
  rules: null,
  isActive: true,
  dataYear: 2025,
  dataStatus: 'Outdated',
  species: [{ speciesId: SPECIES_ID, commonName: 'Muskellunge', category: 'Any', minLengthIn: 40, minLengthCm: 101.6, minWeightLb: null, minWeightKg: null, notes: null, dataYear: null, sourceUrl: null }],
};
export const AdminProgram = Type.Object(
  {
    ...ProgramView.properties,
    jurisdictionId: Uuid,
    revision: Type.Integer({ minimum: 1, description: 'Incremented by every change; see the revisions' }),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    usage: Type.Object(
      {
        submissions: Type.Integer(),
        pending: Type.Integer({ description: 'Submitted or UnderReview' }),
        approved: Type.Integer(),
        anglers: Type.Integer({ description: 'Distinct anglers who submitted' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: 'AdminMasterAnglerProgram',
    examples: [{ ...programViewExample, jurisdictionId: ID2, revision: 1, deactivationReason: null, createdAt: AT, updatedAt: AT, usage: { submissions: 3, pending: 1, approved: 2, anglers: 2 } }],
  },
);
export const ProgramsQuery = listQuery({ jurisdictionId: Type.Optional(Uuid), active: Type.Optional(Active), q: Type.Optional(Search) });
export const ProgramRevision = Type.Object(
  {
    revision: Type.Integer({ minimum: 1 }),
    at: Timestamp,
    actorId: Nullable(Uuid),
    reason: Type.String(),
    program: Type.Ref('MasterAnglerProgram', { description: 'The program as it was after this revision' }),
  },
  { additionalProperties: false, $id: 'MasterAnglerProgramRevision', examples: [{ revision: 1, at: AT, actorId: ID2, reason: 'Program added', program: programViewExample }] },
);

const speciesFromApi = <S extends { category?: string | undefined }>(species: S[]) => species.map((s) => ({ ...s, category: CategoryEnum.fromApi(s.category) }));

/** A new program as sent (either spelling of measurement and category) → the stored values. */
export function createProgramFromApi(body: Static<typeof CreateProgramBody>) {
  return { ...body, measurement: MeasurementEnum.fromApi(body.measurement), species: speciesFromApi(body.species) };
}

/** A program change as sent → the stored values. */
export function updateProgramFromApi(body: Partial<Static<typeof ProgramBody>> & { reason: string }) {
  const { species, ...rest } = body;
  return { ...rest, measurement: MeasurementEnum.fromApi(body.measurement), ...(species ? { species: speciesFromApi(species) } : {}) };
}
