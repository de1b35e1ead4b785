import { sql } from 'drizzle-orm';
import { idOf } from '../../core/db/references.js';
import { customType, date, doublePrecision, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';

/**
 * Fishing regulations: jurisdiction (a state, ISO 3166-2 code) → zone or water body (polygons) →
 * species → rule set, versioned per license year; emergency orders override a date range.
 * (Master Angler programs live in src/modules/master-angler.)
 *
 * Lengths of rules are stored in inches as the booklets print them (the API also gives cm);
 * dates of seasons are calendar dates (`YYYY-MM-DD`) in the jurisdiction's local time.
 */

/** PostgreSQL's native `polygon` (text form `((x1,y1),(x2,y2),…)`, x = longitude, y = latitude). */
export const polygon = customType<{ data: string; driverData: string }>({
  dataType: () => 'polygon',
});

export const regJurisdictions = pgTable(
  'reg_jurisdictions',
  {
    id: uuid().primaryKey(),
    /** ISO 3166-2, e.g. US-MN. */
    code: text().notNull(),
    name: text().notNull(),
    agencyName: text().notNull(),
    agencyUrl: text().notNull(),
    /** First month and day of the fishing license year (e.g. 3/1: March 1 – end of February). */
    licenseYearStartMonth: integer().notNull(),
    licenseYearStartDay: integer().notNull(),
    createdBy: uuid(),
    /** Last administrator who changed it (the seed leaves rows an administrator created or changed alone). */
    updatedBy: uuid(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('reg_jurisdictions_code_key').on(t.code)],
);

export const ZONE_KINDS = ['state', 'zone', 'water_body'] as const;
export type ZoneKind = (typeof ZONE_KINDS)[number];

/** A state outline, a regulation zone or a special-regulation water; its rings are in reg_zone_rings. */
export const regZones = pgTable(
  'reg_zones',
  {
    id: uuid().primaryKey(),
    jurisdictionId: uuid()
      .notNull()
      .references(() => regJurisdictions.id),
    kind: text({ enum: ZONE_KINDS }).notNull(),
    name: text().notNull(),
    description: text(),
    /** The GeoJSON Polygon or MultiPolygon as uploaded. */
    geojson: jsonb().notNull(),
    /** Planar area in square degrees (smaller = more specific); the boundary's vertex count. */
    areaSqDeg: doublePrecision().notNull(),
    pointCount: integer().notNull(),
    sourceUrl: text(),
    createdBy: uuid(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [index('reg_zones_jurisdiction_idx').on(t.jurisdictionId, t.kind)],
);

/** One outer ring per row; the GiST index (custom migration) serves the point-in-polygon lookup. */
export const regZoneRings = pgTable(
  'reg_zone_rings',
  {
    id: uuid().primaryKey(),
    zoneId: uuid()
      .notNull()
      .references(() => regZones.id),
    ring: polygon().notNull(),
  },
  (t) => [index('reg_zone_rings_zone_idx').on(t.zoneId)],
);

export const regLicenseYears = pgTable(
  'reg_license_years',
  {
    id: uuid().primaryKey(),
    jurisdictionId: uuid()
      .notNull()
      .references(() => regJurisdictions.id),
    /** The year the license year starts in (2025 = March 1, 2025 – February 28, 2026 in Minnesota). */
    year: integer().notNull(),
    startsOn: date({ mode: 'string' }).notNull(),
    endsOn: date({ mode: 'string' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('reg_license_years_key').on(t.jurisdictionId, t.year)],
);

export interface DateRange {
  from: string;
  to: string;
}

/**
 * One version of the rules of one species in one jurisdiction (statewide when zone_id is null) for
 * one license year. Rows are never changed (a trigger refuses it, except deactivation and
 * effective_to): a change is a new version with its effective date, which closes the previous
 * version's range (effective_to = the day before). The version in force on a day is the active one
 * whose [effective_from, effective_to] contains it.
 */
export const regRuleSets = pgTable(
  'reg_rule_sets',
  {
    id: uuid().primaryKey(),
    jurisdictionId: uuid()
      .notNull()
      .references(() => regJurisdictions.id),
    zoneId: uuid().references(() => regZones.id),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    licenseYearId: uuid()
      .notNull()
      .references(() => regLicenseYears.id),
    version: integer().notNull(),
    effectiveFrom: date({ mode: 'string' }).notNull(),
    /** Last day in force (inclusive), set when a later version takes over; null = open-ended. */
    effectiveTo: date({ mode: 'string' }),
    /** Harvest seasons; null = not stated in our data (check the booklet). */
    openSeasons: jsonb().$type<DateRange[] | null>(),
    /** Periods when the species may be caught but must be released. */
    releaseOnlyPeriods: jsonb().$type<DateRange[]>().notNull().default(sql`'[]'::jsonb`),
    dailyBag: integer(),
    possessionLimit: integer(),
    minLengthIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    maxLengthIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    slotFromIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    slotToIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    /** Only `oneOverCount` fish (usually 1) longer than `oneOverIn` in the daily bag. */
    oneOverIn: numeric({ precision: 5, scale: 2, mode: 'number' }),
    oneOverCount: integer(),
    /** Species sharing a combined daily bag name the same group (e.g. `walleye-sauger`). */
    combinedGroup: text(),
    combinedBag: integer(),
    gear: text(),
    notes: text(),
    sourceUrl: text().notNull(),
    bookletYear: integer().notNull(),
    createdBy: uuid(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('reg_rule_sets_version_key').on(t.jurisdictionId, sql`coalesce(${t.zoneId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.speciesId, t.licenseYearId, t.version),
    index('reg_rule_sets_lookup_idx').on(t.jurisdictionId, t.speciesId, t.effectiveFrom),
  ],
);

/** Overrides of a rule set (or of every species when species_id is null) for a date range. */
export interface RuleOverride {
  closed?: boolean;
  releaseOnly?: boolean;
  dailyBag?: number;
  possessionLimit?: number;
  minLengthIn?: number;
  maxLengthIn?: number;
}

export const regEmergencyOrders = pgTable(
  'reg_emergency_orders',
  {
    id: uuid().primaryKey(),
    jurisdictionId: uuid()
      .notNull()
      .references(() => regJurisdictions.id),
    zoneId: uuid().references(() => regZones.id),
    speciesId: uuid().references(() => idOf('fish_species')),
    startsOn: date({ mode: 'string' }).notNull(),
    endsOn: date({ mode: 'string' }).notNull(),
    reason: text().notNull(),
    overrides: jsonb().$type<RuleOverride>().notNull(),
    sourceUrl: text(),
    createdBy: uuid(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [index('reg_emergency_orders_lookup_idx').on(t.jurisdictionId, t.startsOn, t.endsOn)],
);

export type JurisdictionRow = typeof regJurisdictions.$inferSelect;
export type ZoneRow = typeof regZones.$inferSelect;
export type LicenseYearRow = typeof regLicenseYears.$inferSelect;
export type RuleSetRow = typeof regRuleSets.$inferSelect;
export type EmergencyOrderRow = typeof regEmergencyOrders.$inferSelect;
