import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idOf, ownedByUser } from '../../core/db/references.js';
import { clientCreated, rowVersion, timestamps } from '../../core/db/columns.js';

/**
 * The fishing log. Canonical units: lengths in centimetres, weights in kilograms, temperatures in
 * degrees Celsius, wind speed in km/h, pressure in hPa, depth in metres, coordinates WGS 84.
 */

export const fishingSessions = pgTable(
  'fishing_sessions',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    timeZone: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    waterBody: text(),
    stateCode: text(),
    participants: text().array().notNull().default(sql`'{}'::text[]`),
    notes: text(),
    weatherSummary: text(),
    waterSummary: text(),
    ...rowVersion(),
    ...clientCreated(),
    ...timestamps(),
  },
  (t) => [index('fishing_sessions_owner_time_idx').on(t.ownerId, t.startedAt.desc(), t.id.desc())],
);

export const logEntries = pgTable(
  'fishing_log_entries',
  {
    id: uuid().primaryKey(),
    ownerId: ownedByUser(),
    sessionId: uuid().references(() => fishingSessions.id, { onDelete: 'set null' }),
    title: text().notNull(),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    timeZone: text().notNull(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    waterBody: text(),
    stateCode: text(),
    airTemperatureC: numeric({ precision: 4, scale: 1, mode: 'number' }),
    sky: text(),
    windSpeedKmh: numeric({ precision: 5, scale: 1, mode: 'number' }),
    windDirection: text(),
    pressureHpa: numeric({ precision: 6, scale: 1, mode: 'number' }),
    moonPhase: text(),
    waterTemperatureC: numeric({ precision: 4, scale: 1, mode: 'number' }),
    waterClarity: text(),
    waterDepthM: numeric({ precision: 6, scale: 1, mode: 'number' }),
    method: text(),
    notes: text(),
    visibility: text({ enum: ['Public', 'Private', 'Friends', 'Circle'] })
      .notNull()
      .default('Private'),
    shareExactLocation: boolean().notNull().default(false),
    // The species of the entry's catches (distinct, sorted), kept by the catches' trigger (migration 0053) and carried by
    // the feed indexes: the feed's species filter reads them from the index instead of probing the catches per entry.
    // Null past 64 species (an index entry has a size limit): the filter then probes that entry's catches.
    speciesIds: uuid().array().default(sql`'{}'::uuid[]`),
    ...rowVersion(),
    ...clientCreated(),
    ...timestamps(),
  },
  (t) => [
    // One index per branch of the visibility UNION, each in list order (newest first).
    index('fishing_log_entries_owner_time_idx').on(t.ownerId, t.occurredAt.desc(), t.id.desc()),
    index('fishing_log_entries_owner_visibility_time_idx').on(t.ownerId, t.visibility, t.occurredAt.desc(), t.id.desc()),
    // The Public and Friends branches use covering partial indexes (occurred_at DESC, id DESC)
    // INCLUDE (owner_id), created in drizzle/*_perf_sql.sql (drizzle-kit cannot say INCLUDE).
    index('fishing_log_entries_session_idx').on(t.sessionId),
  ],
);

export const catches = pgTable(
  'catches',
  {
    id: uuid().primaryKey(),
    entryId: uuid()
      .notNull()
      .references(() => logEntries.id, { onDelete: 'cascade' }),
    ownerId: ownedByUser(),
    speciesId: uuid()
      .notNull()
      .references(() => idOf('fish_species')),
    lengthCm: numeric({ precision: 6, scale: 2, mode: 'number' }),
    weightKg: numeric({ precision: 8, scale: 3, mode: 'number' }),
    count: integer().notNull().default(1),
    released: boolean().notNull(),
    caughtAt: timestamp({ withTimezone: true }).notNull(),
    bait: text(),
    lure: text(),
    gearSetupId: uuid().references(() => idOf('gear_setups'), { onDelete: 'set null' }),
    /** The lure from the gear catalog (the free-text `lure` stays for anything else). */
    lureItemId: uuid().references(() => idOf('gear_items'), { onDelete: 'set null' }),
    photoUrls: text().array().notNull().default(sql`'{}'::text[]`),
    notes: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    ...rowVersion(),
    ...clientCreated(),
    ...timestamps(),
  },
  (t) => [
    index('catches_entry_time_idx').on(t.entryId, t.caughtAt, t.id),
    index('catches_species_entry_idx').on(t.speciesId, t.entryId),
    index('catches_owner_species_idx').on(t.ownerId, t.speciesId),
    index('catches_gear_setup_idx').on(t.gearSetupId).where(sql`gear_setup_id IS NOT NULL`),
    index('catches_lure_item_idx').on(t.lureItemId).where(sql`lure_item_id IS NOT NULL`),
  ],
);

/** One row per DNR read of log data, written in the same transaction as the read. */
export const dnrAccessLog = pgTable(
  'dnr_access_log',
  {
    id: uuid().primaryKey(),
    dnrUserId: uuid()
      .notNull()
      .references(() => idOf('users')),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    purpose: text().notNull(),
    mode: text({ enum: ['records', 'aggregate'] }).notNull(),
    filters: jsonb().notNull(),
    recordCount: integer().notNull(),
    requestId: text(),
  },
  (t) => [index('dnr_access_log_dnr_time_idx').on(t.dnrUserId, t.occurredAt.desc())],
);

/** Whose data each DNR access included (so anglers can see the reads that touched their data). */
export const dnrAccessSubjects = pgTable(
  'dnr_access_subjects',
  {
    accessId: uuid()
      .notNull()
      .references(() => dnrAccessLog.id, { onDelete: 'cascade' }),
    userId: ownedByUser(),
    consentLevel: text({ enum: ['Anonymized', 'Identified'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accessId, t.userId] }), index('dnr_access_subjects_user_idx').on(t.userId, t.accessId)],
);

export type EntryRow = typeof logEntries.$inferSelect;
export type CatchRow = typeof catches.$inferSelect;
export type SessionRow = typeof fishingSessions.$inferSelect;
