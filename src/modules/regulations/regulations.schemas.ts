import { Type } from 'typebox';
import { Nullable, Uuid } from '../../core/http/schemas.js';
import { pascalEnum } from '../../core/http/enums.js';
import { ZONE_KINDS } from './regulations.tables.js';

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
