import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  auditEntries,
  banUser,
  createComment,
  createEntryWithCatch,
  createPost,
  createStaff,
  createUser,
  grant,
  login,
  MISSING_ID,
  type Staff,
  type TestUser,
} from '../../../test/factories.js';

let t: TestApp;
let staff: Staff;
let banned: TestUser;
/** An Admin denied Users.ChangeRole (Users.View is denied to staff.deniedAdmin). */
let noRoleAdmin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, 'Users.View');
  noRoleAdmin = await createUser(t, { role: 'Admin' });
  await grant(t, staff.owner, noRoleAdmin, 'Users.ChangeRole', false);
  await grant(t, staff.owner, staff.grantedModerator, 'Users.ChangeRole', true);
  banned = await createUser(t, { role: 'Admin' });
  await banUser(t, staff.owner, banned, { reason: 'Leaked user data', durationDays: null });
});
afterAll(async () => {
  await t?.close();
});

const get = (by: TestUser | undefined, url: string) => t.app.inject({ method: 'GET', url, ...(by ? { headers: by.headers } : {}) });
const put = (by: TestUser, url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: by.headers, payload });

describe('who may read the user administration', () => {
  it('Owner, Admin and a granted Moderator read; a denied Admin, a Moderator without the grant, a Standard and a banned user do not', async () => {
    const target = staff.standard;
    for (const url of ['/api/admin/users', `/api/admin/users/${target.userId}`, `/api/admin/users/${target.userId}/activity-timeline`]) {
      expect((await get(undefined, url)).statusCode, url).toBe(401);
      for (const caller of [staff.owner, staff.admin, staff.grantedModerator]) expect((await get(caller, url)).statusCode, `${caller.username} ${url}`).toBe(200);
      for (const caller of [staff.deniedAdmin, staff.moderator, staff.standard]) {
        const res = await get(caller, url);
        expect(res.statusCode, `${caller.username} ${url}`).toBe(403);
        expect(res.json().code).toBe('access.permission_denied');
      }
      const res = await get(banned, url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'auth.banned', detail: expect.stringContaining('Leaked user data') });
    }
  });
});

describe('GET /api/admin/users/{id} and the activity timeline', () => {
  it('gives the profile, counts from the owning modules, bans and last sign-in; the timeline lists what the user did, newest first, without private text', async () => {
    const angler = await createUser(t);
    const reporter = await createUser(t);
    await createEntryWithCatch(t, angler, { title: 'Evening on Leech Lake' });
    const post = await createPost(t, angler, { text: 'SECRET-POST-TEXT about my spot', visibility: 'Friends' });
    await createComment(t, angler, post.id, 'SECRET-COMMENT-TEXT');
    const report = await t.app.inject({ method: 'POST', url: `/api/social/users/${angler.userId}/report`, headers: reporter.headers, payload: { reason: 'Spam' } });
    expect(report.statusCode).toBe(201);
    await login(t, angler.username, angler.password);
    await banUser(t, staff.admin, angler, { reason: 'Spamming', durationDays: 3 });
    await put(staff.owner, `/api/admin/users/${angler.userId}/role`, { role: 'Researcher', reason: 'University project' });

    const res = await get(staff.grantedModerator, `/api/admin/users/${angler.userId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: angler.userId,
      username: angler.username,
      email: angler.email,
      role: 'Researcher',
      status: 'Banned',
      lastSignInAt: expect.any(String),
      profile: { displayName: null, visibility: 'Public' },
      counts: { entries: 1, catches: 1, posts: 1, comments: 1, reportsAgainst: 1, openReportsAgainst: 1, reportsFiled: 0, bans: 1, signIns: 2 },
      bans: [{ reason: 'Spamming', status: 'Active', bannedBy: staff.admin.userId }],
    });

    const timeline = await get(staff.admin, `/api/admin/users/${angler.userId}/activity-timeline?pageSize=100`);
    expect(timeline.statusCode).toBe(200);
    const items = timeline.json() as Array<{ at: string; kind: string; title: string | null; detail: string | null }>;
    expect(items.map((i) => i.kind).sort()).toEqual(['Ban', 'Catch', 'Comment', 'Entry', 'Post', 'RoleChange', 'SignIn', 'SignIn'].sort());
    expect(items.map((i) => Date.parse(i.at))).toEqual(items.map((i) => Date.parse(i.at)).sort((a, b) => b - a));
    expect(items.find((i) => i.kind === 'Entry')).toMatchObject({ title: 'Evening on Leech Lake' });
    expect(items.find((i) => i.kind === 'RoleChange')).toMatchObject({ title: 'University project', detail: 'Standard → Researcher' });
    expect(items.find((i) => i.kind === 'Ban')).toMatchObject({ title: 'Spamming', detail: expect.stringMatching(/^until /) });
    expect(timeline.body).not.toContain('SECRET');
    expect(timeline.headers['x-total-count']).toBe('8');

    const page = await get(staff.admin, `/api/admin/users/${angler.userId}/activity-timeline?pageSize=3&page=2`);
    expect(page.json()).toEqual(items.slice(3, 6));
    // The reporter's timeline shows the report they filed.
    const filed = (await get(staff.admin, `/api/admin/users/${reporter.userId}/activity-timeline`)).json();
    expect(filed.find((i: { kind: string }) => i.kind === 'Report')).toMatchObject({ detail: `Spam about user ${angler.userId}` });
  });

  it('404 for an unknown user', async () => {
    for (const url of [`/api/admin/users/${MISSING_ID}`, `/api/admin/users/${MISSING_ID}/activity-timeline`]) {
      const res = await get(staff.owner, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('users.user_not_found');
    }
  });
});

describe('PUT /api/admin/users/{id}/role', () => {
  it('Users.ChangeRole changes roles outside the employee ladder, with a reason, audit-logged', async () => {
    const angler = await createUser(t);
    const res = await put(staff.admin, `/api/admin/users/${angler.userId}/role`, { role: 'DNR', reason: 'State agency account' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: angler.userId, role: 'DNR', status: 'Active' });
    expect((await auditEntries(t, 'users.role_changed')).at(-1)).toMatchObject({
      actor_user_id: staff.admin.userId,
      target_id: angler.userId,
      reason: 'State agency account',
      before: { role: 'Standard' },
      after: { role: 'DNR' },
    });
    // The new role applies at once.
    expect((await get(angler, '/api/userprofile/me')).json().role).toBe('DNR');
    expect((await put(staff.grantedModerator, `/api/admin/users/${angler.userId}/role`, { role: 'Standard', reason: 'Agency left' })).json().role).toBe('Standard');
    const missing = await put(staff.admin, `/api/admin/users/${angler.userId}/role`, { role: 'DNR' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('request.validation_failed');
  });

  it('refuses a denied Admin, a Moderator without the grant, a Standard and a banned user', async () => {
    const angler = await createUser(t);
    for (const [caller, code] of [
      [noRoleAdmin, 'access.permission_denied'],
      [staff.moderator, 'access.permission_denied'],
      [staff.standard, 'access.permission_denied'],
      [banned, 'auth.banned'],
    ] as const) {
      const res = await put(caller, `/api/admin/users/${angler.userId}/role`, { role: 'DNR', reason: 'x' });
      expect(res.statusCode, caller.username).toBe(403);
      expect(res.json().code).toBe(code);
    }
    expect((await get(staff.owner, `/api/admin/users/${angler.userId}`)).json().role).toBe('Standard');
  });

  it('employee roles go through the Owner-only employee rules; the Owner role is never given nor taken', async () => {
    const angler = await createUser(t);
    const toModerator = await put(staff.admin, `/api/admin/users/${angler.userId}/role`, { role: 'Moderator', reason: 'Helpful' });
    expect(toModerator.statusCode).toBe(403);
    expect(toModerator.json().code).toBe('users.employee_role_owner_only');
    const fromModerator = await put(staff.admin, `/api/admin/users/${staff.moderator.userId}/role`, { role: 'Standard', reason: 'x' });
    expect(fromModerator.json().code).toBe('users.employee_role_owner_only');

    const byOwner = await put(staff.owner, `/api/admin/users/${angler.userId}/role`, { role: 'Moderator', reason: 'Helpful in the forums' });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().role).toBe('Moderator');
    expect((await auditEntries(t, 'employees.role_changed')).at(-1)).toMatchObject({ target_id: angler.userId, reason: 'Helpful in the forums', after: { role: 'Moderator' } });

    const toOwner = await put(staff.owner, `/api/admin/users/${angler.userId}/role`, { role: 'Owner', reason: 'x' });
    expect(toOwner.statusCode).toBe(403);
    expect(toOwner.json().code).toBe('users.owner_role_not_granted');
    const ownersRole = await put(staff.owner, `/api/admin/users/${staff.owner.userId}/role`, { role: 'Admin', reason: 'x' });
    expect(ownersRole.statusCode).toBe(409);
    expect(ownersRole.json().code).toBe('users.owner_role_protected');
    expect((await put(staff.owner, `/api/admin/users/${MISSING_ID}/role`, { role: 'DNR', reason: 'x' })).statusCode).toBe(404);
  });

  it('keeps the last Admin who can sign in (concurrent demotions: one is refused)', async () => {
    const { rows } = await t.database.pool.query<{ id: string }>('SELECT id FROM users WHERE role = 3 AND id <> ALL($1)', [[staff.admin.userId, noRoleAdmin.userId]]);
    await t.database.pool.query('UPDATE users SET is_active = false WHERE id = ANY($1)', [rows.map((r) => r.id)]);
    const results = await Promise.all(
      [staff.admin, noRoleAdmin].map((admin) => put(staff.owner, `/api/admin/users/${admin.userId}/role`, { role: 'Standard', reason: 'Reorganisation' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('users.last_admin');
  });
});
