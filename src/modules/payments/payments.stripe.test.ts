import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, type Staff, type TestUser, createTestPayment } from '../../../test/factories.js';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.js';

/** The Stripe adapter against a loopback stand-in of Stripe's API; webhooks signed like Stripe signs them. */

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
let stripe: StripeStandIn;
let t: TestApp;
let staff: Staff;
let payer: TestUser;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.baseUrl } });
  staff = await createStaff(t, 'payments.refund');
  payer = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

function signed(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

const deliver = (event: object, secret?: string) => {
  const { payload, headers } = signed(event, secret);
  return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers, payload });
};

const refundEvent = (id: string, refundRef: string, status: string) => ({
  id,
  object: 'event',
  type: 'refund.updated',
  api_version: '2026-10-28.endive',
  created: Math.floor(Date.now() / 1000),
  data: { object: { id: refundRef, object: 'refund', status, amount: 1 } },
});

describe('Stripe adapter', () => {
  it('charges through a confirmed PaymentIntent with our idempotency key; declines become Failed payments', async () => {
    const key = randomUUID();
    const ok = await createTestPayment(t, payer, { amountCents: 15_000, paymentMethod: 'pm_card_visa', idempotencyKey: key });
    expect(ok).toMatchObject({ status: 'Succeeded', provider: 'stripe', amountCents: 15_000, currency: 'USD' });
    const call = stripe.requests.find((r) => r.path === '/v1/payment_intents' && r.params.get('metadata[paymentId]') === ok.id)!;
    expect(call.idempotencyKey).toBe(`charge-${key}`);
    expect(Object.fromEntries([...call.params].filter(([k]) => ['amount', 'currency', 'payment_method', 'confirm'].includes(k)))).toEqual({
      amount: '15000',
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: 'true',
    });
    const declined = await createTestPayment(t, payer, { paymentMethod: 'pm_card_chargeDeclined' });
    expect(declined).toMatchObject({ status: 'Failed', failureReason: 'generic_decline', provider: 'stripe' });
  });

  it('refunds pending at Stripe settle by a signed webhook, processed once per event id', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 8_000, paymentMethod: 'pm_card_visa' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${payment.id}/refund`,
      headers: { ...staff.admin.headers, 'idempotency-key': randomUUID() },
      payload: { amountCents: 3_000, reason: 'Weather' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ refund: { status: 'Pending', amountCents: 3_000 }, payment: { status: 'Succeeded', refundedCents: 0, refundableCents: 5_000 } });
    const refundRef = (await t.database.pool.query('SELECT provider_ref FROM payment_refunds WHERE id = $1', [res.json().refund.id])).rows[0].provider_ref as string;
    expect(refundRef).toMatch(/^re_/);
    expect(stripe.requests.find((r) => r.path === '/v1/refunds')!.params.get('amount')).toBe('3000');

    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const first = await deliver(refundEvent(eventId, refundRef, 'succeeded'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false, eventId });
    const again = await deliver(refundEvent(eventId, refundRef, 'succeeded'));
    expect(again.json()).toEqual({ received: true, duplicate: true, eventId });
    const after = await t.app.inject({ method: 'GET', url: `/api/admin/payments/${payment.id}`, headers: staff.admin.headers });
    expect(after.json()).toMatchObject({ status: 'PartiallyRefunded', refundedCents: 3_000, refunds: [{ status: 'Succeeded' }] });
    expect((await auditEntries(t, 'payments.refunded')).filter((a) => a.target_id === payment.id)).toHaveLength(2);
  });

  it('releases a failed refund and refuses bad signatures', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 2_000, paymentMethod: 'pm_card_visa' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${payment.id}/refund`,
      headers: { ...staff.admin.headers, 'idempotency-key': randomUUID() },
      payload: { reason: 'all of it' },
    });
    const refundRef = (await t.database.pool.query('SELECT provider_ref FROM payment_refunds WHERE id = $1', [res.json().refund.id])).rows[0].provider_ref as string;
    const forged = await deliver(refundEvent('evt_forged', refundRef, 'failed'), 'whsec_wrong_secret');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('payments.webhook_signature_invalid');
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(refundEvent('evt_x', refundRef, 'failed')) });
    expect(unsigned.statusCode).toBe(400);
    expect((await deliver(refundEvent(`evt_${randomUUID()}`, refundRef, 'failed'))).statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/api/admin/payments/${payment.id}`, headers: staff.admin.headers });
    expect(after.json()).toMatchObject({ status: 'Succeeded', refundableCents: 2_000, refunds: [{ status: 'Failed' }] });
  });
});

describe('webhook endpoint without Stripe', () => {
  it('answers 404 when the server uses the local ledger', async () => {
    const local = await createTestApp();
    try {
      const { payload, headers } = signed(refundEvent('evt_1', 're_1', 'succeeded'));
      const res = await local.app.inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('payments.webhook_disabled');
    } finally {
      await local.close();
    }
  });
});
