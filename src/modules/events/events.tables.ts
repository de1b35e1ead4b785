import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { featuring } from '../../core/db/featured.js';
import { idOf } from '../../core/db/references.js';

export const EVENT_STATUSES = ['PendingApproval', 'Approved', 'Rejected'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * Community events (expos, swap meets, seminars, tournaments…): any angler proposes one, an
 * administrator approves or rejects it (the reason is shown to the creator). `registeredCount`
 * is kept in step with the registrations under a row lock, so `capacity` holds under concurrency.
 * GiST index on ll_to_earth(lat, lon) in a custom migration.
 */
export const events = pgTable(
  'events',
  {
    id: uuid().primaryKey(),
    creatorId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text(),
    /** An EventType lookup value (checked on write by the lookups module). */
    type: text().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    venueName: text().notNull(),
    address: text(),
    city: text(),
    stateCode: text(),
    lat: doublePrecision().notNull(),
    lon: doublePrecision().notNull(),
    websiteUrl: text(),
    capacity: integer(),
    registrationDeadline: timestamp({ withTimezone: true }),
    registeredCount: integer().notNull().default(0),
    status: text({ enum: EVENT_STATUSES }).notNull().default('PendingApproval'),
    rejectionReason: text(),
    reviewedAt: timestamp({ withTimezone: true }),
    reviewedBy: uuid(),
    ...featuring(),
    ...deactivation(),
    ...timestamps(),
  },
  (t) => [
    index('events_approved_start_idx').on(t.startsAt, t.id).where(sql`status = 'Approved'`),
    index('events_status_idx').on(t.status, t.createdAt),
    index('events_creator_idx').on(t.creatorId),
    check('events_time_order', sql`${t.endsAt} >= ${t.startsAt}`),
    check('events_capacity', sql`${t.capacity} IS NULL OR ${t.capacity} > 0`),
    check('events_registered_within_capacity', sql`${t.registeredCount} >= 0 AND (${t.capacity} IS NULL OR ${t.registeredCount} <= ${t.capacity})`),
  ],
);

export const eventRegistrations = pgTable(
  'event_registrations',
  {
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => idOf('users'), { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] })],
);

export type EventRow = typeof events.$inferSelect;
