import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { banUser, createComment, createEntryWithCatch, createPost, createStaff, createUser, grant, WALLEYE, type Staff, type TestUser, createEvent, createTestPayment, createSpot, createOrganizer, createTournament, register } from '../../../test/factories.js';
import { paymentsOf } from '../payments/payments.service.js';

const DAY = 86_400_000;
let t: TestApp;
let staff: Staff;
let banned: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, 'Users.View');
  banned = await createUser(t, { role: 'Admin' });
  await banUser(t, staff.owner, banned, { reason: 'Compromised account', durationDays: 2 });
});
afterAll(async () => {
  await t?.close();
});

const get = (by: TestUser | undefined, url: string) => t.app.inject({ method: 'GET', url, ...(by ? { headers: by.headers } : {}) });
const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const range = (fromMs: number, toMs: number) => `from=${iso(fromMs)}&to=${iso(toMs)}`;

describe('who may read the dashboard', () => {
  const urls = () => {
    const now = Date.now();
    return [
      '/api/admin/dashboard/overview',
      `/api/admin/dashboard/analytics/user-growth?${range(now - 7 * DAY, now)}`,
      `/api/admin/dashboard/analytics/revenue?${range(now - 7 * DAY, now)}&interval=day`,
      `/api/admin/dashboard/analytics/popular?${range(now - 7 * DAY, now)}`,
    ];
  };

  it('Admin-only (the spec names no permission): Owner and Admin — also an Admin denied Users.View — read; Moderators (granted or not), Standard and banned users do not', async () => {
    for (const url of urls()) {
      expect((await get(undefined, url)).statusCode, url).toBe(401);
      for (const caller of [staff.owner, staff.admin, staff.deniedAdmin]) expect((await get(caller, url)).statusCode, `${caller.username} ${url}`).toBe(200);
      for (const caller of [staff.grantedModerator, staff.moderator, staff.standard]) {
        const res = await get(caller, url);
        expect(res.statusCode, `${caller.username} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.admin_only', detail: expect.stringContaining('Requires the Admin or Owner role') });
      }
      const res = await get(banned, url);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('auth.banned');
    }
  });
});

describe('GET /api/admin/dashboard/overview', () => {
  it('gives totals and last-7/30-day figures from every module', async () => {
    const before = (await get(staff.admin, '/api/admin/dashboard/overview')).json();
    expect(before).toMatchObject({
      generatedAt: expect.any(String),
      users: { total: expect.any(Number), byRole: { Owner: 1, Standard: expect.any(Number) } },
      activeBans: 1,
      pendingModeration: { total: expect.any(Number) },
      payments: { last7Days: expect.any(Array), last30Days: expect.any(Array) },
    });
    const angler = await createUser(t);
    await createEntryWithCatch(t, angler);
    await createPost(t, angler, { text: 'First walleye of the year' });
    await createEvent(t, angler);
    await createOrganizer(t, { status: 'Pending' });
    await banUser(t, staff.admin, angler, { durationDays: 1 });
    const payment = await createTestPayment(t, angler, { amountCents: 12_345 });
    await paymentsOf(t).refund({ paymentId: payment.id, amountCents: 345, reason: 'Partial refund', actor: { actor: { type: 'system' } }, idempotencyKey: randomUUID() });

    const after = (await get(staff.owner, '/api/admin/dashboard/overview')).json();
    expect(after.users.total).toBe(before.users.total + 2); // the angler and the organizer
    expect(after.users.last7Days).toBe(before.users.last7Days + 2);
    expect(after.users.activeLast7Days).toBe(before.users.activeLast7Days + 2);
    expect(after.users.byRole.Standard).toBe(before.users.byRole.Standard + 2);
    expect(after.entries).toEqual({ total: before.entries.total + 1, last7Days: before.entries.last7Days + 1, last30Days: before.entries.last30Days + 1 });
    expect(after.catches.total).toBe(before.catches.total + 1);
    expect(after.posts.last30Days).toBe(before.posts.last30Days + 1);
    expect(after.pending.events).toBe(before.pending.events + 1);
    expect(after.pending.organizerApplications).toBe(before.pending.organizerApplications + 1);
    expect(after.activeBans).toBe(2);
    const usd = (list: Array<{ currency: string; payments: number; netCents: number; refundedCents: number }>) => list.find((r) => r.currency === 'USD') ?? { payments: 0, netCents: 0, refundedCents: 0 };
    expect(usd(after.payments.last7Days).payments).toBe(usd(before.payments.last7Days).payments + 1);
    expect(usd(after.payments.last7Days).netCents).toBe(usd(before.payments.last7Days).netCents + 12_000);
    expect(usd(after.payments.last30Days).refundedCents).toBe(usd(before.payments.last30Days).refundedCents + 345);
  });
});

describe('GET /api/admin/dashboard/analytics/user-growth', () => {
  it('gives every period, zeros included, with new and active users', async () => {
    const now = Date.now();
    const res = await get(staff.admin, `/api/admin/dashboard/analytics/user-growth?${range(now - 10 * DAY, now + 60_000)}&interval=day`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.interval).toBe('Day'); // interval=day, the older spelling, is still accepted
    expect(body.periods).toHaveLength(11);
    const today = new Date(now).toISOString().slice(0, 10);
    expect(body.periods.at(-1).periodStart).toBe(`${today}T00:00:00.000Z`);
    // This file's users were created and signed in within the last two periods (a run may straddle midnight).
    const recent = body.periods.slice(-2);
    expect(recent[0].newUsers + recent[1].newUsers).toBeGreaterThan(5);
    expect(recent[0].activeUsers + recent[1].activeUsers).toBeGreaterThan(5);
    expect(body.periods[0]).toMatchObject({ newUsers: 0, activeUsers: 0 });
    expect(body.totals.newUsers).toBe(body.periods.reduce((n: number, p: { newUsers: number }) => n + p.newUsers, 0));

    const months = (await get(staff.admin, `/api/admin/dashboard/analytics/user-growth?from=2025-01-15T00:00:00Z&to=2025-04-01T00:00:00Z&interval=month`)).json();
    expect(months.periods.map((p: { periodStart: string }) => p.periodStart)).toEqual(['2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']);
    const weeks = (await get(staff.admin, `/api/admin/dashboard/analytics/user-growth?from=2025-01-01T00:00:00Z&to=2025-01-15T00:00:00Z&interval=week`)).json();
    expect(weeks.periods.map((p: { periodStart: string }) => p.periodStart)).toEqual(['2024-12-30T00:00:00.000Z', '2025-01-06T00:00:00.000Z', '2025-01-13T00:00:00.000Z']);
  });

  it('answers the last 30 days when from and to are left out (revenue and popular content too; to alone: the 30 days before it)', async () => {
    for (const path of ['user-growth', 'revenue', 'popular']) {
      const before = Date.now();
      const res = await get(staff.admin, `/api/admin/dashboard/analytics/${path}`);
      expect(res.statusCode, res.body).toBe(200);
      const { from, to } = res.json() as { from: string; to: string };
      expect(Date.parse(to)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(to)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(to) - Date.parse(from)).toBe(30 * DAY);
    }
    const until = await get(staff.admin, '/api/admin/dashboard/analytics/user-growth?to=2025-03-01T00:00:00Z');
    expect(until.json()).toMatchObject({ from: '2025-01-30T00:00:00.000Z', to: '2025-03-01T00:00:00.000Z' });
  });

  it('refuses reversed and too large ranges with a clear 400', async () => {
    const reversed = await get(staff.admin, '/api/admin/dashboard/analytics/user-growth?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 'dashboard.invalid_range', detail: '`from` must be before `to`.' });
    const large = await get(staff.admin, '/api/admin/dashboard/analytics/user-growth?from=2020-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&interval=day');
    expect(large.statusCode).toBe(400);
    expect(large.json().code).toBe('dashboard.range_too_large');
    expect(large.json().detail).toContain('at most 400 per request with interval=Day');
    expect((await get(staff.admin, '/api/admin/dashboard/analytics/user-growth?from=2020-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&interval=month')).statusCode).toBe(200);
    expect((await get(staff.admin, '/api/admin/dashboard/analytics/user-growth?from=nope&to=2025-01-01T00:00:00Z')).json().code).toBe('request.validation_failed');
  });
});

describe('GET /api/admin/dashboard/analytics/revenue', () => {
  it('gives net revenue per period and kind in integer cents, refunds subtracted, zero periods included', async () => {
    const payer = await createUser(t);
    const charter = await createTestPayment(t, payer, { kind: 'CharterDeposit', amountCents: 5_000 });
    await createTestPayment(t, payer, { kind: 'TournamentFee', amountCents: 2_500 });
    await createTestPayment(t, payer, { kind: 'TournamentFee', amountCents: 999, currency: 'CAD' });
    await paymentsOf(t).refund({ paymentId: charter.id, amountCents: 1_000, reason: 'Weather', actor: { actor: { type: 'system' } }, idempotencyKey: randomUUID() });
    const now = Date.now();
    const url = `/api/admin/dashboard/analytics/revenue?${range(now - 2 * DAY, now + 60_000)}&interval=day`;
    const before = await get(staff.admin, url);
    expect(before.statusCode).toBe(200);
    const body = before.json();
    expect(body).toMatchObject({ interval: 'Day', currency: 'USD' });
    expect(body.periods).toHaveLength(3);
    expect(body.periods[0]).toMatchObject({ payments: 0, grossCents: 0, netCents: 0 });
    expect(body.periods[0].byKind.map((k: { kind: string }) => k.kind)).toEqual(['CharterDeposit', 'CharterBalance', 'TournamentFee']);
    type Money = { kind: string; payments: number; grossCents: number; refundedCents: number; netCents: number };
    // Summed over the periods (a run may straddle midnight).
    const kind = (name: string) =>
      body.periods
        .flatMap((p: { byKind: Money[] }) => p.byKind.filter((k) => k.kind === name))
        .reduce((a: Money, k: Money) => ({ kind: name, payments: a.payments + k.payments, grossCents: a.grossCents + k.grossCents, refundedCents: a.refundedCents + k.refundedCents, netCents: a.netCents + k.netCents }));
    expect(kind('CharterDeposit')).toEqual({ kind: 'CharterDeposit', payments: 1, grossCents: 5_000, refundedCents: 1_000, netCents: 4_000 });
    expect(kind('TournamentFee').netCents).toBeGreaterThanOrEqual(2_500);
    for (const p of body.periods) expect(p.netCents).toBe(p.grossCents - p.refundedCents);
    expect(body.totals.netCents).toBe(body.periods.reduce((n: number, p: { netCents: number }) => n + p.netCents, 0));
    const cad = (await get(staff.admin, `${url}&currency=CAD&kind=TournamentFee`)).json();
    expect(cad.totals).toEqual({ payments: 1, grossCents: 999, refundedCents: 0, netCents: 999 });
    expect(cad.periods.every((p: { byKind: Array<{ kind: string }> }) => p.byKind.length === 1 && p.byKind[0]!.kind === 'TournamentFee')).toBe(true);
    const tooLarge = await get(staff.admin, `/api/admin/dashboard/analytics/revenue?from=2010-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&interval=month`);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().detail).toContain('at most 120 per request with interval=Month');
  });
});

describe('GET /api/admin/dashboard/analytics/popular', () => {
  it('lists the most liked and commented posts, most logged species, most active spots and busiest tournaments in the period', async () => {
    const author = await createUser(t);
    const fans = await Promise.all([1, 2, 3].map(() => createUser(t)));
    const post = await createPost(t, author, { text: 'PRIVATE-ISH TEXT of a public post' });
    for (const fan of fans) await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/like`, headers: fan.headers });
    await createComment(t, fans[0]!, post.id);
    for (const fan of fans) await createEntryWithCatch(t, fan, {}, { speciesId: WALLEYE });
    const spot = await createSpot(t, author);
    for (const fan of fans) await t.app.inject({ method: 'POST', url: `/api/spots/${spot.id}/rate`, headers: fan.headers, payload: { stars: 5 } });
    const organizer = await createOrganizer(t);
    const tournament = await createTournament(t, organizer);
    for (const fan of fans) await register(t, fan, tournament.id, tournament.body.divisions[0]!.id);

    const now = Date.now();
    const res = await get(staff.admin, `/api/admin/dashboard/analytics/popular?${range(now - DAY, now + 60_000)}&limit=5`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.mostLikedPosts[0]).toMatchObject({ postId: post.id, authorId: author.userId, authorUsername: author.username, likesInPeriod: 3, likeCount: 3 });
    expect(body.mostCommentedPosts[0]).toMatchObject({ postId: post.id, commentsInPeriod: 1 });
    expect(body.mostLoggedSpecies[0]).toMatchObject({ speciesId: WALLEYE, commonName: 'Walleye' });
    expect(body.mostLoggedSpecies[0].anglers).toBeGreaterThanOrEqual(3);
    expect(body.mostActiveSpots[0]).toMatchObject({ spotId: spot.id, ratings: 3, activity: 3 });
    expect(body.busiestTournaments[0]).toMatchObject({ tournamentId: tournament.id, registrations: 3 });
    expect(body.mostHelpfulFishingReports).toEqual([]);
    expect(res.body).not.toContain('PRIVATE-ISH');

    const earlier = (await get(staff.admin, `/api/admin/dashboard/analytics/popular?${range(now - 10 * DAY, now - 5 * DAY)}`)).json();
    expect(earlier).toMatchObject({ mostLikedPosts: [], mostLoggedSpecies: [], busiestTournaments: [], mostActiveSpots: [] });
    const reversed = await get(staff.admin, `/api/admin/dashboard/analytics/popular?${range(now, now - DAY)}`);
    expect(reversed.json().code).toBe('dashboard.invalid_range');
    expect((await get(staff.admin, `/api/admin/dashboard/analytics/popular?${range(now - 500 * DAY, now)}`)).json().code).toBe('dashboard.range_too_large');
  });
});

// A Moderator's grant does not open the Admin-only dashboard.
it('grants do not open the dashboard to a Moderator', async () => {
  const moderator = await createUser(t, { role: 'Moderator' });
  await grant(t, staff.owner, moderator, 'AuditLogs.View', true);
  expect((await get(moderator, '/api/admin/dashboard/overview')).statusCode).toBe(403);
});
