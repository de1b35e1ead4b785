import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, createOrganizer, createTournament } from '../../../test/factories.js';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.js';

/** Entry fees charged through Stripe that Stripe settles later: the webhook reaches the registration. */

const WEBHOOK_SECRET = 'whsec_test_tournament_fees_0123';
let stripe: StripeStandIn;
let t: TestApp;
let organizer: TestUser;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.baseUrl } });
  organizer = await createOrganizer(t);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

function deliver(type: 'payment_intent.succeeded' | 'payment_intent.payment_failed', eventId: string, intentId: string) {
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: intentId, object: 'payment_intent', status: type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method', last_payment_error: type === 'payment_intent.succeeded' ? null : { decline_code: 'insufficient_funds' } } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
}

async function registerPending(user: TestUser, tournamentId: string, divisionId: string) {
  const res = await t.app.inject({ method: 'POST', url: `/api/tournament/${tournamentId}/register`, headers: user.headers, payload: { divisionId, paymentMethod: 'pm_processing' } });
  expect(res.statusCode).toBe(201);
  expect(res.json().fee).toMatchObject({ amountCents: 2500, status: 'Pending', paymentId: expect.any(String) });
  const { rows } = await t.database.pool.query('SELECT provider_ref FROM payments WHERE id = $1', [res.json().fee.paymentId]);
  return { registration: res.json(), intentId: rows[0].provider_ref as string };
}

const registration = async (user: TestUser, tournamentId: string, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/tournament/${tournamentId}/registrations/${id}`, headers: user.headers })).json();

describe('entry fees settled later by Stripe', () => {
  it('a fee Pending at Stripe becomes Paid when the webhook reports the payment succeeded (once per event)', async () => {
    const { id, body } = await createTournament(t, organizer);
    const user = await createUser(t);
    const { registration: reg, intentId } = await registerPending(user, id, body.divisions[0]!.id);
    expect((await deliver('payment_intent.succeeded', 'evt_fee_ok', intentId)).json()).toMatchObject({ received: true, duplicate: false });
    expect((await deliver('payment_intent.succeeded', 'evt_fee_ok', intentId)).json()).toMatchObject({ duplicate: true });
    expect(await registration(user, id, reg.id)).toMatchObject({ status: 'Active', fee: { status: 'Paid', paymentId: reg.fee.paymentId } });
  });

  it('a fee Stripe declines later cancels the registration, which gives its place back', async () => {
    const { id, body } = await createTournament(t, organizer, { overrides: { capacity: 1 } });
    const user = await createUser(t);
    const other = await createUser(t);
    const division = body.divisions[0]!.id;
    const { registration: reg, intentId } = await registerPending(user, id, division);
    const full = await t.app.inject({ method: 'POST', url: `/api/tournament/${id}/register`, headers: other.headers, payload: { divisionId: division, paymentMethod: 'pm_card_visa' } });
    expect(full.json().code).toBe('tournaments.full');
    await deliver('payment_intent.payment_failed', 'evt_fee_declined', intentId);
    expect(await registration(user, id, reg.id)).toMatchObject({ status: 'Cancelled', fee: { status: 'Declined' }, cancelledAt: expect.any(String) });
    const { rows } = await t.database.pool.query('SELECT status, failure_reason FROM payments WHERE id = $1', [reg.fee.paymentId]);
    expect(rows).toEqual([{ status: 'Failed', failure_reason: 'insufficient_funds' }]);
    const now = await t.app.inject({ method: 'POST', url: `/api/tournament/${id}/register`, headers: other.headers, payload: { divisionId: division, paymentMethod: 'pm_card_visa' } });
    expect(now.statusCode).toBe(201);
    expect(now.json().fee).toMatchObject({ status: 'Paid' });
  });
});
