import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ownedByUser } from '../db/references.js';

/**
 * The notification outbox (core/notifications/outbox.ts): an event and its recipients'
 * in-app notifications are written in the transaction of the change they report; the dispatch
 * job (src/modules/notifications) then delivers each undispatched event by e-mail and webhooks.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: uuid().primaryKey(),
    type: text().notNull(),
    /** The API path of the record the event is about. */
    path: text().notNull(),
    /** The record's public view (what a webhook delivery carries). */
    payload: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('notification_events_undispatched_idx').on(t.createdAt).where(sql`dispatched_at IS NULL`)],
);

/** One recipient's in-app notification of an event: what they may see of it, and whether they read it. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey(),
    eventId: uuid()
      .notNull()
      .references(() => notificationEvents.id),
    recipientId: ownedByUser(),
    type: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    path: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('notifications_recipient_idx').on(t.recipientId, t.createdAt.desc().nullsLast(), t.id.desc().nullsLast()),
    index('notifications_unread_idx').on(t.recipientId, t.createdAt.desc().nullsLast(), t.id.desc().nullsLast()).where(sql`read_at IS NULL`),
    index('notifications_event_idx').on(t.eventId),
  ],
);

export const NOTIFICATION_CHANNELS = ['inApp', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** A user's choice for one event type and channel; no row: the default (on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: ownedByUser(),
    type: text().notNull(),
    channel: text({ enum: NOTIFICATION_CHANNELS }).notNull(),
    enabled: boolean().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type, t.channel] })],
);
