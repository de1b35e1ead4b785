import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { SETTING_CATEGORIES, SETTING_TYPES } from './settings.tables.js';

export const SettingName = Type.String({ minLength: 2, maxLength: 64, pattern: '^[A-Z][A-Za-z0-9]+$', description: 'PascalCase name', examples: ['SiteName'] });
export const SettingNameParams = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The setting’s name', examples: ['SiteName'] }) },
  { additionalProperties: false },
);

const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log and the history)', examples: ['Rebranding'] });

/** A value as sent: its type is checked against the setting's. */
export const SettingValue = Type.Union([Type.String({ maxLength: 10_000 }), Type.Integer({ minimum: -1e15, maximum: 1e15 }), Type.Boolean(), Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 200 }), Type.Array(Type.Unknown(), { maxItems: 200 })], {
  description: 'String, Int (integer), Bool or Json (object or array) as the setting’s type says',
  examples: ['Fishlog'],
});

export const Constraints = Type.Object(
  {
    minimum: Type.Optional(Type.Integer({ minimum: -1e15, maximum: 1e15, description: 'Int: smallest value' })),
    maximum: Type.Optional(Type.Integer({ minimum: -1e15, maximum: 1e15, description: 'Int: largest value' })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'String: longest value' })),
    jsonSchema: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 50, description: 'Json: a JSON Schema the value must satisfy' })),
  },
  { additionalProperties: false, description: 'Validation of the value besides its type', examples: [{ minimum: 1024, maximum: 104857600 }] },
);

export const SystemSetting = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    type: literals(SETTING_TYPES),
    category: literals(SETTING_CATEGORIES),
    value: Type.Unknown({ description: 'The value; for a sensitive setting "••••" plus at most its last 4 characters (null: not set)' }),
    isSet: Type.Boolean({ description: 'false when the setting has no value (a sensitive one not configured yet)' }),
    description: Type.String(),
    requiresRestart: Type.Boolean({ description: 'A change applies only after the servers restart' }),
    isSensitive: Type.Boolean({ description: 'Stored encrypted, never returned nor audit-logged in clear' }),
    constraints: Constraints,
    version: Type.Integer({ minimum: 1 }),
    isActive: Type.Boolean({ description: 'false: deactivated (the built-in default applies)' }),
    updatedBy: Nullable(Uuid),
    updatedAt: Timestamp,
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'SystemSetting' },
);

export const SettingsQuery = listQuery({
  category: Type.Optional(literals(SETTING_CATEGORIES)),
  status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive'), Type.Literal('All')], { default: 'Active', description: 'Active (default), Inactive or All' }),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Part of the name or description' })),
});

export const CreateSettingBody = Type.Object(
  {
    name: SettingName,
    type: literals(SETTING_TYPES),
    category: literals(SETTING_CATEGORIES),
    value: Nullable(SettingValue, { description: 'The initial value (null only for a sensitive setting not configured yet)' }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    requiresRestart: Type.Optional(Type.Boolean({ default: false })),
    isSensitive: Type.Optional(Type.Boolean({ default: false })),
    constraints: Type.Optional(Constraints),
    reason: Reason,
  },
  {
    additionalProperties: false,
    examples: [{ name: 'SupportEmail', type: 'String', category: 'Email', value: 'support@example.com', description: 'Where users write to', reason: 'Support desk opened' }],
  },
);
export type CreateSettingBodyType = Static<typeof CreateSettingBody>;

export const UpdateSettingBody = Type.Object(
  {
    value: Nullable(SettingValue, { description: 'The new value (null clears a sensitive setting)' }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    reason: Reason,
  },
  { additionalProperties: false, examples: [{ value: 'Fishlog Pro', reason: 'Rebranding' }] },
);
export type UpdateSettingBodyType = Static<typeof UpdateSettingBody>;

export const SettingHistoryEntry = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    change: literals(['Created', 'Updated', 'Deactivated', 'Reactivated'] as const),
    value: Type.Unknown({ description: 'The value after the change (masked for a sensitive setting)' }),
    reason: Nullable(Type.String()),
    changedBy: Nullable(Uuid),
    changedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'SystemSettingHistoryEntry' },
);
