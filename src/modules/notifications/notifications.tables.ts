import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deactivation, timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

/**
 * The local mailbox: with no SMTP server configured (EmailSmtpEnabled false) every mail the
 * service would send is kept here, readable with `fishlog mail list` / `mail show <id>`.
 */
export const mailboxMessages = pgTable(
  'mailbox_messages',
  {
    id: uuid().primaryKey(),
    notificationId: uuid(),
    from: text().notNull(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    headers: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mailbox_messages_created_idx').on(t.createdAt.desc(), t.id.desc())],
);

/** An integrator's endpoint: deliveries of the listed event types, signed with its secret (sealed at rest). */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid().primaryKey(),
  url: text().notNull(),
  description: text(),
  eventTypes: text().array().notNull(),
  secretSealed: text().notNull(),
  createdBy: uuid().references(() => idOf('users'), { onDelete: 'set null' }),
  ...timestamps(),
  ...deactivation(),
});

export const WEBHOOK_DELIVERY_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;

/** One event sent (or being retried) to one endpoint: its last attempt's status code and (at most 1 KB of) response. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey(),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: uuid(),
    type: text().notNull(),
    body: jsonb().notNull(),
    status: text({ enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('Pending'),
    attempts: integer().notNull().default(0),
    responseStatus: integer(),
    responseBody: text(),
    error: text(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc(), t.id.desc()), index('webhook_deliveries_pending_idx').on(t.createdAt).where(sql`status = 'Pending'`)],
);
