import { Type, type TObject, type TSchema } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';
import { GearKindEnum, APPAREL_GENDERS, APPAREL_TYPES, LINE_TYPES, LURE_TYPES, REEL_TYPES, ROD_ACTIONS, ROD_MATERIALS, ROD_POWERS, ROD_TYPES, type GearKind } from './gear.kinds.js';

/**
 * Catalog item schemas, one per kind. Units: rod length in inches (`lengthIn`; `lengthCm` and
 * `lengthLabel` derived), weights in grams, line test in lb (`testKg` derived), diameter in mm,
 * spool length in m, drag in kg (`maxDragLb` derived), retrieve per crank in cm, lure length in
 * cm, running depth in m, prices in US dollars (list price).
 */

export const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

export const BrandRef = Type.Object(
  { id: Uuid, name: Type.String({ examples: ['Shimano'] }), isActive: Type.Boolean() },
  { additionalProperties: false, $id: 'GearBrandRef', description: 'The brand of the item' },
);

export const LureTarget = Type.Object(
  { id: Uuid, commonName: Type.String({ examples: ['Largemouth bass'] }), scientificName: Type.String({ examples: ['Micropterus salmoides'] }) },
  { additionalProperties: false, $id: 'LureTargetSpecies' },
);

function commonProperties<K extends GearKind>(kind: K) {
  return {
    id: Uuid,
    kind: Type.Literal(GearKindEnum.toApi(kind)),
    slug: Type.String({ description: 'Stable readable key', examples: ['shimano-stradic-fl-2500hg'] }),
    brand: Type.Ref('GearBrandRef'),
    name: Type.String({ description: 'Model name without the brand, including the variant' }),
    productLine: Nullable(Type.String()),
    modelNumber: Nullable(Type.String()),
    description: Nullable(Type.String()),
    priceUsd: Nullable(Type.Number({ description: 'List price in US dollars' })),
    isActive: Type.Boolean({ description: 'false: deactivated (readable by id and where referenced, not listed, not selectable in setups)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  };
}

export const KIND_PROPERTIES = {
  rod: {
    rodType: literals(ROD_TYPES),
    lengthIn: Type.Integer({ description: 'Length in inches (85 = 7\'1")' }),
    lengthCm: Type.Number({ description: 'Length in centimetres (derived)' }),
    lengthLabel: Type.String({ description: 'Length as anglers write it', examples: [`7'1"`, `28"`] }),
    power: Nullable(literals(ROD_POWERS)),
    action: literals(ROD_ACTIONS),
    pieces: Type.Integer(),
    material: Nullable(Type.String()),
    lineMinLb: Nullable(Type.Number({ description: 'Line rating, lb' })),
    lineMaxLb: Nullable(Type.Number()),
    lureMinG: Nullable(Type.Number({ description: 'Lure rating, grams' })),
    lureMaxG: Nullable(Type.Number()),
    flyLineWeight: Nullable(Type.Integer({ description: 'Fly line weight (fly rods)' })),
  },
  reel: {
    reelType: literals(REEL_TYPES),
    size: Nullable(Type.String({ examples: ['2500HG'] })),
    gearRatio: Type.Number({ description: 'n in n:1' }),
    weightG: Type.Number({ description: 'grams' }),
    maxDragKg: Type.Number(),
    maxDragLb: Type.Number({ description: 'derived' }),
    bearings: Nullable(Type.String({ examples: ['6+1'] })),
    retrieveCm: Nullable(Type.Number({ description: 'Line retrieved per handle turn, cm' })),
  },
  line: {
    lineType: literals(LINE_TYPES),
    testLb: Type.Number({ description: 'Breaking strength, lb' }),
    testKg: Type.Number({ description: 'Breaking strength, kg (derived)' }),
    diameterMm: Type.Number(),
    spoolLengthM: Nullable(Type.Number()),
    colour: Nullable(Type.String()),
  },
  lure: {
    lureType: literals(LURE_TYPES),
    weightG: Nullable(Type.Number({ description: 'grams (null for soft plastics, sold unweighted)' })),
    lengthCm: Nullable(Type.Number()),
    colour: Type.String(),
    divingDepthMinM: Nullable(Type.Number()),
    divingDepthMaxM: Nullable(Type.Number()),
    targetSpecies: Type.Array(Type.Ref('LureTargetSpecies'), { description: 'The species it is made for' }),
  },
  apparel: {
    apparelType: literals(APPAREL_TYPES),
    sizes: Type.Array(Type.String()),
    gender: Nullable(literals(APPAREL_GENDERS)),
    material: Nullable(Type.String()),
    waterproof: Nullable(Type.Boolean()),
    colours: Type.Array(Type.String()),
  },
} as const;

export const SCHEMA_IDS: Record<GearKind, string> = { rod: 'Rod', reel: 'Reel', line: 'Line', lure: 'Lure', apparel: 'Apparel' };

export function itemSchema(kind: GearKind): TObject {
  return Type.Object({ ...commonProperties(kind), ...KIND_PROPERTIES[kind] }, { additionalProperties: false, $id: SCHEMA_IDS[kind] });
}

export const ItemUsage = Type.Object(
  {
    setups: Type.Integer({ description: 'Gear setups that use the item' }),
    anglers: Type.Integer({ description: 'Anglers owning those setups' }),
    catches: Type.Integer({ description: 'Catches logged with those setups' }),
  },
  { additionalProperties: false },
);

export function adminItemSchema(kind: GearKind): TObject {
  return Type.Object(
    { ...commonProperties(kind), ...KIND_PROPERTIES[kind], deactivatedAt: Nullable(Timestamp), usage: ItemUsage },
    { additionalProperties: false, $id: `Admin${SCHEMA_IDS[kind]}` },
  );
}

/** The schemas every plugin that shows catalog items registers. */
export const catalogSchemas: TSchema[] = [BrandRef, LureTarget, ...(['rod', 'reel', 'line', 'lure', 'apparel'] as const).map(itemSchema)];

const num = (description: string) => Type.Optional(Type.Number({ minimum: 0, description }));

const commonFilters = {
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Search brand, name, product line and model number; tolerates typos' })),
  brandId: Type.Optional(Uuid),
  minPriceUsd: num('Lowest list price, USD'),
  maxPriceUsd: num('Highest list price, USD'),
  sort: Type.Optional(literals(['brand', 'name', 'price', '-price'] as const, 'brand (default: brand, then name), name, price (low first) or -price; with q, best match first')),
};

export const KIND_FILTERS = {
  rod: {
    rodType: Type.Optional(literals(ROD_TYPES)),
    power: Type.Optional(literals(ROD_POWERS)),
    action: Type.Optional(literals(ROD_ACTIONS)),
    pieces: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    material: Type.Optional(literals(ROD_MATERIALS)),
    minLengthIn: Type.Optional(Type.Integer({ minimum: 0, maximum: 1200, description: 'Shortest length, inches' })),
    maxLengthIn: Type.Optional(Type.Integer({ minimum: 0, maximum: 1200, description: 'Longest length, inches' })),
  },
  reel: {
    reelType: Type.Optional(literals(REEL_TYPES)),
    minGearRatio: num('Lowest gear ratio'),
    maxGearRatio: num('Highest gear ratio'),
    maxWeightG: num('Heaviest weight, grams'),
    minDragKg: num('Least maximum drag, kg'),
  },
  line: {
    lineType: Type.Optional(literals(LINE_TYPES)),
    minTestLb: num('Lowest test, lb'),
    maxTestLb: num('Highest test, lb'),
    maxDiameterMm: num('Thickest diameter, mm'),
  },
  lure: {
    lureType: Type.Optional(literals(LURE_TYPES)),
    speciesId: Type.Optional(Type.String({ format: 'uuid', description: 'Lures made for this species' })),
    colour: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'Colour contains (case-insensitive)' })),
    minWeightG: num('Lightest weight, grams'),
    maxWeightG: num('Heaviest weight, grams'),
  },
  apparel: {
    apparelType: Type.Optional(literals(APPAREL_TYPES)),
    size: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Available in this size', examples: ['L'] })),
    gender: Type.Optional(literals(APPAREL_GENDERS)),
    waterproof: Type.Optional(Type.Boolean()),
  },
} as const;

export function catalogQuery(kind: GearKind) {
  return listQuery({ ...commonFilters, ...KIND_FILTERS[kind] });
}

export function adminCatalogQuery(kind: GearKind) {
  return listQuery({
    ...commonFilters,
    ...KIND_FILTERS[kind],
    status: Type.Optional(ActivityFilterEnum.input),
  });
}

/** Every filter of every kind; a kind's query schema admits only its own. */
export interface CatalogFilter {
  q?: string;
  brandId?: string;
  minPriceUsd?: number;
  maxPriceUsd?: number;
  sort?: 'brand' | 'name' | 'price' | '-price';
  status?: 'active' | 'inactive' | 'all' | 'Active' | 'Inactive' | 'All';
  rodType?: string;
  power?: string;
  action?: string;
  pieces?: number;
  material?: string;
  minLengthIn?: number;
  maxLengthIn?: number;
  reelType?: string;
  minGearRatio?: number;
  maxGearRatio?: number;
  maxWeightG?: number;
  minDragKg?: number;
  lineType?: string;
  minTestLb?: number;
  maxTestLb?: number;
  maxDiameterMm?: number;
  lureType?: string;
  speciesId?: string;
  colour?: string;
  minWeightG?: number;
  apparelType?: string;
  size?: string;
  gender?: string;
  waterproof?: boolean;
}

/** The admin list's `status` as sent (either spelling) → the stored filter. */
export function catalogFilterFromApi(query: CatalogFilter): CatalogFilter {
  return query.status === undefined ? query : { ...query, status: ActivityFilterEnum.fromApi(query.status) };
}
