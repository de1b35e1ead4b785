import { sql } from 'drizzle-orm';
import { boolean, check, index, numeric, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idOf } from '../../core/db/references.js';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { GEAR_KINDS } from './gear.kinds.js';

/**
 * The gear catalog: rods, reels, lines, lures and apparel in one table, `kind` telling which; the
 * columns of the other kinds stay null (CHECK constraints require each kind's own fields: fly rods
 * are rated by line weight instead of power; soft plastics are sold unweighted, other lures have a
 * weight).
 *
 * Units (one per field): rod length in whole inches (`length_in`, as rods are specified: 7'1" = 85);
 * lure length in centimetres; weights in grams (reel, lure, rod lure rating); line test and rod
 * line rating in pounds; line diameter in millimetres; spool length in metres; reel drag in
 * kilograms; line retrieve per crank in centimetres; prices in US dollars (list price).
 *
 * Seeded items have ids that are UUIDv5 of their `slug` (gear.seeds.ts) and are matched by it;
 * items that administrators add get UUIDv7. `updated_by` is null while the row is as the data
 * files have it; an administrative change sets it and the seed leaves the row alone from then on.
 * `search_text`: brand, name, product line and model number, lower-cased, for the trigram search.
 */
export const gearItems = pgTable(
  'gear_items',
  {
    id: uuid().primaryKey(),
    kind: text({ enum: GEAR_KINDS }).notNull(),
    slug: text().notNull(),
    brandId: uuid()
      .notNull()
      .references(() => idOf('brands')),
    name: text().notNull(),
    productLine: text(),
    modelNumber: text(),
    description: text(),
    priceUsd: numeric({ precision: 8, scale: 2, mode: 'number' }),
    searchText: text().notNull().default(''),
    // rods
    rodType: text(),
    lengthIn: smallint(),
    power: text(),
    action: text(),
    pieces: smallint(),
    lineMinLb: numeric({ precision: 5, scale: 1, mode: 'number' }),
    lineMaxLb: numeric({ precision: 5, scale: 1, mode: 'number' }),
    lureMinG: numeric({ precision: 6, scale: 1, mode: 'number' }),
    lureMaxG: numeric({ precision: 6, scale: 1, mode: 'number' }),
    flyLineWeight: smallint(),
    // rods and apparel
    material: text(),
    // reels
    reelType: text(),
    size: text(),
    gearRatio: numeric({ precision: 3, scale: 1, mode: 'number' }),
    maxDragKg: numeric({ precision: 4, scale: 1, mode: 'number' }),
    bearings: text(),
    retrieveCm: numeric({ precision: 5, scale: 1, mode: 'number' }),
    // reels and lures
    weightG: numeric({ precision: 7, scale: 1, mode: 'number' }),
    // lines
    lineType: text(),
    testLb: numeric({ precision: 5, scale: 1, mode: 'number' }),
    diameterMm: numeric({ precision: 5, scale: 3, mode: 'number' }),
    spoolLengthM: numeric({ precision: 6, scale: 1, mode: 'number' }),
    // lines and lures
    colour: text(),
    // lures
    lureType: text(),
    lengthCm: numeric({ precision: 5, scale: 1, mode: 'number' }),
    divingDepthMinM: numeric({ precision: 4, scale: 1, mode: 'number' }),
    divingDepthMaxM: numeric({ precision: 4, scale: 1, mode: 'number' }),
    // apparel
    apparelType: text(),
    sizes: text().array(),
    gender: text(),
    waterproof: boolean(),
    colours: text().array(),
    ...deactivation(),
    createdBy: uuid(),
    updatedBy: uuid(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('gear_items_slug_key').on(t.slug),
    uniqueIndex('gear_items_kind_brand_name_key').on(t.kind, t.brandId, sql`lower(${t.name})`),
    index('gear_items_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('gear_items_kind_active_name_idx').on(t.kind, t.name, t.id).where(sql`is_active`),
    index('gear_items_brand_kind_idx').on(t.brandId, t.kind),
    check('gear_items_rod_fields', sql`kind <> 'rod' OR (rod_type IS NOT NULL AND length_in IS NOT NULL AND action IS NOT NULL AND pieces IS NOT NULL AND (power IS NOT NULL OR (rod_type = 'Fly' AND fly_line_weight IS NOT NULL)))`),
    check('gear_items_reel_fields', sql`kind <> 'reel' OR (reel_type IS NOT NULL AND gear_ratio IS NOT NULL AND weight_g IS NOT NULL AND max_drag_kg IS NOT NULL)`),
    check('gear_items_line_fields', sql`kind <> 'line' OR (line_type IS NOT NULL AND test_lb IS NOT NULL AND diameter_mm IS NOT NULL)`),
    check('gear_items_lure_fields', sql`kind <> 'lure' OR (lure_type IS NOT NULL AND colour IS NOT NULL AND (weight_g IS NOT NULL OR lure_type = 'Soft plastic'))`),
    check('gear_items_apparel_fields', sql`kind <> 'apparel' OR (apparel_type IS NOT NULL AND cardinality(sizes) > 0)`),
  ],
);

/** The species a lure is made for (a lure's `targetSpecies`). */
export const gearLureSpecies = pgTable(
  'gear_lure_species',
  {
    lureId: uuid()
      .notNull()
      .references(() => gearItems.id, { onDelete: 'cascade' }),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
  },
  (t) => [primaryKey({ columns: [t.lureId, t.speciesId] }), index('gear_lure_species_species_idx').on(t.speciesId, t.lureId)],
);

export type GearItemRow = typeof gearItems.$inferSelect;
