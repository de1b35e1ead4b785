import { randomUUID } from 'node:crypto';
import type { ProviderName } from './payments.tables.js';

/**
 * The payment provider interface: the payments service records every payment and refund in
 * its own tables and asks a provider to move the money. Two implementations: the local ledger
 * provider (default, no network) and the Stripe adapter (payments.stripe.ts).
 */

export interface ChargeRequest {
  paymentId: string;
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** A card number (local provider, Stripe test numbers) or a provider payment method id (`pm_…`). */
  paymentMethod: string;
  description: string;
  idempotencyKey: string;
}

export interface RefundRequest {
  refundId: string;
  paymentId: string;
  /** The provider's reference of the payment being refunded. */
  paymentRef: string | null;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
}

/** Succeeded/Failed now, or Pending until the provider reports back (webhook). */
export type Outcome = { status: 'Succeeded' | 'Pending'; providerRef: string | null } | { status: 'Failed'; providerRef: string | null; failureReason: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  charge(request: ChargeRequest): Promise<Outcome & { cardLast4?: string | null }>;
  refund(request: RefundRequest): Promise<Outcome>;
}

/**
 * Card outcomes of the local ledger provider, after Stripe's test-mode card numbers
 * (https://docs.stripe.com/testing): 4242 4242 4242 4242 and other valid numbers succeed,
 * these always fail with the given decline reason. Stripe's test payment method ids work too.
 */
export const TEST_CARD_OUTCOMES: Readonly<Record<string, string>> = {
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000009987': 'lost_card',
  '4000000000009979': 'stolen_card',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000119': 'processing_error',
  pm_card_chargeDeclined: 'card_declined',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclinedExpiredCard: 'expired_card',
};

const TEST_PAYMENT_METHODS: Readonly<Record<string, string>> = { pm_card_visa: '4242', pm_card_mastercard: '4444' };

/** Luhn checksum of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** The local ledger provider: the money "moves" in the ledger rows only; outcomes follow test card numbers. */
export class LocalLedgerProvider implements PaymentProvider {
  readonly name = 'local' as const;

  async charge(request: ChargeRequest) {
    const method = request.paymentMethod.replace(/[\s-]/g, '');
    const providerRef = `local_ch_${randomUUID()}`;
    const declined = TEST_CARD_OUTCOMES[method];
    const last4 = /^\d+$/.test(method) ? method.slice(-4) : (TEST_PAYMENT_METHODS[method] ?? null);
    if (declined) return { status: 'Failed' as const, providerRef, failureReason: declined, cardLast4: last4 };
    if (/^\d+$/.test(method) ? !luhnValid(method) : !(method in TEST_PAYMENT_METHODS)) {
      return { status: 'Failed' as const, providerRef, failureReason: 'incorrect_number', cardLast4: last4 };
    }
    return { status: 'Succeeded' as const, providerRef, cardLast4: last4 };
  }

  async refund(_request: RefundRequest): Promise<Outcome> {
    return { status: 'Succeeded', providerRef: `local_re_${randomUUID()}` };
  }
}
