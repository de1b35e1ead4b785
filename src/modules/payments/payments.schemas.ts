import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { periodQuery } from '../../core/http/period.js';
import { IntervalEnum, pascalEnum } from '../../core/http/enums.js';
import { Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { idempotencyKeyDescription } from './payments.idempotency.js';

export const PaymentKindSchema = Type.Union([Type.Literal('CharterDeposit'), Type.Literal('CharterBalance'), Type.Literal('TournamentFee')], { description: 'What the payment is for' });
export const PaymentStatusSchema = Type.Union([Type.Literal('Pending'), Type.Literal('Succeeded'), Type.Literal('Failed'), Type.Literal('PartiallyRefunded'), Type.Literal('Refunded')], { description: 'Pending → Succeeded | Failed; Succeeded → PartiallyRefunded | Refunded' });

const REFUND_EXAMPLE = {
  id: '0193b7a5-1111-7c3a-9a57-2f1f0c3e8d21',
  paymentId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  amountCents: 2500,
  status: 'Succeeded',
  failureReason: null,
  reason: 'Customer canceled 10 days before the trip',
  actor: { type: 'User', userId: '0193b7a4-0000-7c3a-9a57-2f1f0c3e8d21' },
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

/** Who asked for a refund: User or System (the older user/system are never sent, only answered before). */
export const RefundActorTypeEnum = pascalEnum(['user', 'system'] as const, 'User: someone through the API; System: the service itself (e.g. a cancelled booking).');

export const Refund = Type.Object(
  {
    id: Uuid,
    paymentId: Uuid,
    amountCents: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    status: Type.Union([Type.Literal('Pending'), Type.Literal('Succeeded'), Type.Literal('Failed')], { description: 'Pending → Succeeded | Failed' }),
    failureReason: Nullable(Type.String()),
    reason: Type.String(),
    actor: Type.Object({ type: RefundActorTypeEnum.output, userId: Nullable(Uuid) }, { additionalProperties: false }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'PaymentRefund', additionalProperties: false, examples: [REFUND_EXAMPLE] },
);

export const PAYMENT_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  kind: 'CharterDeposit',
  status: 'PartiallyRefunded',
  failureReason: null,
  amountCents: 12000,
  currency: 'USD',
  refundedCents: 2500,
  refundableCents: 9500,
  payerId: '0193b7a4-0000-7c3a-9a57-2f1f0c3e8d21',
  related: { type: 'charter_booking', id: '0193b7a4-2222-7c3a-9a57-2f1f0c3e8d21' },
  provider: 'local',
  cardLast4: '4242',
  description: 'Deposit: Half-day inshore, 2026-07-04',
  refunds: [REFUND_EXAMPLE],
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Payment = Type.Object(
  {
    id: Uuid,
    kind: PaymentKindSchema,
    status: PaymentStatusSchema,
    failureReason: Nullable(Type.String({ description: 'Why a Failed payment failed (e.g. card_declined, insufficient_funds)' })),
    amountCents: Type.Integer({ minimum: 1, description: 'Amount in integer cents' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' }),
    refundedCents: Type.Integer({ minimum: 0, description: 'Sum of the succeeded refunds' }),
    refundableCents: Type.Integer({ minimum: 0, description: 'What can still be refunded' }),
    payerId: Uuid,
    related: Type.Object({ type: Type.String({ description: 'Type of the record paid for, e.g. charter_booking: a record-type identifier, as the audit log names targets, not a vocabulary value' }), id: Uuid }, { additionalProperties: false, description: 'The record paid for' }),
    provider: Type.Union([Type.Literal('local'), Type.Literal('stripe')], {
      description: 'Payment provider’s identifier (a name, not a vocabulary value, so it keeps its own lower-case spelling)',
    }),
    cardLast4: Nullable(Type.String()),
    description: Nullable(Type.String()),
    refunds: Type.Array(Type.Ref('PaymentRefund')),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Payment', additionalProperties: false, examples: [PAYMENT_EXAMPLE] },
);
export type PaymentBody = Static<typeof Payment>;

export const AdminPaymentsQuery = listQuery({
  status: Type.Optional(PaymentStatusSchema),
  kind: Type.Optional(PaymentKindSchema),
  userId: Type.Optional(Type.String({ format: 'uuid', description: 'The payer' })),
  relatedType: Type.Optional(Type.String({ maxLength: 64, description: 'Type of the record paid for, e.g. charter_booking' })),
  relatedId: Type.Optional(Type.String({ format: 'uuid', description: 'Id of the record paid for' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after (ISO 8601)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before (ISO 8601)' })),
  minAmountCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  maxAmountCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
});

export const FailedPaymentsQuery = listQuery({
  kind: Type.Optional(PaymentKindSchema),
  userId: Type.Optional(Type.String({ format: 'uuid' })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
});

export const RefundBody = Type.Object(
  {
    amountCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Cents to refund; omitted: everything still refundable' })),
    reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why (kept with the refund and in the audit log)' }),
  },
  { additionalProperties: false, examples: [{ amountCents: 2500, reason: 'Trip shortened by weather' }] },
);

export const RefundResult = Type.Object(
  { refund: Type.Ref('PaymentRefund'), payment: Type.Ref('Payment') },
  { additionalProperties: false, examples: [{ refund: REFUND_EXAMPLE, payment: PAYMENT_EXAMPLE }] },
);

export const IdempotencyHeaders = Type.Object(
  { 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: idempotencyKeyDescription, examples: ['6f1c0a52-2c57-4d0e-9a55-0c7c3f5d2b11'] })) },
  { additionalProperties: true },
);

export const RevenueQuery = Type.Object(
  {
    ...periodQuery,
    interval: Type.Optional(IntervalEnum.input),
    kind: Type.Optional(PaymentKindSchema),
  },
  { additionalProperties: false },
);

export const RevenuePeriod = Type.Object(
  {
    periodStart: Timestamp,
    kind: PaymentKindSchema,
    currency: Type.String(),
    payments: Type.Integer(),
    grossCents: Type.Integer(),
    refundedCents: Type.Integer(),
    netCents: Type.Integer(),
  },
  {
    additionalProperties: false,
    examples: [{ periodStart: '2026-06-01T00:00:00.000Z', kind: 'CharterDeposit', currency: 'USD', payments: 14, grossCents: 168000, refundedCents: 12000, netCents: 156000 }],
  },
);

export const WebhookResult = Type.Object(
  { received: Type.Literal(true), duplicate: Type.Boolean({ description: 'true when this event id was processed before' }), eventId: Type.String() },
  { additionalProperties: false, examples: [{ received: true, duplicate: false, eventId: 'evt_1Q0xyz' }] },
);
