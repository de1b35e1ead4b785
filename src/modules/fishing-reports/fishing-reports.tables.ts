import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { CONTENT_STATUSES } from '../moderation/index.js';
import { idOf } from '../../core/db/references.js';

export const WIND_DIRECTIONS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export const BITES = ['Hot', 'Good', 'Fair', 'Slow', 'None'] as const;

export interface ReportSpecies {
  speciesId: string;
  bite: (typeof BITES)[number];
}

/**
 * Fishing reports: how the fishing was on a water body on a day. `lat`/`lon` is the author's
 * point; `publicLat`/`publicLon` what others are shown and searched by (rounded to the ~1 km grid
 * unless the author chose `exactLocation`). Moderated before publishing like posts (`status`).
 * GiST index on ll_to_earth(public_lat, public_lon) in a custom migration.
 */
export const fishingReports = pgTable(
  'fishing_reports',
  {
    id: uuid().primaryKey(),
    authorId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    waterBody: text().notNull(),
    stateCode: text(),
    lat: doublePrecision().notNull(),
    lon: doublePrecision().notNull(),
    publicLat: doublePrecision().notNull(),
    publicLon: doublePrecision().notNull(),
    exactLocation: boolean().notNull().default(false),
    fishedOn: date({ mode: 'string' }).notNull(),
    waterTempC: numeric({ precision: 4, scale: 1, mode: 'number' }),
    /** A WaterClarity lookup value (checked on write by the lookups module). */
    clarity: text(),
    /** A Sky lookup value. */
    sky: text(),
    windKmh: numeric({ precision: 5, scale: 1, mode: 'number' }),
    windDirection: text({ enum: WIND_DIRECTIONS }),
    species: jsonb().$type<ReportSpecies[]>().notNull().default(sql`'[]'::jsonb`),
    text: text().notNull(),
    status: text({ enum: CONTENT_STATUSES }).notNull(),
    moderationReason: text(),
    moderatedAt: timestamp({ withTimezone: true }),
    helpfulCount: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index('fishing_reports_author_idx').on(t.authorId, t.createdAt),
    index('fishing_reports_pending_idx').on(t.createdAt).where(sql`status = 'PendingReview'`),
    check('fishing_reports_coordinates', sql`${t.lat} BETWEEN -90 AND 90 AND ${t.lon} BETWEEN -180 AND 180`),
  ],
);

/** "Helpful" marks: once per user and report. */
export const fishingReportHelpful = pgTable(
  'fishing_report_helpful',
  {
    reportId: uuid()
      .notNull()
      .references(() => fishingReports.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] })],
);

export type FishingReportRow = typeof fishingReports.$inferSelect;
