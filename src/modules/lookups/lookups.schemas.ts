import { Type, type Static } from 'typebox';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { listQuery } from '../../core/http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';

const PASCAL = '^[A-Z][A-Za-z0-9]*$';
const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)', examples: ['Anglers asked for it'] });

export const LookupCategory = Type.String({ pattern: PASCAL, minLength: 1, maxLength: 60, description: 'The vocabulary, PascalCase (e.g. WaterClarity, Sky, EventType)', examples: ['WaterClarity'] });
export const LookupCodeSchema = Type.String({ pattern: PASCAL, minLength: 1, maxLength: 60, description: 'The value as records store it, PascalCase; never changes', examples: ['Stained'] });

/** A request field holding a value of a lookup category (the owning module checks it is an active one). */
export function LookupCode(category: string, description: string, example: string) {
  return Type.String({
    pattern: PASCAL,
    maxLength: 60,
    description: `${description}: an active value of the lookup category ${category} (GET /api/lookups/${category}; administrators extend it). 400 \`lookups.unknown_value\` lists the values otherwise.`,
    examples: [example],
  });
}

export const CategoryParams = Type.Object({ category: LookupCategory }, { additionalProperties: false });

export const LookupValue = Type.Object(
  {
    code: Type.String(),
    label: Type.String({ description: 'What to show' }),
    description: Nullable(Type.String()),
    sortOrder: Type.Integer({ format: 'int32', description: 'Lowest first' }),
  },
  { additionalProperties: false, $id: 'LookupValue' },
);

export const AdminLookupValue = Type.Object(
  {
    id: Uuid,
    category: Type.String(),
    code: Type.String(),
    label: Type.String(),
    description: Nullable(Type.String()),
    sortOrder: Type.Integer({ format: 'int32' }),
    isActive: Type.Boolean(),
    deactivatedAt: Nullable(Timestamp),
    deactivationReason: Nullable(Type.String()),
    usage: Type.Object(
      {
        records: Nullable(Type.Integer({ format: 'int32', description: 'Records holding this value (null when no module validates the category)' })),
        validated: Type.Boolean({ description: 'Whether a module checks its fields against this category' }),
      },
      { additionalProperties: false },
    ),
    createdBy: Nullable(Uuid),
    updatedBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'AdminLookupValue' },
);

export const LookupCategorySummary = Type.Object(
  {
    category: Type.String(),
    values: Type.Integer({ format: 'int32' }),
    activeValues: Type.Integer({ format: 'int32' }),
    validated: Type.Boolean({ description: 'Whether a module checks its fields against this category' }),
  },
  { additionalProperties: false, $id: 'LookupCategorySummary' },
);

export const AdminLookupValuesQuery = listQuery({
  category: Type.Optional(LookupCategory),
  active: Type.Optional(Type.Boolean({ description: 'true: active values only; false: deactivated ones only' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text in the code or label' })),
});
export type AdminLookupValuesQueryType = Static<typeof AdminLookupValuesQuery>;

export const CreateLookupValueBody = Type.Object(
  {
    category: LookupCategory,
    code: LookupCodeSchema,
    label: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    sortOrder: Type.Optional(Type.Integer({ format: 'int32', minimum: -100000, maximum: 100000, default: 0 })),
    reason: Reason,
  },
  { additionalProperties: false, examples: [{ category: 'WaterClarity', code: 'TeaStained', label: 'Tea-stained', sortOrder: 25, reason: 'Northern bog lakes are reported this way' }] },
);
export type CreateLookupValueBodyType = Static<typeof CreateLookupValueBody>;

/** A value's fields with the reason of a change: what a PATCH, merged onto the value, must amount to. */
export const LookupValueBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    sortOrder: Type.Integer({ format: 'int32', minimum: -100000, maximum: 100000 }),
    category: Type.String({ maxLength: 60, description: 'Never changes: accepted only unchanged (400 `lookups.immutable` otherwise)' }),
    code: Type.String({ maxLength: 60, description: 'Never changes: accepted only unchanged (400 `lookups.immutable` otherwise)' }),
    reason: Reason,
  },
  { additionalProperties: false },
);
export type LookupValueChanges = Static<typeof LookupValueBody>;
/** JSON Merge Patch of a value; `reason` is required. */
export const UpdateLookupValueBody = {
  ...mergePatchSchema(LookupValueBody, {
    description: 'JSON Merge Patch (RFC 7396): the fields sent change, the others stay; `description: null` clears it; `reason` is required.',
    examples: [{ label: 'Stained (tea-coloured)', sortOrder: 20, reason: 'Clearer label' }],
  }),
  required: ['reason'],
  minProperties: 2,
};
