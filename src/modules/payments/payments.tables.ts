import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../core/db/columns.js';
import { idOf } from '../../core/db/references.js';

export const PAYMENT_KINDS = ['CharterDeposit', 'CharterBalance', 'TournamentFee'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const PAYMENT_STATUSES = ['Pending', 'Succeeded', 'Failed', 'PartiallyRefunded', 'Refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const REFUND_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const PROVIDERS = ['local', 'stripe'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * One payment of any kind (charter deposit or balance, tournament fee…), in integer cents of
 * `currency` (ISO 4217, upper case). `related_type`/`related_id` name the record paid for.
 * `reserved_refund_cents` is the sum of the payment's refunds that are not Failed; a trigger
 * keeps it (see the custom migration) and the CHECK below makes over-refunding impossible, also
 * under concurrent refunds (the trigger's UPDATE serialises them on the payment row).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey(),
    kind: text({ enum: PAYMENT_KINDS }).notNull(),
    payerId: uuid()
      .notNull()
      .references(() => idOf('users')),
    relatedType: text().notNull(),
    relatedId: uuid().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    status: text({ enum: PAYMENT_STATUSES }).notNull().default('Pending'),
    failureReason: text(),
    provider: text({ enum: PROVIDERS }).notNull(),
    providerRef: text(),
    /** Last four digits of the card, for receipts and support (never the number). */
    cardLast4: text(),
    description: text(),
    reservedRefundCents: integer().notNull().default(0),
    refundedCents: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    check('payments_currency_iso', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('payments_refunds_within_amount', sql`${t.reservedRefundCents} >= 0 AND ${t.reservedRefundCents} <= ${t.amountCents}`),
    check('payments_refunded_within_reserved', sql`${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.reservedRefundCents}`),
    check('payments_failure_reason', sql`(${t.status} = 'Failed') = (${t.failureReason} IS NOT NULL)`),
    index('payments_created_idx').on(t.createdAt, t.id),
    index('payments_status_created_idx').on(t.status, t.createdAt),
    index('payments_payer_idx').on(t.payerId, t.createdAt),
    index('payments_related_idx').on(t.relatedType, t.relatedId),
    index('payments_provider_ref_idx').on(t.providerRef),
  ],
);

/** A refund of (part of) a payment: a row of its own with its reason and who asked for it. */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid().primaryKey(),
    paymentId: uuid()
      .notNull()
      .references(() => payments.id),
    amountCents: integer().notNull(),
    reason: text().notNull(),
    actorType: text({ enum: ['user', 'system'] }).notNull(),
    actorUserId: uuid().references(() => idOf('users')),
    status: text({ enum: REFUND_STATUSES }).notNull().default('Pending'),
    failureReason: text(),
    providerRef: text(),
    ...timestamps(),
  },
  (t) => [
    check('payment_refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('payment_refunds_reason_present', sql`length(btrim(${t.reason})) > 0`),
    index('payment_refunds_payment_idx').on(t.paymentId, t.createdAt),
    index('payment_refunds_provider_ref_idx').on(t.providerRef),
  ],
);

/**
 * Idempotency keys of create/refund requests, per scope (operation and caller). The first
 * request's outcome is kept until `expires_at` (24 h or more): the same key with the same body
 * gets it again, with another body a 422.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    /** null while the first request is still running. */
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/** Provider webhook events already processed (deduplication by the provider's event id). */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  id: text().primaryKey(),
  provider: text({ enum: PROVIDERS }).notNull(),
  type: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof paymentRefunds.$inferSelect;
