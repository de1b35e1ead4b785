import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { GEAR_KINDS } from './brands.kinds.js';

/**
 * Fishing-gear brands. Seeded brands have ids that are UUIDv5 of the lower-cased name (see
 * brands.seeds.ts); brands that administrators add get UUIDv7. `country` is the ISO 3166-1
 * alpha-2 code of the brand's home country; `gear_kinds` the catalog kinds it makes.
 * `updated_by` is null while the row is as the data file has it (the seed then keeps it current);
 * an administrative change sets it and the seed leaves the row alone from then on.
 */
export const brands = pgTable(
  'brands',
  {
    id: uuid().primaryKey(),
    name: text().notNull(),
    country: text().notNull(),
    website: text(),
    description: text(),
    gearKinds: text({ enum: GEAR_KINDS }).array().notNull().default(sql`'{}'::text[]`),
    ...deactivation(),
    createdBy: uuid(),
    updatedBy: uuid(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('brands_name_key').on(sql`lower(${t.name})`),
    index('brands_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('brands_active_name_idx').on(t.name, t.id).where(sql`is_active`),
  ],
);

export type BrandRow = typeof brands.$inferSelect;
