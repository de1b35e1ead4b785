import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { featuring } from '../../core/db/featured.js';
import { idOf } from '../../core/db/references.js';

export const SPOT_KINDS = ['Spot', 'BoatRamp', 'Pier', 'Shore'] as const;
export type SpotKind = (typeof SPOT_KINDS)[number];
/** Public facilities: their coordinates are always exact. */
export const FACILITY_KINDS: readonly SpotKind[] = ['BoatRamp', 'Pier'];
export const SPOT_PRIVACIES = ['Public', 'Private'] as const;
export type SpotPrivacy = (typeof SPOT_PRIVACIES)[number];
export const SPOT_STATUSES = ['Unverified', 'Verified'] as const;
export const RAMP_TYPES = ['Concrete', 'Gravel', 'CarryIn'] as const;

/**
 * Fishing spots, boat ramps, piers and shore access. `lat`/`lon` are where the spot is;
 * `publicLat`/`publicLon` what everyone but its owner is shown (and searched by): the same for
 * public spots and facilities, snapped to the ~1 km grid for a spot shared from a private log.
 * The GiST index on ll_to_earth(public_lat, public_lon) is in a custom migration.
 */
export const spots = pgTable(
  'spots',
  {
    id: uuid().primaryKey(),
    /** Null for reference spots (seeded from agency data, e.g. the USGS boat ramps): nobody owns them. */
    ownerId: uuid().references(() => idOf('users'), { onDelete: 'cascade' }),
    name: text().notNull(),
    kind: text({ enum: SPOT_KINDS }).notNull(),
    privacy: text({ enum: SPOT_PRIVACIES }).notNull(),
    lat: doublePrecision().notNull(),
    lon: doublePrecision().notNull(),
    publicLat: doublePrecision().notNull(),
    publicLon: doublePrecision().notNull(),
    waterBody: text(),
    stateCode: text(),
    description: text(),
    // Ramp facts (BoatRamp only).
    rampType: text({ enum: RAMP_TYPES }),
    lanes: smallint(),
    parkingSpaces: integer(),
    feeRequired: boolean(),
    feeCents: integer(),
    accessible: boolean(),
    seasonal: boolean(),
    sourceUrl: text(),
    county: text(),
    /** The agency whose record the spot comes from (reference spots). */
    agency: text(),
    /** The record in the source dataset (reference spots), e.g. `USGS_BoatRamps.csv OID_=24414`: the seed's natural key. */
    sourceRecordId: text(),
    status: text({ enum: SPOT_STATUSES }).notNull().default('Unverified'),
    verifiedAt: timestamp({ withTimezone: true }),
    /** The administrator who verified it; null with verifiedAt set: verified by users' confirmations. */
    verifiedBy: uuid(),
    confirmationCount: integer().notNull().default(0),
    ratingCount: integer().notNull().default(0),
    ratingSum: integer().notNull().default(0),
    ...featuring(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [
    index('spots_owner_idx').on(t.ownerId, t.createdAt),
    uniqueIndex('spots_source_record_key').on(t.sourceRecordId),
    check('spots_lat_range', sql`${t.lat} BETWEEN -90 AND 90 AND ${t.publicLat} BETWEEN -90 AND 90`),
    check('spots_lon_range', sql`${t.lon} BETWEEN -180 AND 180 AND ${t.publicLon} BETWEEN -180 AND 180`),
    check('spots_lanes_positive', sql`${t.lanes} IS NULL OR ${t.lanes} > 0`),
    check('spots_fee_cents', sql`${t.feeCents} IS NULL OR ${t.feeCents} >= 0`),
  ],
);

/** One rating per user and spot; a new rating replaces it. */
export const spotRatings = pgTable(
  'spot_ratings',
  {
    spotId: uuid()
      .notNull()
      .references(() => spots.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    stars: smallint().notNull(),
    comment: text(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.spotId, t.userId] }), check('spot_ratings_stars', sql`${t.stars} BETWEEN 1 AND 5`)],
);

/** Users other than its creator confirming that a spot exists as described. */
export const spotConfirmations = pgTable(
  'spot_confirmations',
  {
    spotId: uuid()
      .notNull()
      .references(() => spots.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.spotId, t.userId] })],
);

export type SpotRow = typeof spots.$inferSelect;
export type SpotRatingRow = typeof spotRatings.$inferSelect;
