import { Type, type TObject } from 'typebox';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { Nullable, Uuid } from '../../core/http/schemas.js';
import { APPAREL_GENDERS, APPAREL_TYPES, LINE_TYPES, LURE_TYPES, REEL_TYPES, ROD_ACTIONS, ROD_MATERIALS, ROD_POWERS, ROD_TYPES, type GearKind } from './gear.kinds.js';
import { literals } from './gear.schemas.js';

/** Request bodies of /api/admin/gear/{kind}: create (kind's required fields) and update (any field). */

const text = (maxLength: number, description?: string) => Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));
const measure = (maximum: number, description: string) => Type.Optional(Nullable(Type.Number({ minimum: 0, maximum, description })));

const common = {
  brandId: Uuid,
  name: Type.String({ minLength: 1, maxLength: 150, description: 'Model name without the brand, including the variant' }),
  slug: Type.Optional(Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 150, description: 'Stable readable key; made from brand and name when left out' })),
  productLine: text(100),
  modelNumber: text(60),
  description: text(1000),
  priceUsd: measure(100_000, 'List price, US dollars'),
};

const KIND_BODY = {
  rod: {
    rodType: literals(ROD_TYPES),
    lengthIn: Type.Integer({ minimum: 12, maximum: 240, description: 'Length in inches' }),
    power: Type.Optional(Nullable(literals(ROD_POWERS, 'Required except for fly rods'))),
    action: literals(ROD_ACTIONS),
    pieces: Type.Integer({ minimum: 1, maximum: 12 }),
    material: Type.Optional(Nullable(literals(ROD_MATERIALS))),
    lineMinLb: measure(500, 'Line rating from, lb'),
    lineMaxLb: measure(500, 'Line rating to, lb'),
    lureMinG: measure(5000, 'Lure rating from, grams'),
    lureMaxG: measure(5000, 'Lure rating to, grams'),
    flyLineWeight: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 16, description: 'Fly rods only, and required for them' }))),
  },
  reel: {
    reelType: literals(REEL_TYPES),
    size: text(30),
    gearRatio: Type.Number({ minimum: 0.5, maximum: 20 }),
    weightG: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'grams' }),
    maxDragKg: Type.Number({ minimum: 0, maximum: 200 }),
    bearings: Type.Optional(Nullable(Type.String({ pattern: '^\\d{1,2}(\\+\\d{1,2})?$', examples: ['6+1'] }))),
    retrieveCm: measure(500, 'Line per handle turn, cm'),
  },
  line: {
    lineType: literals(LINE_TYPES),
    testLb: Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Breaking strength, lb' }),
    diameterMm: Type.Number({ exclusiveMinimum: 0, maximum: 5 }),
    spoolLengthM: measure(10_000, 'metres'),
    colour: text(60),
  },
  lure: {
    lureType: literals(LURE_TYPES),
    weightG: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 5000, description: 'grams; required except for soft plastics' }))),
    lengthCm: measure(200, 'cm'),
    colour: Type.String({ minLength: 1, maxLength: 60 }),
    divingDepthMinM: measure(100, 'metres'),
    divingDepthMaxM: measure(100, 'metres'),
    targetSpeciesIds: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 50, description: 'Species the lure is made for (active species)' })),
  },
  apparel: {
    apparelType: literals(APPAREL_TYPES),
    sizes: Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { minItems: 1, maxItems: 40, uniqueItems: true }),
    gender: Type.Optional(Nullable(literals(APPAREL_GENDERS))),
    material: text(200),
    waterproof: Type.Optional(Nullable(Type.Boolean())),
    colours: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 40, uniqueItems: true })),
  },
} as const;

export function createItemBody(kind: GearKind): TObject {
  return Type.Object({ ...common, ...KIND_BODY[kind] }, { additionalProperties: false });
}

/** An item of a kind with the reason of a change: what a PATCH, merged onto the item, must amount to. */
function itemBody(kind: GearKind): TObject {
  return Type.Object(
    { ...common, slug: Type.String({ ...common.slug, description: 'Stable readable key' }), ...KIND_BODY[kind], reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (kept in the audit log)' })) },
    { additionalProperties: false },
  );
}

/** JSON Merge Patch of an item of a kind: the fields sent change; null clears an optional field. */
export function updateItemBody(kind: GearKind) {
  return mergePatchSchema(itemBody(kind), {
    description: 'JSON Merge Patch (RFC 7396): only the fields sent change; null clears an optional field (a 400 for a required one).',
    examples: [{ priceUsd: 129.99, description: null, reason: '2026 price list' }],
  });
}

/** The fields a kind may set (besides the common ones); used to copy a body into columns. */
export const KIND_FIELDS: Record<GearKind, readonly string[]> = {
  rod: Object.keys(KIND_BODY.rod),
  reel: Object.keys(KIND_BODY.reel),
  line: Object.keys(KIND_BODY.line),
  lure: Object.keys(KIND_BODY.lure).filter((k) => k !== 'targetSpeciesIds'),
  apparel: Object.keys(KIND_BODY.apparel),
};
export const COMMON_FIELDS = ['brandId', 'name', 'slug', 'productLine', 'modelNumber', 'description', 'priceUsd'] as const;
