import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import { CATEGORIES, MEASUREMENTS, ZONE_KINDS } from './regulations.tables.js';

export const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Calendar date YYYY-MM-DD (local to the jurisdiction)', examples: ['2025-06-01'] });
const StateId = Type.String({ pattern: '^([A-Za-z]{2}-)?[A-Za-z]{2}$', description: 'ISO 3166-2 state code (US-MN) or the two letters (MN)', examples: ['US-MN'] });
export const Length = Type.Object({ in: Type.Number({ examples: [20] }), cm: Type.Number({ examples: [50.8] }) }, { additionalProperties: false, description: 'A length in inches (as the booklet prints it) and in cm' });
const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 3 });
export const Boundary = Type.Union(
  [
    Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position, { maxItems: 10_001 }), { minItems: 1, maxItems: 1 }) }, { additionalProperties: false }),
    Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Position, { maxItems: 10_001 }), { minItems: 1, maxItems: 1 }), { maxItems: 1_000 }) }, { additionalProperties: false }),
  ],
  { description: 'GeoJSON Polygon or MultiPolygon, [longitude, latitude]; closed outer rings, no holes, at most 10,000 positions, not self-intersecting' },
);
export const Range = Type.Object({ from: DateOnly, to: DateOnly }, { additionalProperties: false });
export const Source = Type.Object(
  { url: Type.String({ examples: ['https://www.dnr.state.mn.us/regulations/fishing/index.html'] }), bookletYear: Type.Integer({ examples: [2025] }) },
  { additionalProperties: false, description: 'Where the rule comes from: the agency page and the regulation booklet year' },
);
/** Zone kinds: State (a jurisdiction's outline), Zone, WaterBody; `state`, `zone`, `water_body` are still accepted. */
export const ZoneKindEnum = pascalEnum(ZONE_KINDS, 'State: a jurisdiction’s outline; Zone: a regulation zone; WaterBody: a lake or river with special regulations.');
/** Where a rule applies: Statewide, Zone or WaterBody (answered only). */
export const LevelEnum = pascalEnum(['statewide', 'zone', 'water_body'] as const, 'Where the rule applies: Statewide, Zone or WaterBody.');
/** Open, ReleaseOnly, Closed or Unknown (answered only). */
export const SeasonStatusEnum = pascalEnum(['open', 'release_only', 'closed', 'unknown'] as const, 'On the requested date: Open, ReleaseOnly, Closed; Unknown = our data states no season.');
/** Current or Outdated (answered only). */
export const DataStatusEnum = pascalEnum(
  ['current', 'outdated'] as const,
  'Current: the date lies in a license year we have data for. Outdated: the date is after the newest license year we have, and the rules shown are that year’s (see `warning`).',
);
/** Yes, No or Unknown (answered only). */
export const LegalEnum = pascalEnum(['yes', 'no', 'unknown'] as const, 'Yes: may be kept; No: must be released (see reasons); Unknown: our data cannot tell (no rule, no length, or outdated rules).');
export const DataWarning = Type.Object(
  {
    code: Type.Literal('regulations.data_outdated'),
    message: Type.String({ description: 'Which license year the rules are from, and where to find the current ones' }),
    sourceUrl: Type.String({ description: 'The agency’s regulations page', examples: ['https://www.dnr.state.mn.us/regulations/fishing/index.html'] }),
    licenseYear: Type.Integer({ examples: [2025] }),
    dataEndsOn: DateOnly,
  },
  { additionalProperties: false, description: 'Present when dataStatus is Outdated; null otherwise' },
);
const dataFlags = {
  dataStatus: DataStatusEnum.output,
  warning: Nullable(DataWarning),
};
const Level = LevelEnum.output;
const AppliesIn = Type.Object({ level: Level, zoneId: Nullable(Uuid), name: Type.String({ examples: ['Lake of the Woods (Minnesota waters)'] }) }, { additionalProperties: false });
export const Overrides = Type.Object(
  {
    closed: Type.Optional(Type.Boolean()),
    releaseOnly: Type.Optional(Type.Boolean()),
    dailyBag: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
    possessionLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
    minLengthIn: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    maxLengthIn: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false, minProperties: 1, description: 'What the order changes', examples: [{ releaseOnly: true }] },
);
export const EmergencyOrderView = Type.Object(
  {
    id: Uuid,
    speciesId: Nullable(Uuid),
    zoneId: Nullable(Uuid),
    startsOn: DateOnly,
    endsOn: DateOnly,
    reason: Type.String({ examples: ['Low water and high temperatures: hooking mortality'] }),
    overrides: Overrides,
    sourceUrl: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
const Disclaimer = Type.String({ description: 'Always present: check the official booklet' });
const Jurisdiction = Type.Object({ code: Type.String({ examples: ['US-MN'] }), name: Type.String({ examples: ['Minnesota'] }) }, { additionalProperties: false });

export const SpeciesRule = Type.Object(
  {
    species: Type.Object({ id: Uuid, commonName: Type.String({ examples: ['Walleye'] }), scientificName: Type.String({ examples: ['Sander vitreus'] }) }, { additionalProperties: false }),
    appliesIn: AppliesIn,
    ruleSetId: Uuid,
    version: Type.Integer({ description: 'Version of the rule set (a change is a new version)' }),
    effectiveFrom: DateOnly,
    effectiveTo: Nullable(DateOnly, { description: 'Last day this version is in force (a later version takes over the day after); null = until further notice' }),
    seasonStatus: SeasonStatusEnum.output,
    openSeasons: Nullable(Type.Array(Range), { description: 'Harvest seasons (resolved dates; may cross the new year); null = not stated in our data' }),
    releaseOnlyPeriods: Type.Array(Range),
    dailyBag: Nullable(Type.Integer()),
    possessionLimit: Nullable(Type.Integer()),
    minLength: Nullable(Length),
    maxLength: Nullable(Length),
    protectedSlot: Nullable(Type.Object({ from: Length, to: Length }, { additionalProperties: false, description: 'Fish in this range (inclusive) must be released' })),
    oneOver: Nullable(Type.Object({ over: Length, count: Type.Integer() }, { additionalProperties: false, description: 'Only `count` fish longer than `over` in the daily bag' })),
    combined: Nullable(Type.Object({ group: Type.String({ examples: ['walleye-sauger'] }), bag: Type.Integer({ examples: [6] }) }, { additionalProperties: false })),
    gear: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    emergencyOrders: Type.Array(EmergencyOrderView),
    source: Source,
  },
  { additionalProperties: false },
);

export const RulesAtPlace = Type.Object(
  {
    jurisdiction: Type.Object({ ...Jurisdiction.properties, agency: Type.String(), url: Type.String() }, { additionalProperties: false }),
    date: DateOnly,
    asOf: DateOnly,
    ...dataFlags,
    licenseYear: Type.Object({ year: Type.Integer(), startsOn: DateOnly, endsOn: DateOnly }, { additionalProperties: false, description: 'The license year of the rules shown (Outdated: the newest we have)' }),
    areas: Type.Array(AppliesIn, { description: 'The state and the zones / water bodies containing the point' }),
    rules: Type.Array(SpeciesRule, { description: 'Per species, the rule of the most specific area that has one' }),
    disclaimer: Disclaimer,
  },
  {
    additionalProperties: false,
    $id: 'RegulationsAtPlace',
    examples: [
      {
        jurisdiction: { code: 'US-MN', name: 'Minnesota', agency: 'Minnesota Department of Natural Resources', url: 'https://www.dnr.state.mn.us/regulations/fishing/index.html' },
        date: '2026-11-26',
        asOf: '2026-11-26',
        dataStatus: 'Outdated',
        warning: {
          code: 'regulations.data_outdated',
          message:
            'These are the Minnesota rules of the 2025 license year (2025-03-01 to 2026-02-28), the newest we have; 2026-11-26 is after it, and the rules may have changed since. Do not rely on them: check the current regulations at https://www.dnr.state.mn.us/regulations/fishing/index.html.',
          sourceUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html',
          licenseYear: 2025,
          dataEndsOn: '2026-02-28',
        },
        licenseYear: { year: 2025, startsOn: '2025-03-01', endsOn: '2026-02-28' },
        areas: [{ level: 'Statewide', zoneId: null, name: 'Minnesota' }],
        rules: [],
        disclaimer: 'Summary of the official regulations for information only…',
      },
    ],
  },
);

export const ByLocationQuery = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, examples: [46.25] }),
    lon: Type.Number({ minimum: -180, maximum: 180, examples: [-93.65] }),
    date: Type.Optional(DateOnly),
    species: Type.Optional(Uuid),
    state: Type.Optional(StateId),
  },
  { additionalProperties: false },
);

export const CheckQuery = Type.Object({ catchId: Uuid }, { additionalProperties: false });

export const CatchCheck = Type.Object(
  {
    catchId: Uuid,
    date: DateOnly,
    jurisdiction: Jurisdiction,
    licenseYear: Type.Integer({ description: 'The license year of the rules applied (Outdated: the newest we have)' }),
    ...dataFlags,
    released: Type.Boolean({ description: 'Whether the angler logged the fish as released' }),
    legal: LegalEnum.output,
    legalToKeep: Nullable(Type.Boolean(), { description: 'The same verdict as `legal`: true = Yes, false = No, null = Unknown' }),
    reasons: Type.Array(Type.Object({ code: Type.String({ examples: ['in_protected_slot'] }), detail: Type.String() }, { additionalProperties: false })),
    appliesIn: Nullable(AppliesIn),
    ruleSetId: Nullable(Uuid),
    source: Nullable(Source),
    emergencyOrders: Type.Array(EmergencyOrderView),
    disclaimer: Disclaimer,
  },
  {
    additionalProperties: false,
    $id: 'CatchRegulationCheck',
    examples: [
      {
        catchId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
        date: '2025-06-01',
        jurisdiction: { code: 'US-MN', name: 'Minnesota' },
        licenseYear: 2025,
        dataStatus: 'Current',
        warning: null,
        released: false,
        legal: 'No',
        legalToKeep: false,
        reasons: [{ code: 'in_protected_slot', detail: '24" is inside the protected slot 19.5"–28": release it.' }],
        appliesIn: { level: 'WaterBody', zoneId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22', name: 'Lake of the Woods (Minnesota waters)' },
        ruleSetId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23',
        source: { url: 'https://www.dnr.state.mn.us/regulations/fishing/index.html', bookletYear: 2025 },
        emergencyOrders: [],
        disclaimer: 'Summary of the official regulations for information only…',
      },
    ],
  },
);

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
