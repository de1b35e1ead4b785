import { inTx, serviceDeps, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import type Stripe from 'stripe';
import type { Config } from '../../config.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { Database, Db, DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { PaymentErrors } from './payments.errors.js';
import { idempotent } from './payments.idempotency.js';
import { LocalLedgerProvider, type Outcome, type PaymentProvider } from './payments.provider.js';
import * as repo from './payments.repository.js';
import { StripeProvider, stripeClient, stripeEventUpdate } from './payments.stripe.js';
import type { PaymentKind, PaymentRow, RefundRow } from './payments.tables.js';
import { RefundActorTypeEnum } from './payments.schemas.js';
import type { Registries } from '../../core/registries.js';
import { emptyListeners, notifyRefund, paymentListeners, type PaymentListeners } from './payments.listeners.js';

/**
 * The payments service: the one place where money is charged and refunded, for charter
 * bookings, tournament fees and whatever is paid later. Other modules use it through this file
 * only (`paymentsOf(deps)`), never the tables.
 *
 * - Amounts are integer cents of an ISO 4217 currency.
 * - Status: Pending → Succeeded | Failed(reason); Succeeded → PartiallyRefunded | Refunded.
 * - Every create and refund carries an idempotency key (kept 24 h): the same key with the same
 *   input returns the first result, with another input a 422 (`idempotency.key_reused`).
 * - A refund is a row of its own (reason, actor, Pending → Succeeded | Failed); the database
 *   refuses refunds whose total would exceed the amount paid (`payments.refund_exceeds_amount`).
 * - Every charge and refund is audit-logged in the transaction that records its outcome.
 */

export type { PaymentKind, PaymentStatus } from './payments.tables.js';
export { PAYMENT_KINDS, PAYMENT_STATUSES } from './payments.tables.js';
export { idempotent, purgeExpiredIdempotencyKeys } from './payments.idempotency.js';
export type { PaymentProvider } from './payments.provider.js';
export { onPaymentSettled, registerPaymentRecordPath, type PaymentSettlement, type SettlementListener } from './payments.listeners.js';

export interface CreatePaymentInput {
  kind: PaymentKind;
  payerId: string;
  /** The record paid for, e.g. `{ type: 'charter_booking', id }` or `{ type: 'tournament_registration', id }`. */
  related: { type: string; id: string };
  amountCents: number;
  /** ISO 4217 (any case; stored upper case). */
  currency: string;
  /** A card number (local provider: Stripe's test numbers) or a Stripe payment method id. Never stored; only its last 4 digits. */
  paymentMethod: string;
  description?: string;
  /** Required: the caller's retry-safe key (e.g. the request's Idempotency-Key, or one derived from the related record). */
  idempotencyKey: string;
}

export interface RefundInput {
  paymentId: string;
  /** Cents to refund; omitted: all that remains refundable. */
  amountCents?: number | undefined;
  reason: string;
  /** Who asks (user or system) and from where; the refund row and the audit entry name them. */
  actor: AuditContext;
  idempotencyKey: string;
}

export interface RefundView {
  id: string;
  paymentId: string;
  amountCents: number;
  status: RefundRow['status'];
  failureReason: string | null;
  reason: string;
  actor: { type: 'User' | 'System'; userId: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface PaymentView {
  id: string;
  kind: PaymentKind;
  status: PaymentRow['status'];
  failureReason: string | null;
  amountCents: number;
  currency: string;
  refundedCents: number;
  refundableCents: number;
  payerId: string;
  related: { type: string; id: string };
  provider: PaymentRow['provider'];
  cardLast4: string | null;
  description: string | null;
  refunds: RefundView[];
  createdAt: string;
  updatedAt: string;
}

export interface RevenuePeriod {
  periodStart: string;
  kind: PaymentKind;
  currency: string;
  payments: number;
  grossCents: number;
  refundedCents: number;
  netCents: number;
}

function refundView(row: RefundRow): RefundView {
  return {
    id: row.id,
    paymentId: row.paymentId,
    amountCents: row.amountCents,
    status: row.status,
    failureReason: row.failureReason,
    reason: row.reason,
    actor: { type: RefundActorTypeEnum.toApi(row.actorType), userId: row.actorUserId },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function paymentView(row: PaymentRow, refunds: RefundRow[]): PaymentView {
  const refundable = row.status === 'Succeeded' || row.status === 'PartiallyRefunded' ? row.amountCents - row.reservedRefundCents : 0;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    failureReason: row.failureReason,
    amountCents: row.amountCents,
    currency: row.currency,
    refundedCents: row.refundedCents,
    refundableCents: refundable,
    payerId: row.payerId,
    related: { type: row.relatedType, id: row.relatedId },
    provider: row.provider,
    cardLast4: row.cardLast4,
    description: row.description,
    refunds: refunds.filter((r) => r.paymentId === row.id).map(refundView),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function snapshot(row: PaymentRow) {
  return { status: row.status, amountCents: row.amountCents, currency: row.currency, refundedCents: row.refundedCents, failureReason: row.failureReason };
}

function isConstraint(error: unknown, name: string): boolean {
  const pg = (error as { cause?: { constraint?: string } ; constraint?: string }) ?? {};
  return pg.constraint === name || pg.cause?.constraint === name;
}

/** The payment's status from its succeeded refunds. */
function statusAfterRefunds(row: PaymentRow): PaymentRow['status'] {
  if (row.refundedCents === 0) return 'Succeeded';
  return row.refundedCents >= row.amountCents ? 'Refunded' : 'PartiallyRefunded';
}

export class PaymentsService {
  constructor(
    private readonly deps: ServiceDeps,
    readonly provider: PaymentProvider,
    private readonly listeners: PaymentListeners,
    private readonly stripe?: { client: Stripe; webhookSecret: string | undefined },
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  private async view(db: DbOrTx, row: PaymentRow): Promise<PaymentView> {
    return paymentView(row, await repo.refundsOf(db, [row.id]));
  }

  /**
   * Charges `amountCents` to the payer. Resolves with the recorded payment whatever the
   * outcome: `status` Succeeded, Failed (with `failureReason`, e.g. card_declined) or Pending
   * (the provider decides later). Throws 400 for bad amounts/currencies, 422 for a reused key.
   */
  async createPayment(input: CreatePaymentInput, context: AuditContext): Promise<PaymentView> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw PaymentErrors.invalidAmount('/amountCents');
    if (!/^[A-Za-z]{3}$/.test(input.currency)) throw PaymentErrors.invalidCurrency(input.currency);
    const currency = input.currency.toUpperCase();
    const { idempotencyKey, paymentMethod, ...request } = input;
    return idempotent(this.db, { scope: `payments.create:${input.payerId}`, key: idempotencyKey, request: { ...request, currency, paymentMethod } }, async () => {
      const pending = await repo.insertPayment(this.db, {
        id: uuidv7(),
        kind: input.kind,
        payerId: input.payerId,
        relatedType: input.related.type,
        relatedId: input.related.id,
        amountCents: input.amountCents,
        currency,
        provider: this.provider.name,
        description: input.description ?? null,
      });
      const outcome = await this.provider.charge({
        paymentId: pending.id,
        amountCents: pending.amountCents,
        currency,
        paymentMethod,
        description: input.description ?? `${input.kind} ${input.related.type} ${input.related.id}`,
        idempotencyKey,
      });
      return this.db.transaction(async (tx) => {
        const row = await repo.updatePayment(tx, pending.id, {
          status: outcome.status,
          failureReason: outcome.status === 'Failed' ? outcome.failureReason : null,
          providerRef: outcome.providerRef,
          cardLast4: outcome.cardLast4 ?? null,
        });
        await recordAudit(inTx(this.deps, tx), context, { action: 'payments.charged', targetType: 'payment', targetId: row.id, after: { ...snapshot(row), kind: row.kind, related: input.related } });
        return this.view(tx, row);
      });
    });
  }

  /**
   * Refunds (part of) a Succeeded or PartiallyRefunded payment. The database refuses a total of
   * refunds above the amount (409 `payments.refund_exceeds_amount`, also under concurrency).
   * Resolves with the refund and the payment after it.
   */
  async refund(input: RefundInput): Promise<{ refund: RefundView; payment: PaymentView }> {
    if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)) throw PaymentErrors.invalidAmount('/amountCents');
    const actorId = input.actor.actor.userId ?? null;
    const { actor: _actor, idempotencyKey, ...request } = input;
    return idempotent(this.db, { scope: `payments.refund:${actorId ?? 'system'}`, key: idempotencyKey, request }, async () => {
      const payment = await repo.findPayment(this.db, input.paymentId);
      if (!payment) throw PaymentErrors.notFound(input.paymentId);
      if (payment.status !== 'Succeeded' && payment.status !== 'PartiallyRefunded') throw PaymentErrors.notRefundable(payment.id, payment.status);
      const remaining = payment.amountCents - payment.reservedRefundCents;
      const amount = input.amountCents ?? remaining;
      if (amount <= 0) throw PaymentErrors.refundExceeds(payment.id, 0, payment.currency);
      let pending: RefundRow;
      try {
        // The insert trigger adds the amount to the payment's reserved refunds under the row's
        // lock; the CHECK refuses a total above the amount (no read-then-write race).
        pending = await repo.insertRefund(this.db, {
          id: uuidv7(),
          paymentId: payment.id,
          amountCents: amount,
          reason: input.reason,
          actorType: input.actor.actor.type,
          actorUserId: actorId,
        });
      } catch (error) {
        if (isConstraint(error, 'payments_refunds_within_amount')) {
          const fresh = await repo.findPayment(this.db, payment.id);
          throw PaymentErrors.refundExceeds(payment.id, fresh ? fresh.amountCents - fresh.reservedRefundCents : 0, payment.currency);
        }
        throw error;
      }
      const outcome = await this.provider.refund({
        refundId: pending.id,
        paymentId: payment.id,
        paymentRef: payment.providerRef,
        amountCents: amount,
        currency: payment.currency,
        idempotencyKey,
      });
      return this.db.transaction(async (tx) => {
        const { refund, payment: after } = await this.applyRefundOutcome(tx, pending.id, outcome);
        if (refund.status === 'Succeeded') await notifyRefund(this.listeners, tx, after, refund);
        await recordAudit(inTx(this.deps, tx), input.actor, {
          action: 'payments.refunded',
          targetType: 'payment',
          targetId: payment.id,
          reason: input.reason,
          before: snapshot(payment),
          after: { ...snapshot(after), refund: { id: refund.id, amountCents: refund.amountCents, status: refund.status, failureReason: refund.failureReason } },
        });
        return { refund: refundView(refund), payment: await this.view(tx, after) };
      });
    });
  }

  private async applyRefundOutcome(tx: DbOrTx, refundId: string, outcome: Outcome) {
    const refund = await repo.updateRefund(tx, refundId, {
      status: outcome.status,
      failureReason: outcome.status === 'Failed' ? outcome.failureReason : null,
      ...(outcome.providerRef ? { providerRef: outcome.providerRef } : {}),
    });
    const locked = (await repo.lockPayment(tx, refund.paymentId))!;
    const payment = await repo.updatePayment(tx, locked.id, { status: statusAfterRefunds(locked) });
    return { refund, payment };
  }

  /** One payment with its refunds; 404 when there is none. */
  async getPayment(id: string): Promise<PaymentView> {
    const row = await repo.findPayment(this.db, id);
    if (!row) throw PaymentErrors.notFound(id);
    return this.view(this.db, row);
  }

  /** Payments by filter, newest first, with their refunds. */
  async listPayments(filter: repo.PaymentFilter, page: Page): Promise<{ items: PaymentView[]; total: number }> {
    const { items, total } = await repo.listPayments(this.db, filter, page);
    const refunds = await repo.refundsOf(this.db, items.map((i) => i.id));
    return { items: items.map((i) => paymentView(i, refunds)), total };
  }

  /**
   * Revenue per period (UTC day, ISO week or month) and kind and currency, of payments made in
   * [from, to) that succeeded: gross, refunded so far and net cents.
   */
  async revenueByPeriod(from: Date, to: Date, interval: 'day' | 'week' | 'month', kind?: PaymentKind): Promise<RevenuePeriod[]> {
    const rows = await repo.revenue(this.db, from, to, interval, kind);
    return rows.map((r) => ({
      periodStart: r.period.toISOString(),
      kind: r.kind,
      currency: r.currency,
      payments: r.payments,
      grossCents: r.grossCents,
      refundedCents: r.refundedCents,
      netCents: r.grossCents - r.refundedCents,
    }));
  }

  /**
   * A Stripe webhook delivery: verifies the signature over the raw body, processes each event id
   * once (a redelivery answers `duplicate: true`) and applies the outcome it reports.
   */
  async handleStripeWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean; eventId: string }> {
    if (!this.stripe?.webhookSecret) throw PaymentErrors.webhookDisabled();
    let event: Stripe.Event;
    try {
      event = this.stripe.client.webhooks.constructEvent(rawBody, signature ?? '', this.stripe.webhookSecret);
    } catch (error) {
      throw PaymentErrors.webhookSignature(error instanceof Error ? error.message : 'invalid signature');
    }
    return this.db.transaction(async (tx) => {
      const fresh = await repo.recordWebhookEvent(tx, 'stripe', event.id, event.type);
      if (!fresh) return { received: true as const, duplicate: true, eventId: event.id };
      const update = stripeEventUpdate(event);
      const context: AuditContext = { actor: { type: 'system' }, userAgent: `stripe-webhook ${event.type}`, requestId: event.id };
      if (update?.target === 'payment') {
        const row = await repo.findPaymentByRef(tx, 'stripe', update.providerRef);
        if (row && row.status === 'Pending') {
          const failureReason = update.outcome.status === 'Failed' ? update.outcome.failureReason : null;
          const after = await repo.updatePayment(tx, row.id, { status: update.outcome.status, failureReason });
          await recordAudit(inTx(this.deps, tx), context, { action: 'payments.charged', targetType: 'payment', targetId: row.id, before: snapshot(row), after: snapshot(after) });
          const status = update.outcome.status;
          if (status !== 'Pending') await this.listeners.settled.get(row.relatedType)?.(tx, { paymentId: row.id, relatedType: row.relatedType, relatedId: row.relatedId, status, failureReason });
        }
      } else if (update?.target === 'refund') {
        const refund = await repo.lockRefundByRef(tx, update.providerRef);
        if (refund && refund.status === 'Pending') {
          const { payment } = await this.applyRefundOutcome(tx, refund.id, update.outcome);
          await recordAudit(inTx(this.deps, tx), context, { action: 'payments.refunded', targetType: 'payment', targetId: payment.id, reason: refund.reason, after: { ...snapshot(payment), refund: { id: refund.id, status: update.outcome.status } } });
        }
      }
      return { received: true as const, duplicate: false, eventId: event.id };
    });
  }
}

/** The provider the configuration selects: the local ledger unless PAYMENT_PROVIDER=stripe. */
export function createPaymentsService(deps: ServiceDeps, config: Config['payments'], listeners: PaymentListeners = emptyListeners()): PaymentsService {
  if (config.provider === 'stripe') {
    const client = stripeClient(config);
    return new PaymentsService(deps, new StripeProvider(client), listeners, { client, webhookSecret: config.stripeWebhookSecret });
  }
  return new PaymentsService(deps, new LocalLedgerProvider(), listeners);
}

/** A payment's final outcome reported by the provider after the charge answered Pending. */
const services = new WeakMap<Registries, PaymentsService>();

/** The payments service of an app (one per app): `paymentsOf(deps).createPayment(…)`. */
export function paymentsOf(deps: { database: Database; config: Pick<Config, 'payments'>; registries: Registries }): PaymentsService {
  let service = services.get(deps.registries);
  if (!service) {
    service = createPaymentsService(serviceDeps(deps), deps.config.payments, deps.registries.of(paymentListeners));
    services.set(deps.registries, service);
  }
  return service;
}
