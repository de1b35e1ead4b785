import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Fish species reference data. Ids are UUIDv5 of the scientific name (see species.seeds.ts), so
 * that seeds and other installations agree on them. The catalog module extends this table with
 * taxonomy and search; catches reference it.
 */
export const fishSpecies = pgTable('fish_species', {
  id: uuid().primaryKey(),
  commonName: text().notNull(),
  scientificName: text().notNull().unique(),
  isActive: boolean().notNull().default(true),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type SpeciesRow = typeof fishSpecies.$inferSelect;
