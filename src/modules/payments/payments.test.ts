import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, type Staff, type TestUser, CARDS, createTestPayment } from '../../../test/factories.js';
import { AppError } from '../../core/http/problem.js';
import { luhnValid } from './payments.provider.js';
import { paymentsOf } from './payments.service.js';
import { IDEMPOTENCY_TTL_MS, idempotent, purgeExpiredIdempotencyKeys } from './payments.idempotency.js';

let t: TestApp;
let staff: Staff;
let payer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, 'payments.refund', { otherPermission: 'Brands.Manage' });
  payer = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const refund = (id: string, user: TestUser | null, payload: unknown, key: string | null = randomUUID()) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/payments/${id}/refund`,
    headers: { ...(user ? user.headers : {}), ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });
const get = (url: string, user: TestUser | null) => t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });

describe('local ledger provider', () => {
  it('charges test cards the way Stripe test mode does', async () => {
    const ok = await createTestPayment(t, payer, { amountCents: 12_345, currency: 'usd', kind: 'CharterDeposit', description: 'Deposit' });
    expect(ok).toMatchObject({
      kind: 'CharterDeposit',
      status: 'Succeeded',
      failureReason: null,
      amountCents: 12_345,
      currency: 'USD',
      refundedCents: 0,
      refundableCents: 12_345,
      payerId: payer.userId,
      provider: 'local',
      cardLast4: '4242',
      description: 'Deposit',
      refunds: [],
    });
    const declined = await createTestPayment(t, payer, { paymentMethod: CARDS.declined });
    expect(declined).toMatchObject({ status: 'Failed', failureReason: 'card_declined', cardLast4: '0002', refundableCents: 0 });
    expect((await createTestPayment(t, payer, { paymentMethod: CARDS.insufficientFunds })).failureReason).toBe('insufficient_funds');
    expect((await createTestPayment(t, payer, { paymentMethod: '4242424242424241' })).failureReason).toBe('incorrect_number');
    expect((await createTestPayment(t, payer, { paymentMethod: 'pm_card_visa' })).status).toBe('Succeeded');
    expect(luhnValid('4000056655665556')).toBe(true);
    const stored = await t.database.pool.query('SELECT card_last4, status FROM payments WHERE id = $1', [ok.id]);
    expect(stored.rows[0]).toEqual({ card_last4: '4242', status: 'Succeeded' });
    expect(await auditEntries(t, 'payments.charged')).toEqual(expect.arrayContaining([expect.objectContaining({ target_id: ok.id, actor_user_id: payer.userId })]));
  });

  it('refuses amounts that are not positive integers of cents and unknown currency shapes', async () => {
    await expect(createTestPayment(t, payer, { amountCents: 12.5 })).rejects.toMatchObject({ status: 400, code: 'payments.invalid_amount' });
    await expect(createTestPayment(t, payer, { amountCents: 0 })).rejects.toMatchObject({ status: 400, code: 'payments.invalid_amount' });
    await expect(createTestPayment(t, payer, { currency: 'US' })).rejects.toMatchObject({ status: 400, code: 'payments.invalid_currency' });
  });
});

describe('idempotency keys', () => {
  it('returns the first payment for the same key and input, 422 for another input', async () => {
    const key = randomUUID();
    const related = { type: 'test_record', id: randomUUID() };
    const first = await createTestPayment(t, payer, { idempotencyKey: key, related });
    const again = await createTestPayment(t, payer, { idempotencyKey: key, related });
    expect(again).toEqual(first);
    const count = await t.database.pool.query('SELECT count(*)::int AS n FROM payments WHERE related_id = $1', [related.id]);
    expect(count.rows[0].n).toBe(1);
    const other = createTestPayment(t, payer, { idempotencyKey: key, related, amountCents: 1 });
    await expect(other).rejects.toBeInstanceOf(AppError);
    await expect(createTestPayment(t, payer, { idempotencyKey: key, related, amountCents: 1 })).rejects.toMatchObject({ status: 422, code: 'idempotency.key_reused' });
  });

  it('keeps a key 24 hours, replays client errors, and forgets it after expiry', async () => {
    const db = t.database.db;
    const start = new Date('2026-01-01T00:00:00Z');
    let runs = 0;
    const fail = () => {
      runs++;
      throw new AppError(409, 'test.conflict', 'no');
    };
    const options = { scope: 'test:ttl', key: 'k-1', request: { a: 1 } };
    await expect(idempotent(db, { ...options, now: () => start }, async () => fail())).rejects.toMatchObject({ status: 409 });
    const nearlyADay = new Date(start.getTime() + IDEMPOTENCY_TTL_MS - 1000);
    await expect(idempotent(db, { ...options, now: () => nearlyADay }, async () => fail())).rejects.toMatchObject({ status: 409, code: 'test.conflict' });
    expect(runs).toBe(1);
    const later = new Date(start.getTime() + IDEMPOTENCY_TTL_MS + 1000);
    expect(await idempotent(db, { ...options, now: () => later }, async () => ({ ok: ++runs }))).toEqual({ ok: 2 });
    expect(await purgeExpiredIdempotencyKeys(db, new Date(later.getTime() + IDEMPOTENCY_TTL_MS + 1000))).toBeGreaterThanOrEqual(1);
    await expect(idempotent(db, { scope: 'test:ttl', key: undefined, request: {} }, async () => 1)).rejects.toMatchObject({ status: 400, code: 'idempotency.key_required' });
  });
});

describe('GET /api/admin/payments and /failed', () => {
  it('lists payments with filters, newest first, paginated', async () => {
    const someone = await createUser(t);
    const a = await createTestPayment(t, someone, { amountCents: 5_000, kind: 'CharterDeposit' });
    const b = await createTestPayment(t, someone, { amountCents: 90_000, kind: 'TournamentFee' });
    const c = await createTestPayment(t, someone, { amountCents: 7_000, kind: 'CharterDeposit', paymentMethod: CARDS.declined });
    const mine = await get(`/api/admin/payments?userId=${someone.userId}`, staff.admin);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['x-total-count']).toBe('3');
    expect(mine.json().map((p: { id: string }) => p.id)).toEqual([c.id, b.id, a.id]);
    expect(mine.json()[2]).toEqual(a);
    const deposits = (await get(`/api/admin/payments?userId=${someone.userId}&kind=CharterDeposit&status=Succeeded`, staff.admin)).json();
    expect(deposits.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const big = (await get(`/api/admin/payments?userId=${someone.userId}&minAmountCents=6000&maxAmountCents=100000`, staff.owner)).json();
    expect(big.map((p: { id: string }) => p.id)).toEqual([c.id, b.id]);
    const future = (await get(`/api/admin/payments?userId=${someone.userId}&from=2099-01-01T00:00:00Z`, staff.admin)).json();
    expect(future).toEqual([]);
    const paged = await get(`/api/admin/payments?userId=${someone.userId}&pageSize=2&page=2`, staff.admin);
    expect(paged.json().map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect(paged.headers.link).toContain('rel="prev"');
    const failed = await get(`/api/admin/payments/failed?userId=${someone.userId}`, staff.admin);
    expect(failed.json()).toEqual([expect.objectContaining({ id: c.id, status: 'Failed', failureReason: 'card_declined' })]);
    expect((await get(`/api/admin/payments/${b.id}`, staff.admin)).json()).toEqual(b);
    const missing = await get(`/api/admin/payments/${MISSING_ID}`, staff.admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('payments.not_found');
    expect((await get('/api/admin/payments?status=Lost', staff.admin)).statusCode).toBe(400);
  });

  it('is for Admins and the Owner only', async () => {
    for (const url of ['/api/admin/payments', '/api/admin/payments/failed', `/api/admin/payments/${MISSING_ID}`, '/api/admin/payments/revenue?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z']) {
      expect((await get(url, null)).statusCode).toBe(401);
      for (const user of [staff.standard, staff.moderator, staff.grantedModerator]) {
        const res = await get(url, user);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code).toBe('access.admin_only');
      }
    }
    // A refund permission denied does not hide the list from an Admin.
    expect((await get('/api/admin/payments', staff.deniedAdmin)).statusCode).toBe(200);
  });
});

describe('POST /api/admin/payments/{id}/refund', () => {
  it('needs payments.refund: the Owner, an Admin and a granted Moderator may; others are refused', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 10_000 });
    expect((await refund(payment.id, null, { amountCents: 100, reason: 'test' })).statusCode).toBe(401);
    for (const user of [staff.standard, staff.moderator, staff.deniedAdmin, payer]) {
      const res = await refund(payment.id, user, { amountCents: 100, reason: 'test' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('payments.refund') });
    }
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const res = await refund(payment.id, user, { amountCents: 100, reason: 'goodwill' });
      expect(res.statusCode).toBe(200);
      expect(res.json().refund).toMatchObject({ amountCents: 100, status: 'Succeeded', reason: 'goodwill', actor: { type: 'User', userId: user.userId } });
    }
    expect((await t.database.pool.query('SELECT refunded_cents FROM payments WHERE id = $1', [payment.id])).rows[0].refunded_cents).toBe(300);
  });

  it('refunds partially then fully, with reason, actor and audit; never above the amount', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 10_000 });
    const partial = await refund(payment.id, staff.admin, { amountCents: 2_500, reason: 'Trip shortened by weather' });
    expect(partial.statusCode).toBe(200);
    const body = partial.json();
    expect(body.payment).toMatchObject({ id: payment.id, status: 'PartiallyRefunded', refundedCents: 2_500, refundableCents: 7_500 });
    expect(body.payment.refunds).toEqual([body.refund]);
    expect(body.refund).toMatchObject({ paymentId: payment.id, amountCents: 2_500, status: 'Succeeded', failureReason: null, reason: 'Trip shortened by weather' });
    const audit = (await auditEntries(t, 'payments.refunded')).at(-1)!;
    expect(audit).toMatchObject({ target_type: 'payment', target_id: payment.id, reason: 'Trip shortened by weather', actor_user_id: staff.admin.userId });
    expect(audit.after).toMatchObject({ status: 'PartiallyRefunded', refundedCents: 2_500 });
    const tooMuch = await refund(payment.id, staff.admin, { amountCents: 7_501, reason: 'oops' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toMatchObject({ code: 'payments.refund_exceeds_amount', detail: expect.stringContaining('7500') });
    const rest = await refund(payment.id, staff.admin, { reason: 'Canceled by captain' });
    expect(rest.json()).toMatchObject({ refund: { amountCents: 7_500 }, payment: { status: 'Refunded', refundedCents: 10_000, refundableCents: 0 } });
    const again = await refund(payment.id, staff.admin, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('payments.not_refundable');
  });

  it('validates the request: reason required, Idempotency-Key required, 404, failed payments', async () => {
    const payment = await createTestPayment(t, payer);
    const noReason = await refund(payment.id, staff.admin, { amountCents: 100 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ pointer: '/reason', in: 'body', detail: 'is required' }]);
    const noKey = await refund(payment.id, staff.admin, { amountCents: 100, reason: 'x'.repeat(5) }, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().code).toBe('idempotency.key_required');
    expect((await refund(payment.id, staff.admin, { amountCents: -5, reason: 'negative' })).statusCode).toBe(400);
    const missing = await refund(MISSING_ID, staff.admin, { reason: 'missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('payments.not_found');
    const failed = await createTestPayment(t, payer, { paymentMethod: CARDS.declined });
    const res = await refund(failed.id, staff.admin, { reason: 'nothing to refund' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'payments.not_refundable', detail: expect.stringContaining('Failed') });
  });

  it('answers a retry with the same key with the first result, another body with 422', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 5_000 });
    const key = randomUUID();
    const first = await refund(payment.id, staff.admin, { amountCents: 1_000, reason: 'retry me' }, key);
    const second = await refund(payment.id, staff.admin, { reason: 'retry me', amountCents: 1_000 }, key);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const rows = await t.database.pool.query('SELECT count(*)::int AS n FROM payment_refunds WHERE payment_id = $1', [payment.id]);
    expect(rows.rows[0].n).toBe(1);
    const changed = await refund(payment.id, staff.admin, { amountCents: 2_000, reason: 'retry me' }, key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json().code).toBe('idempotency.key_reused');
  });

  it('holds the total under 20 concurrent refunds (database trigger and CHECK)', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 10_000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(payment.id, staff.admin, { amountCents: 3_000, reason: 'concurrent' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(17);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(['payments.refund_exceeds_amount', 'payments.not_refundable']).toContain(r.json().code);
    const sums = await t.database.pool.query(
      "SELECT p.amount_cents, p.refunded_cents, p.status, (SELECT sum(amount_cents)::int FROM payment_refunds r WHERE r.payment_id = p.id AND r.status <> 'Failed') AS total FROM payments p WHERE id = $1",
      [payment.id],
    );
    expect(sums.rows[0]).toEqual({ amount_cents: 10_000, refunded_cents: 9_000, status: 'PartiallyRefunded', total: 9_000 });
  });

  it('refuses an over-refund written straight to the database', async () => {
    const payment = await createTestPayment(t, payer, { amountCents: 1_000 });
    const insert = (amount: number) =>
      t.database.pool.query("INSERT INTO payment_refunds (id, payment_id, amount_cents, reason, actor_type, status) VALUES (gen_random_uuid(), $1, $2, 'sql', 'system', 'Succeeded')", [
        payment.id,
        amount,
      ]);
    await insert(600);
    await expect(insert(401)).rejects.toMatchObject({ constraint: 'payments_refunds_within_amount' });
    await expect(t.database.pool.query('DELETE FROM payment_refunds WHERE payment_id = $1', [payment.id])).rejects.toThrow(/cannot be deleted/);
    await expect(t.database.pool.query('DELETE FROM payments WHERE id = $1', [payment.id])).rejects.toThrow(/cannot be deleted/);
  });
});

describe('revenue', () => {
  it('sums succeeded payments per period and kind, net of refunds', async () => {
    const user = await createUser(t);
    const a = await createTestPayment(t, user, { amountCents: 4_000, kind: 'TournamentFee', currency: 'EUR' });
    await createTestPayment(t, user, { amountCents: 6_000, kind: 'TournamentFee', currency: 'EUR' });
    await createTestPayment(t, user, { amountCents: 9_999, kind: 'TournamentFee', currency: 'EUR', paymentMethod: CARDS.declined });
    await paymentsOf(t).refund({ paymentId: a.id, amountCents: 1_000, reason: 'partial', actor: { actor: { type: 'system' } }, idempotencyKey: randomUUID() });
    const from = new Date(Date.now() - 86_400_000);
    const to = new Date(Date.now() + 86_400_000);
    const rows = await paymentsOf(t).revenueByPeriod(from, to, 'month', 'TournamentFee');
    expect(rows.find((r) => r.currency === 'EUR')).toMatchObject({ kind: 'TournamentFee', payments: 2, grossCents: 10_000, refundedCents: 1_000, netCents: 9_000 });
    const res = await get(`/api/admin/payments/revenue?from=${from.toISOString()}&to=${to.toISOString()}&interval=day&kind=TournamentFee`, staff.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().filter((r: { currency: string }) => r.currency === 'EUR').reduce((s: number, r: { netCents: number }) => s + r.netCents, 0)).toBe(9_000);
    // Without from and to: the last 30 days (these payments were made just now).
    const recent = await get('/api/admin/payments/revenue?interval=day&kind=TournamentFee', staff.admin);
    expect(recent.statusCode).toBe(200);
    expect(recent.json().filter((r: { currency: string }) => r.currency === 'EUR').reduce((s: number, r: { netCents: number }) => s + r.netCents, 0)).toBe(9_000);
    const longAgo = await get('/api/admin/payments/revenue?to=2020-01-01T00:00:00Z&kind=TournamentFee', staff.admin);
    expect(longAgo.json()).toEqual([]);
  });
});
