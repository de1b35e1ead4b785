import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

/**
 * Lookup values: the extensible vocabularies of the API (water clarity, sky, event types…). A
 * value belongs to a category and is known by its code (PascalCase, never changed); the label is
 * what a client shows. Values are deactivated, never deleted: a deactivated one is refused on new
 * records and stays readable on old ones. Changes notify every process (trigger in a custom migration).
 */
export const lookupValues = pgTable(
  'lookup_values',
  {
    id: uuid().primaryKey().defaultRandom(),
    category: text().notNull(),
    code: text().notNull(),
    label: text().notNull(),
    description: text(),
    sortOrder: integer().notNull().default(0),
    createdBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    updatedBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('lookup_values_category_code_key').on(t.category, t.code), index('lookup_values_category_order_idx').on(t.category, t.sortOrder, t.code)],
);
export type LookupValueRow = typeof lookupValues.$inferSelect;
