import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, banUser, createStaff, createUser, grant, MISSING_ID, type Staff, type TestUser } from '../../../test/factories.js';

const DAY = 86_400_000;
let clock = Date.now();
let t: TestApp;
let staff: Staff;
/** A Moderator granted Users.Ban limited to 7 days. */
let limited: TestUser;
/** An Admin explicitly denied Users.Unban. */
let noUnban: TestUser;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  staff = await createStaff(t, 'Users.Ban');
  limited = await createUser(t, { role: 'Moderator' });
  await grant(t, staff.owner, limited, 'Users.Ban', true, { maxBanDays: 7 });
  noUnban = await createUser(t, { role: 'Admin' });
  await grant(t, staff.owner, noUnban, 'Users.Unban', false);
  await grant(t, staff.owner, staff.grantedModerator, 'Users.Unban', true);
  await grant(t, staff.owner, staff.grantedModerator, 'Users.View', true);
});
afterAll(async () => {
  await t?.close();
});

const post = (by: TestUser | undefined, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, ...(by ? { headers: by.headers } : {}) });
const post2 = (app: TestApp, by: TestUser, url: string, payload: object) => app.app.inject({ method: 'POST', url, payload, headers: by.headers });
const get = (by: TestUser | undefined, url: string) => t.app.inject({ method: 'GET', url, ...(by ? { headers: by.headers } : {}) });

describe('banning a user', () => {
  it('needs a token (401)', async () => {
    const target = await createUser(t);
    for (const res of [
      await post(undefined, `/api/admin/users/${target.userId}/bans`, { reason: 'x', durationDays: 1 }),
      await get(undefined, '/api/admin/bans'),
      await get(undefined, '/api/bans/me'),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('auth.token_missing');
    }
  });

  it('Owner, Admin and a granted Moderator may ban; a denied Admin, an ungranted Moderator and a Standard user may not', async () => {
    for (const caller of [staff.owner, staff.admin, staff.grantedModerator]) {
      const target = await createUser(t);
      const res = await post(caller, `/api/admin/users/${target.userId}/bans`, { reason: 'Spam in comments', durationDays: 3 });
      expect(res.statusCode, caller.username).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        userId: target.userId,
        username: target.username,
        reason: 'Spam in comments',
        permanent: false,
        status: 'Active',
        bannedBy: caller.userId,
        bannedByUsername: caller.username,
        liftedAt: null,
        appeal: null,
      });
      expect(Date.parse(body.endsAt) - Date.parse(body.startsAt)).toBe(3 * DAY);
      const [audit] = (await auditEntries(t, 'users.banned')).filter((a) => a.target_id === target.userId);
      expect(audit).toMatchObject({ actor_user_id: caller.userId, reason: 'Spam in comments', after: { banId: body.id, durationDays: 3 } });
    }
    const target = await createUser(t);
    for (const [caller, detail] of [
      [staff.deniedAdmin, 'explicitly denied'],
      [staff.moderator, 'ask the Owner to grant it'],
      [staff.standard, 'only employees'],
    ] as const) {
      const res = await post(caller, `/api/admin/users/${target.userId}/bans`, { reason: 'x', durationDays: 1 });
      expect(res.statusCode, caller.username).toBe(403);
      expect(res.json().code).toBe('access.permission_denied');
      expect(res.json().detail).toContain(detail);
    }
    expect((await get(staff.owner, `/api/admin/bans?userId=${target.userId}`)).json()).toEqual([]);
  });

  it('requires a reason and a duration (null = permanent)', async () => {
    const target = await createUser(t);
    for (const payload of [{ durationDays: 1 }, { reason: '   ', durationDays: 1 }, { reason: 'x' }, { reason: 'x', durationDays: 0 }]) {
      const res = await post(staff.owner, `/api/admin/users/${target.userId}/bans`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('request.validation_failed');
    }
    const res = await post(staff.owner, `/api/admin/users/${target.userId}/bans`, { reason: 'Fraud', durationDays: null });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ permanent: true, endsAt: null, status: 'Active' });
  });

  it('caps the duration at the grant’s maxBanDays (403 saying so)', async () => {
    const target = await createUser(t);
    const tooLong = await post(limited, `/api/admin/users/${target.userId}/bans`, { reason: 'Spam', durationDays: 30 });
    expect(tooLong.statusCode).toBe(403);
    expect(tooLong.json()).toMatchObject({ code: 'bans.duration_over_limit' });
    expect(tooLong.json().detail).toContain('your ban permission is limited to 7 days');
    const permanent = await post(limited, `/api/admin/users/${target.userId}/bans`, { reason: 'Spam', durationDays: null });
    expect(permanent.statusCode).toBe(403);
    expect(permanent.json().detail).toBe('A permanent ban is too long: your ban permission is limited to 7 days. Ban for at most 7 days, or ask the Owner.');
    const ok = await post(limited, `/api/admin/users/${target.userId}/bans`, { reason: 'Spam', durationDays: 7 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().bannedBy).toBe(limited.userId);
  });

  it('never bans the Owner, nor an employee of equal or higher rank', async () => {
    const otherAdmin = await createUser(t, { role: 'Admin' });
    const otherModerator = await createUser(t, { role: 'Moderator' });
    const cases: Array<[TestUser, TestUser, string]> = [
      [staff.admin, staff.owner, 'bans.owner_protected'],
      [staff.owner, staff.owner, 'bans.owner_protected'],
      [staff.admin, otherAdmin, 'bans.rank_protected'],
      [staff.admin, staff.admin, 'bans.rank_protected'],
      [staff.grantedModerator, otherModerator, 'bans.rank_protected'],
      [staff.grantedModerator, otherAdmin, 'bans.rank_protected'],
    ];
    for (const [caller, target, code] of cases) {
      const res = await post(caller, `/api/admin/users/${target.userId}/bans`, { reason: 'x', durationDays: 1 });
      expect(res.statusCode, `${caller.username} → ${target.username}`).toBe(403);
      expect(res.json().code).toBe(code);
    }
    const rank = await post(staff.admin, `/api/admin/users/${otherAdmin.userId}/bans`, { reason: 'x', durationDays: 1 });
    expect(rank.json().detail).toBe('An Admin cannot ban an Admin, an employee of equal or higher rank; ask the Owner.');
    // The Owner bans an Admin, an Admin a Moderator.
    expect((await post(staff.owner, `/api/admin/users/${otherAdmin.userId}/bans`, { reason: 'Abuse of power', durationDays: 1 })).statusCode).toBe(201);
    expect((await post(staff.admin, `/api/admin/users/${otherModerator.userId}/bans`, { reason: 'Abuse of power', durationDays: 1 })).statusCode).toBe(201);
  });

  it('keeps the last Admin who can sign in: banning them is a 409, and a banned Admin does not count for demotions', async () => {
    const own = await createTestApp();
    try {
      const owner = await createUser(own, { role: 'Owner' });
      const admin = await createUser(own, { role: 'Admin' });
      const last = await post2(own, owner, `/api/admin/users/${admin.userId}/bans`, { reason: 'Testing the rule', durationDays: 1 });
      expect(last.statusCode).toBe(409);
      expect(last.json()).toMatchObject({ code: 'users.last_admin', detail: expect.stringContaining('promote another user to Admin first') });
      const second = await createUser(own, { role: 'Admin' });
      expect((await post2(own, owner, `/api/admin/users/${admin.userId}/bans`, { reason: 'Abuse of power', durationDays: 1 })).statusCode).toBe(201);
      // The banned Admin cannot sign in: the other one is now the last.
      const demote = await own.app.inject({
        method: 'PUT',
        url: `/api/admin/employees/${second.userId}/role`,
        headers: owner.headers,
        payload: { role: 'Moderator', reason: 'Reorganisation' },
      });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().code).toBe('users.last_admin');
    } finally {
      await own.close();
    }
  });

  it('404 for an unknown user', async () => {
    const res = await post(staff.owner, `/api/admin/users/${MISSING_ID}/bans`, { reason: 'x', durationDays: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('users.user_not_found');
  });

  it('keeps one ban in force per user: of concurrent bans exactly one wins', async () => {
    const target = await createUser(t);
    const results = await Promise.all(
      [staff.owner, staff.admin, staff.grantedModerator, limited, staff.owner].map((by) => post(by, `/api/admin/users/${target.userId}/bans`, { reason: 'Spam', durationDays: 2 })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const conflict = results.find((r) => r.statusCode === 409)!.json();
    expect(conflict.code).toBe('bans.already_banned');
    expect(conflict.detail).toContain('lift it first');
    expect((await get(staff.owner, `/api/admin/bans?userId=${target.userId}`)).json()).toHaveLength(1);
  });
});

describe('a banned user', () => {
  it('gets 403 auth.banned with the reason and end on every authenticated route but reading and appealing the ban', async () => {
    const angler = await createUser(t);
    expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(200);
    const ban = await banUser(t, staff.admin, angler, { reason: 'Selling fish illegally', durationDays: 5 });
    for (const res of [
      await get(angler, '/api/userprofile/me'),
      await get(angler, '/api/fishinglog/entries'),
      await post(angler, '/api/social/posts', { text: 'hello' }),
      await get(angler, '/api/admin/bans'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code: 'auth.banned', status: 403 });
      expect(res.json().detail).toContain(`banned until ${ban.endsAt}`);
      expect(res.json().detail).toContain('Reason: Selling fish illegally.');
      expect(res.json().detail).toContain(`POST /api/bans/${ban.id}/appeal`);
    }
    const mine = await get(angler, '/api/bans/me');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      current: { id: ban.id, reason: 'Selling fish illegally', endsAt: ban.endsAt, permanent: false, status: 'Active', appeal: null },
      recent: [{ id: ban.id }],
    });
    expect(mine.json().current).not.toHaveProperty('bannedBy');
  });

  it('is free again once the ban ends by itself (injected clock)', async () => {
    const angler = await createUser(t);
    const ban = await banUser(t, staff.owner, angler, { durationDays: 2 });
    expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(403);
    const saved = clock;
    try {
      clock = saved + DAY;
      expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(403);
      clock = saved + 2 * DAY + 1000;
      expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(200);
      expect((await get(angler, '/api/bans/me')).json()).toMatchObject({ current: null, recent: [{ id: ban.id, status: 'Expired' }] });
      const expired = (await get(staff.owner, `/api/admin/bans?status=expired&userId=${angler.userId}`)).json();
      expect(expired).toMatchObject([{ id: ban.id, status: 'Expired' }]);
      expect((await get(staff.owner, `/api/admin/bans?status=active&userId=${angler.userId}`)).json()).toEqual([]);
      // An ended ban cannot be lifted or appealed, and a new ban may be issued.
      expect((await post(staff.owner, `/api/admin/bans/${ban.id}/lift`, { reason: 'x' })).json().code).toBe('bans.ban_not_in_force');
      expect((await post(angler, `/api/bans/${ban.id}/appeal`, { text: 'x' })).json().code).toBe('bans.ban_not_in_force');
      expect((await post(staff.owner, `/api/admin/users/${angler.userId}/bans`, { reason: 'Again', durationDays: 1 })).statusCode).toBe(201);
    } finally {
      clock = saved;
    }
  });

  it('is refused by another server process too (its cached principal is dropped by NOTIFY), and let in again once lifted', async () => {
    const other = await createTestApp({ sameDatabaseAs: t, now: () => clock });
    try {
      const angler = await createUser(t);
      const read = () => other.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: angler.headers });
      expect((await read()).statusCode).toBe(200); // cached there now
      const ban = await banUser(t, staff.owner, angler, { durationDays: 1 });
      const waitFor = async (status: number) => {
        for (let i = 0; i < 100 && (await read()).statusCode !== status; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        return (await read()).statusCode;
      };
      expect(await waitFor(403)).toBe(403);
      expect((await read()).json().code).toBe('auth.banned');
      await post(staff.owner, `/api/admin/bans/${ban.id}/lift`, { reason: 'Mistake' });
      expect(await waitFor(200)).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('a banned employee loses their admin powers too', async () => {
    const moderator = await createUser(t, { role: 'Moderator' });
    await grant(t, staff.owner, moderator, 'Users.Ban', true);
    await banUser(t, staff.owner, moderator, { durationDays: 1 });
    const target = await createUser(t);
    const res = await post(moderator, `/api/admin/users/${target.userId}/bans`, { reason: 'x', durationDays: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.banned');
  });
});

describe('lifting a ban', () => {
  it('Users.Unban lifts a ban in force with a reason; the user is free at once; a second lift is a 409', async () => {
    const angler = await createUser(t);
    const ban = await banUser(t, staff.admin, angler, { durationDays: null });
    expect((await post(noUnban, `/api/admin/bans/${ban.id}/lift`, { reason: 'x' })).json().code).toBe('access.permission_denied');
    expect((await post(staff.moderator, `/api/admin/bans/${ban.id}/lift`, { reason: 'x' })).statusCode).toBe(403);
    expect((await post(staff.standard, `/api/admin/bans/${ban.id}/lift`, { reason: 'x' })).statusCode).toBe(403);
    expect((await post(staff.grantedModerator, `/api/admin/bans/${ban.id}/lift`, {})).statusCode).toBe(400);
    const res = await post(staff.grantedModerator, `/api/admin/bans/${ban.id}/lift`, { reason: 'Wrong account' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ban.id, status: 'Lifted', liftedBy: staff.grantedModerator.userId, liftReason: 'Wrong account' });
    expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(200);
    const again = await post(staff.owner, `/api/admin/bans/${ban.id}/lift`, { reason: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'bans.ban_not_in_force', detail: expect.stringContaining('Lifted') });
    expect((await auditEntries(t, 'users.unbanned')).at(-1)).toMatchObject({ target_id: angler.userId, reason: 'Wrong account', actor_user_id: staff.grantedModerator.userId });
    expect((await post(staff.owner, `/api/admin/bans/${MISSING_ID}/lift`, { reason: 'x' })).statusCode).toBe(404);
  });
});

describe('appeals', () => {
  it('one appeal per ban, by the banned user only (concurrent appeals: one wins)', async () => {
    const angler = await createUser(t);
    const other = await createUser(t);
    const ban = await banUser(t, staff.admin, angler);
    const notMine = await post(other, `/api/bans/${ban.id}/appeal`, { text: 'Let them go' });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().code).toBe('bans.not_yours');
    expect((await post(angler, `/api/bans/${MISSING_ID}/appeal`, { text: 'x' })).statusCode).toBe(404);
    const results = await Promise.all([1, 2, 3, 4].map((i) => post(angler, `/api/bans/${ban.id}/appeal`, { text: `Please, attempt ${i}` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('bans.appeal_exists');
    const created = results.find((r) => r.statusCode === 201)!.json();
    expect(created).toMatchObject({ id: ban.id, status: 'Active', appeal: { status: 'Open', reply: null, decidedAt: null } });
  });

  it('is decided by someone other than the banner; Overturned lifts the ban and the user reads the reply', async () => {
    const angler = await createUser(t);
    const ban = await banUser(t, staff.admin, angler, { durationDays: 30 });
    const appealed = (await post(angler, `/api/bans/${ban.id}/appeal`, { text: 'It was my brother' })).json();
    const list = (await get(staff.grantedModerator, '/api/admin/ban-appeals?status=Open')).json();
    expect(list.find((b: { id: string }) => b.id === ban.id)).toMatchObject({ appeal: { id: appealed.appeal.id, text: 'It was my brother', status: 'Open' } });
    expect((await get(staff.moderator, '/api/admin/ban-appeals')).statusCode).toBe(403);
    expect((await get(angler, '/api/admin/ban-appeals')).json().code).toBe('auth.banned');

    const url = `/api/admin/ban-appeals/${appealed.appeal.id}/decide`;
    const byBanner = await post(staff.admin, url, { decision: 'Overturned', reply: 'ok' });
    expect(byBanner.statusCode).toBe(403);
    expect(byBanner.json()).toMatchObject({ code: 'bans.decider_is_banner', detail: 'You issued this ban, so someone else must decide its appeal.' });
    expect((await post(noUnban, url, { decision: 'Overturned', reply: 'ok' })).json().code).toBe('access.permission_denied');
    expect((await post(staff.owner, url, { decision: 'Overturned' })).statusCode).toBe(400);

    const decisions = await Promise.all([
      post(staff.owner, url, { decision: 'Overturned', reply: 'Thanks for explaining; the ban is lifted.' }),
      post(staff.grantedModerator, url, { decision: 'Upheld', reply: 'No.' }),
    ]);
    expect(decisions.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const won = decisions.find((r) => r.statusCode === 200)!.json();
    expect(decisions.find((r) => r.statusCode === 409)!.json().code).toBe('bans.appeal_decided');
    const mine = (await get(angler, '/api/bans/me')).json();
    if (won.appeal.status === 'Overturned') {
      expect(won).toMatchObject({ status: 'Lifted', appeal: { status: 'Overturned', decidedBy: staff.owner.userId } });
      expect(mine).toMatchObject({ current: null, recent: [{ id: ban.id, status: 'Lifted', appeal: { status: 'Overturned', reply: 'Thanks for explaining; the ban is lifted.' } }] });
      expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(200);
      expect((await auditEntries(t, 'users.ban_appeal_overturned')).at(-1)).toMatchObject({ target_id: angler.userId, reason: 'Thanks for explaining; the ban is lifted.' });
    } else {
      expect(won).toMatchObject({ status: 'Active', appeal: { status: 'Upheld', reply: 'No.' } });
      expect(mine).toMatchObject({ current: { id: ban.id, appeal: { status: 'Upheld', reply: 'No.' } } });
      expect((await get(angler, '/api/userprofile/me')).statusCode).toBe(403);
    }
  });

  it('Upheld keeps the ban', async () => {
    const angler = await createUser(t);
    const ban = await banUser(t, staff.grantedModerator, angler);
    const appealed = (await post(angler, `/api/bans/${ban.id}/appeal`, { text: 'Sorry' })).json();
    const res = await post(staff.admin, `/api/admin/ban-appeals/${appealed.appeal.id}/decide`, { decision: 'Upheld', reply: 'The reports are clear.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Active', appeal: { status: 'Upheld', reply: 'The reports are clear.', decidedBy: staff.admin.userId } });
    expect((await get(angler, '/api/bans/me')).json().current.appeal).toMatchObject({ status: 'Upheld', reply: 'The reports are clear.' });
    expect((await post(staff.admin, `/api/admin/ban-appeals/${MISSING_ID}/decide`, { decision: 'Upheld', reply: 'x' })).statusCode).toBe(404);
  });
});

describe('the ban list', () => {
  it('filters by status, user and banner (Users.View)', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const banA = await banUser(t, staff.grantedModerator, a);
    const banB = await banUser(t, staff.owner, b);
    await post(staff.owner, `/api/admin/bans/${banB.id}/lift`, { reason: 'Done' });
    const byModerator = await get(staff.grantedModerator, `/api/admin/bans?bannedBy=${staff.grantedModerator.userId}&pageSize=100`);
    expect(byModerator.statusCode).toBe(200);
    expect(byModerator.json().map((x: { id: string }) => x.id)).toContain(banA.id);
    expect(byModerator.json().every((x: { bannedBy: string }) => x.bannedBy === staff.grantedModerator.userId)).toBe(true);
    const lifted = (await get(staff.admin, `/api/admin/bans?status=Lifted&userId=${b.userId}`)).json();
    expect(lifted).toMatchObject([{ id: banB.id, status: 'Lifted', liftReason: 'Done' }]);
    expect((await get(staff.admin, `/api/admin/bans?status=active&userId=${b.userId}`)).json()).toEqual([]);
    const page = await get(staff.owner, '/api/admin/bans?pageSize=2');
    expect(page.json()).toHaveLength(2);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThan(2);
    expect((await get(staff.owner, `/api/admin/bans/${banA.id}`)).json()).toMatchObject({ id: banA.id, username: a.username });
    expect((await get(staff.moderator, '/api/admin/bans')).statusCode).toBe(403);
    expect((await get(staff.standard, '/api/admin/bans')).statusCode).toBe(403);
  });
});
