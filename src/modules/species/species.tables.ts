import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';

/**
 * Fish species reference data and their taxonomy.
 *
 * - `fish_taxa`: orders, families and genera, each genus under its family and each family under
 *   its order (`parent_id`). Ids are UUIDv5 of `<rank>:<lower-cased name>` (species.seeds.ts).
 * - `fish_species`: seeded species have ids that are UUIDv5 of the lower-cased scientific name (see
 *   species.seeds.ts), so that installations agree on them; species that administrators add get
 *   UUIDv7. The seed matches rows by scientific name. Catches reference species. `genus_id` places the
 *   species in the taxonomy (the genus is the first word of the scientific name).
 * - `search_text`: common, other and scientific names, lower-cased, for the trigram search
 *   (`pg_trgm`, GIN index); written by the repository with every change.
 * - `created_by`, `updated_by`, `deactivated_by`: user ids (like users.deactivated_by, without a
 *   foreign key, so the record of who did it outlives the user). `updated_by` is null while the row
 *   is as the data files have it; every administrative change sets it, and from then on the seed
 *   leaves the row alone.
 */

export const TAXON_RANKS = ['order', 'family', 'genus'] as const;
export type TaxonRank = (typeof TAXON_RANKS)[number];

export const WATER_TYPES = ['Freshwater', 'Saltwater', 'Brackish'] as const;
export type WaterType = (typeof WATER_TYPES)[number];

export const fishTaxa = pgTable(
  'fish_taxa',
  {
    id: uuid().primaryKey(),
    rank: text({ enum: TAXON_RANKS }).notNull(),
    name: text().notNull(),
    commonName: text(),
    parentId: uuid().references((): AnyPgColumn => fishTaxa.id),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('fish_taxa_rank_name_key').on(t.rank, sql`lower(${t.name})`),
    index('fish_taxa_parent_idx').on(t.parentId),
    check('fish_taxa_parent_rank', sql`(${t.rank} = 'order') = (${t.parentId} IS NULL)`),
  ],
);

export const fishSpecies = pgTable(
  'fish_species',
  {
    id: uuid().primaryKey(),
    commonName: text().notNull(),
    scientificName: text().notNull().unique(),
    otherNames: text().array().notNull().default(sql`'{}'::text[]`),
    waterTypes: text({ enum: WATER_TYPES }).array().notNull().default(sql`'{}'::text[]`),
    genusId: uuid().references(() => fishTaxa.id),
    searchText: text().notNull().default(''),
    ...deactivation(),
    createdBy: uuid(),
    updatedBy: uuid(),
    ...timestamps(),
  },
  (t) => [
    index('fish_species_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('fish_species_genus_idx').on(t.genusId),
    index('fish_species_water_types_idx').using('gin', t.waterTypes),
    index('fish_species_active_name_idx').on(t.commonName, t.id).where(sql`is_active`),
  ],
);

export type SpeciesRow = typeof fishSpecies.$inferSelect;
export type TaxonRow = typeof fishTaxa.$inferSelect;
