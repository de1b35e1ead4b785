import type { DbOrTx } from '../../core/db/client.js';
import { notify } from '../../core/notifications/outbox.js';
import { registryKey, type Registries } from '../../core/registries.js';
import type { PaymentRow, RefundRow } from './payments.tables.js';

/**
 * What the modules that pay for their records through the payments service register with it, by
 * the type of the record paid for (`related.type`), in their plugin (charters.module.ts,
 * tournaments.module.ts): the payments module never imports the payer's module. Each app has its
 * own (`deps.registries`).
 */
export interface PaymentSettlement {
  paymentId: string;
  relatedType: string;
  relatedId: string;
  status: 'Succeeded' | 'Failed';
  failureReason: string | null;
}
/** Runs in the transaction that records the outcome (so the module's record and the payment agree). */
export type SettlementListener = (tx: DbOrTx, settlement: PaymentSettlement) => Promise<void>;

type RecordPath = (db: DbOrTx, relatedId: string) => string | undefined | Promise<string | undefined>;

export interface PaymentListeners {
  /** Learns of payments settled later (webhooks). */
  settled: Map<string, SettlementListener>;
  /** The API path at which a payer reads the record a payment was for (the refund notification links it). */
  recordPaths: Map<string, RecordPath>;
}

export const emptyListeners = (): PaymentListeners => ({ settled: new Map(), recordPaths: new Map() });
export const paymentListeners = registryKey('payments.listeners', emptyListeners);

export function onPaymentSettled(deps: { registries: Registries }, relatedType: string, listener: SettlementListener): void {
  deps.registries.of(paymentListeners).settled.set(relatedType, listener);
}

export function registerPaymentRecordPath(deps: { registries: Registries }, relatedType: string, pathOf: RecordPath): void {
  deps.registries.of(paymentListeners).recordPaths.set(relatedType, pathOf);
}

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** Tells the payer of a refund (in the refund's transaction): the amount, what it was for, and the record's path. */
export async function notifyRefund(listeners: PaymentListeners, tx: DbOrTx, payment: PaymentRow, refund: RefundRow): Promise<void> {
  const path = await listeners.recordPaths.get(payment.relatedType)?.(tx, payment.relatedId);
  if (!path) return;
  await notify(tx, {
    type: 'payments.refund_issued',
    path,
    payload: { id: refund.id, paymentId: payment.id, amountCents: refund.amountCents, currency: payment.currency, related: { type: payment.relatedType, id: payment.relatedId } },
    recipients: [
      {
        userId: payment.payerId,
        title: 'Refund issued',
        body: `${money(refund.amountCents, payment.currency)} was refunded to you${payment.description ? ` (${payment.description})` : ''}.`,
      },
    ],
  });
}
