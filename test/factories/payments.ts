import { randomUUID } from 'node:crypto';
import { paymentsOf, type CreatePaymentInput, type PaymentView } from '../../src/modules/payments/payments.service.js';
import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Typed factories of the payments module. */

export const CARDS = { visa: '4242424242424242', declined: '4000000000000002', insufficientFunds: '4000000000009995' } as const;

/** A payment through the real service (local ledger provider unless the app is configured otherwise). */
export async function createTestPayment(t: TestApp, payer: TestUser, overrides: Partial<CreatePaymentInput> = {}): Promise<PaymentView> {
  return paymentsOf(t).createPayment(
    {
      kind: 'TournamentFee',
      payerId: payer.userId,
      related: { type: 'test_record', id: randomUUID() },
      amountCents: 10_000,
      currency: 'USD',
      paymentMethod: CARDS.visa,
      idempotencyKey: randomUUID(),
      ...overrides,
    },
    { actor: { type: 'user', userId: payer.userId } },
  );
}
