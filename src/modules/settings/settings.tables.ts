import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

export const SETTING_TYPES = ['String', 'Int', 'Bool', 'Json'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];
export const SETTING_CATEGORIES = ['General', 'Features', 'Integrations', 'Email'] as const;
export type SettingCategory = (typeof SETTING_CATEGORIES)[number];

/** Per-setting validation of the value, besides its type. */
export interface SettingConstraints {
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** A JSON Schema the value of a `Json` setting must satisfy. */
  jsonSchema?: Record<string, unknown>;
}

/**
 * System settings. A sensitive setting's value is never stored in clear: `sealed` holds it
 * encrypted (AES-256-GCM, key outside the database) and `value` stays null.
 */
export const systemSettings = pgTable(
  'system_settings',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    type: text({ enum: SETTING_TYPES }).notNull(),
    category: text({ enum: SETTING_CATEGORIES }).notNull(),
    value: jsonb(),
    sealed: text(),
    description: text().notNull().default(''),
    requiresRestart: boolean().notNull().default(false),
    isSensitive: boolean().notNull().default(false),
    constraints: jsonb().$type<SettingConstraints>().notNull().default({}),
    version: integer().notNull().default(1),
    updatedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    ...timestamps(),
    ...deactivation(),
  },
  (t) => [uniqueIndex('system_settings_name_idx').on(t.name), index('system_settings_category_idx').on(t.category, t.name)],
);
export type SystemSettingRow = typeof systemSettings.$inferSelect;

/** Every change of a setting: its value (masked for sensitive ones), who, when and why. */
export const systemSettingHistory = pgTable(
  'system_setting_history',
  {
    id: uuid().primaryKey().defaultRandom(),
    settingId: uuid()
      .notNull()
      .references(() => systemSettings.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    change: text({ enum: ['Created', 'Updated', 'Deactivated', 'Reactivated'] }).notNull(),
    /** The value after the change; for a sensitive setting only "[sensitive]" (set) or null (unset). */
    value: jsonb(),
    reason: text(),
    changedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('system_setting_history_setting_idx').on(t.settingId, t.changedAt)],
);
export type SystemSettingHistoryRow = typeof systemSettingHistory.$inferSelect;
