import { Type } from 'typebox';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { DateOnly, EmergencyOrderView, Length, Range, Source } from './regulations.schemas.js';
import { ZoneKindEnum } from './regulations.schemas.js';

/** TypeBox schemas of /api/admin/regulations. */

const ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
const ID2 = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22';
const SPECIES_ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23';
const AT = '2025-06-01T12:00:00.000Z';

export const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)', examples: ['Boundary replaced by the 2026 booklet map'] });
export const ReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false, examples: [{ reason: 'Superseded by the 2026 booklet' }] });
export const HttpUrl = Type.String({ minLength: 8, maxLength: 500, pattern: '^https?://[^\\s]+$', examples: ['https://www.dnr.state.mn.us/regulations/fishing/index.html'] });
export const Active = Type.Boolean({ description: 'true: only active records; false: only deactivated ones; absent: both' });
export const Search = Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive part of the name (or code)' });

// Jurisdictions

const jurisdictionFields = {
  name: Type.String({ minLength: 1, maxLength: 100, examples: ['Iowa'] }),
  agencyName: Type.String({ minLength: 1, maxLength: 200, examples: ['Iowa Department of Natural Resources'] }),
  agencyUrl: HttpUrl,
  licenseYearStartMonth: Type.Integer({ minimum: 1, maximum: 12, description: 'First month of the fishing license year', examples: [3] }),
  licenseYearStartDay: Type.Integer({ minimum: 1, maximum: 31, description: 'First day of that month (no February 29)', examples: [1] }),
};
const jurisdictionExample = {
  code: 'US-IA',
  name: 'Iowa',
  agencyName: 'Iowa Department of Natural Resources',
  agencyUrl: 'https://www.iowadnr.gov/things-to-do/fishing',
  licenseYearStartMonth: 1,
  licenseYearStartDay: 1,
};
export const CreateJurisdictionBody = Type.Object(
  { code: Type.String({ pattern: '^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$', description: 'ISO 3166-2 code (stored upper case); the natural key, never changed', examples: ['US-IA'] }), ...jurisdictionFields, reason: Reason },
  { additionalProperties: false, examples: [{ ...jurisdictionExample, reason: 'Iowa rules to be added' }] },
);
/** A jurisdiction's changeable fields with the reason of the change: what a PATCH, merged onto the jurisdiction, must amount to. */
export const JurisdictionBody = Type.Object({ ...jurisdictionFields, reason: Reason }, { additionalProperties: false });
/** JSON Merge Patch of a jurisdiction; `reason` is required. */
export const UpdateJurisdictionBody = {
  ...mergePatchSchema(JurisdictionBody, {
    description: 'JSON Merge Patch (RFC 7396): only the fields sent change; `reason` is required (kept in the audit log).',
    examples: [{ agencyUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html', reason: 'The agency moved its page' }],
  }),
  required: ['reason'],
  minProperties: 2,
};
export const AdminJurisdiction = Type.Object(
  {
    id: Uuid,
    code: Type.String({ examples: ['US-MN'] }),
    ...jurisdictionFields,
    isActive: Type.Boolean(),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    usage: Type.Object(
      {
        zones: Type.Integer({ description: 'Active zones and special waters (the state outline not counted)' }),
        ruleSets: Type.Integer({ description: 'Active rule-set versions' }),
        emergencyOrders: Type.Integer({ description: 'Active emergency orders' }),
        programs: Type.Integer({ description: 'Active Master Angler programs' }),
        licenseYears: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: 'AdminRegulationJurisdiction',
    examples: [{ id: ID, ...jurisdictionExample, isActive: true, deactivationReason: null, createdAt: AT, updatedAt: AT, usage: { zones: 0, ruleSets: 0, emergencyOrders: 0, programs: 1, licenseYears: 0 } }],
  },
);
export const JurisdictionsQuery = listQuery({ q: Type.Optional(Search), active: Type.Optional(Active) });

// Zones

const ZoneKind = ZoneKindEnum.output;
export const AdminZone = Type.Object(
  {
    id: Uuid,
    jurisdictionId: Uuid,
    jurisdictionCode: Type.String({ examples: ['US-MN'] }),
    kind: ZoneKind,
    name: Type.String({ examples: ['Lake of the Woods (Minnesota waters)'] }),
    description: Nullable(Type.String()),
    sourceUrl: Nullable(Type.String()),
    pointCount: Type.Integer({ description: 'Vertices of the boundary' }),
    areaSqDeg: Type.Number({ description: 'Planar area in square degrees (ranks how specific a zone is)' }),
    isActive: Type.Boolean(),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    usage: Type.Object({ ruleSets: Type.Integer({ description: 'Active rule-set versions of the zone' }), emergencyOrders: Type.Integer() }, { additionalProperties: false }),
  },
  {
    additionalProperties: false,
    $id: 'AdminRegulationZone',
    examples: [
      {
        id: ID,
        jurisdictionId: ID2,
        jurisdictionCode: 'US-MN',
        kind: 'WaterBody',
        name: 'Lake of the Woods (Minnesota waters)',
        description: null,
        sourceUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html',
        pointCount: 9,
        areaSqDeg: 0.2,
        isActive: true,
        deactivationReason: null,
        createdAt: AT,
        usage: { ruleSets: 3, emergencyOrders: 0 },
      },
    ],
  },
);
export const ZonesQuery = listQuery({ jurisdictionId: Type.Optional(Uuid), kind: Type.Optional(ZoneKindEnum.input), active: Type.Optional(Active), q: Type.Optional(Search) });

// Rule-set versions

const Inches = (description: string) => Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100, description }));
const Count = (description: string) => Nullable(Type.Integer({ minimum: 0, maximum: 1000, description }));
export const CreateRuleVersionBody = Type.Object(
  {
    jurisdictionId: Uuid,
    zoneId: Type.Optional(Nullable(Uuid, { description: 'A zone or water body of the jurisdiction; absent or null: statewide' })),
    speciesId: Uuid,
    effectiveFrom: Type.String({ ...DateOnly, description: 'First day in force; the license year is the one containing it (created when missing). Must be after the current version’s effectiveFrom.' }),
    openSeasons: Type.Optional(Nullable(Type.Array(Range, { maxItems: 20 }), { description: 'Harvest seasons as resolved dates (may cross the new year); null or absent: not stated' })),
    releaseOnlyPeriods: Type.Optional(Type.Array(Range, { maxItems: 20 })),
    dailyBag: Type.Optional(Count('Daily bag limit')),
    possessionLimit: Type.Optional(Count('Possession limit')),
    minLengthIn: Type.Optional(Inches('Minimum length, inches')),
    maxLengthIn: Type.Optional(Inches('Maximum length, inches')),
    slotFromIn: Type.Optional(Inches('Protected slot from (inclusive), inches; with slotToIn')),
    slotToIn: Type.Optional(Inches('Protected slot to (inclusive), inches')),
    oneOverIn: Type.Optional(Inches('Only oneOverCount fish over this length in the bag; with oneOverCount')),
    oneOverCount: Type.Optional(Count('How many fish over oneOverIn')),
    combinedGroup: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9-]+$', description: 'Species sharing a combined bag name the same group; with combinedBag' }))),
    combinedBag: Type.Optional(Count('The combined daily bag of the group')),
    gear: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
    sourceUrl: HttpUrl,
    bookletYear: Type.Optional(Type.Integer({ minimum: 1900, maximum: 3000, description: 'Regulation booklet year; default: the license year' })),
    reason: Reason,
  },
  {
    additionalProperties: false,
    examples: [
      {
        jurisdictionId: ID,
        zoneId: ID2,
        speciesId: SPECIES_ID,
        effectiveFrom: '2025-12-01',
        openSeasons: [{ from: '2025-05-10', to: '2026-04-14' }],
        dailyBag: 4,
        possessionLimit: 8,
        slotFromIn: 19.5,
        slotToIn: 28,
        oneOverIn: 28,
        oneOverCount: 1,
        combinedGroup: 'walleye-sauger',
        combinedBag: 6,
        sourceUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html',
        reason: 'Winter limits from December 1',
      },
    ],
  },
);
export const AdminRuleSet = Type.Object(
  {
    id: Uuid,
    jurisdictionId: Uuid,
    jurisdictionCode: Type.String({ examples: ['US-MN'] }),
    zoneId: Nullable(Uuid),
    zoneName: Nullable(Type.String({ description: 'null: statewide' })),
    species: Type.Object({ id: Uuid, commonName: Type.String({ examples: ['Walleye'] }) }, { additionalProperties: false }),
    licenseYear: Type.Integer({ examples: [2025] }),
    version: Type.Integer({ minimum: 1 }),
    effectiveFrom: DateOnly,
    effectiveTo: Nullable(DateOnly, { description: 'Last day in force (closed by the next version); null: open-ended' }),
    openSeasons: Nullable(Type.Array(Range)),
    releaseOnlyPeriods: Type.Array(Range),
    dailyBag: Nullable(Type.Integer()),
    possessionLimit: Nullable(Type.Integer()),
    minLength: Nullable(Length),
    maxLength: Nullable(Length),
    protectedSlot: Nullable(Type.Object({ from: Length, to: Length }, { additionalProperties: false })),
    oneOver: Nullable(Type.Object({ over: Length, count: Type.Integer() }, { additionalProperties: false })),
    combined: Nullable(Type.Object({ group: Type.String(), bag: Type.Integer() }, { additionalProperties: false })),
    gear: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    source: Source,
    isActive: Type.Boolean(),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    usage: Type.Object(
      {
        versions: Type.Integer({ description: 'Versions of this rule (same place, species and license year), deactivated ones included' }),
        emergencyOrders: Type.Integer({ description: 'Active emergency orders that can override it' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: 'AdminRegulationRuleSet',
    examples: [
      {
        id: ID,
        jurisdictionId: ID2,
        jurisdictionCode: 'US-OH',
        zoneId: null,
        zoneName: null,
        species: { id: SPECIES_ID, commonName: 'Walleye' },
        licenseYear: 2025,
        version: 1,
        effectiveFrom: '2025-03-01',
        effectiveTo: '2025-04-30',
        openSeasons: [{ from: '2025-03-01', to: '2026-02-28' }],
        releaseOnlyPeriods: [],
        dailyBag: 4,
        possessionLimit: null,
        minLength: { in: 15, cm: 38.1 },
        maxLength: null,
        protectedSlot: null,
        oneOver: null,
        combined: null,
        gear: null,
        notes: null,
        source: { url: 'https://ohiodnr.gov/buy-and-apply/hunting-fishing-boating/fishing-resources/fishing-regulations', bookletYear: 2025 },
        isActive: true,
        deactivationReason: null,
        createdAt: AT,
        usage: { versions: 2, emergencyOrders: 0 },
      },
    ],
  },
);
export const RuleSetsQuery = listQuery({
  jurisdictionId: Type.Optional(Uuid),
  zoneId: Type.Optional(Uuid),
  statewide: Type.Optional(Type.Boolean({ description: 'true: only statewide rules (no zone)' })),
  speciesId: Type.Optional(Uuid),
  licenseYear: Type.Optional(Type.Integer({ minimum: 1900, maximum: 3000, examples: [2025] })),
  active: Type.Optional(Active),
});

// Emergency orders

export const AdminEmergencyOrder = Type.Object(
  {
    ...EmergencyOrderView.properties,
    jurisdictionId: Uuid,
    jurisdictionCode: Type.String({ examples: ['US-MN'] }),
    isActive: Type.Boolean(),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    usage: Type.Object({ ruleSetsAffected: Type.Integer({ description: 'Active rule-set versions it overrides (species, zone and dates overlap)' }) }, { additionalProperties: false }),
  },
  {
    additionalProperties: false,
    $id: 'AdminRegulationEmergencyOrder',
    examples: [
      {
        id: ID,
        jurisdictionId: ID2,
        jurisdictionCode: 'US-MN',
        speciesId: null,
        zoneId: null,
        startsOn: '2025-08-01',
        endsOn: '2025-08-31',
        reason: 'Drought',
        overrides: { releaseOnly: true },
        sourceUrl: null,
        isActive: true,
        deactivationReason: null,
        createdAt: AT,
        usage: { ruleSetsAffected: 12 },
      },
    ],
  },
);
export const OrdersQuery = listQuery({
  jurisdictionId: Type.Optional(Uuid),
  zoneId: Type.Optional(Uuid),
  speciesId: Type.Optional(Uuid),
  active: Type.Optional(Active),
  on: Type.Optional(Type.String({ ...DateOnly, description: 'Only orders in force on this date' })),
});
