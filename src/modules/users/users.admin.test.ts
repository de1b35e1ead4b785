import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { banUser, createStaff, createUser, type Staff, type TestUser } from '../../../test/factories.js';

let t: TestApp;
let staff: Staff;
let banned: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, 'Users.View');
  banned = await createUser(t, { role: 'Admin' });
  await banUser(t, staff.owner, banned, { reason: 'Leaked user data', durationDays: null });
});
afterAll(async () => {
  await t?.close();
});

const get = (by: TestUser | undefined, url: string) => t.app.inject({ method: 'GET', url, ...(by ? { headers: by.headers } : {}) });
const ids = (body: Array<{ id: string }>) => body.map((u) => u.id);

/** The list (one user's details, role and timeline: src/modules/user-details). */
describe('GET /api/admin/users', () => {
  it('lists users with role, status and last sign-in; filters by role, status, created range and a username or e-mail prefix', async () => {
    const zed = await createUser(t, { username: `Zed_Prefix_${Date.now()}` });
    const list = await get(staff.admin, `/api/admin/users?q=zed_prefix`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        id: zed.userId,
        username: zed.username,
        email: zed.email,
        role: 'Standard',
        status: 'Active',
        activeBan: null,
        createdAt: expect.any(String),
        lastSignInAt: expect.any(String),
      },
    ]);
    expect(list.headers['x-total-count']).toBe('1');
    // The e-mail prefix, any case; LIKE wildcards match themselves.
    expect(ids((await get(staff.admin, `/api/admin/users?q=${encodeURIComponent(zed.email.slice(0, 12).toUpperCase())}`)).json())).toContain(zed.userId);
    expect((await get(staff.admin, '/api/admin/users?q=%25')).json()).toEqual([]);

    const bannedRows = (await get(staff.admin, '/api/admin/users?status=Banned&pageSize=100')).json();
    expect(bannedRows.find((u: { id: string }) => u.id === banned.userId)).toMatchObject({ status: 'Banned', role: 'Admin', activeBan: { endsAt: null } });
    expect(ids((await get(staff.admin, '/api/admin/users?status=active&pageSize=100')).json())).not.toContain(banned.userId);

    const gone = await createUser(t);
    await t.database.pool.query('UPDATE idp.users SET enabled = false WHERE sub = $1', [gone.sub]);
    const disabled = (await get(staff.admin, '/api/admin/users?status=disabled&pageSize=100')).json();
    expect(disabled.find((u: { id: string }) => u.id === gone.userId)).toMatchObject({ status: 'Disabled' });
    expect(ids((await get(staff.admin, '/api/admin/users?status=active&pageSize=100')).json())).not.toContain(gone.userId);

    const moderators = (await get(staff.admin, '/api/admin/users?role=Moderator&pageSize=100')).json();
    expect(moderators.every((u: { role: string }) => u.role === 'Moderator')).toBe(true);
    expect(ids(moderators)).toEqual(expect.arrayContaining([staff.moderator.userId, staff.grantedModerator.userId]));

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(staff.admin, `/api/admin/users?createdFrom=${encodeURIComponent(future)}`)).json()).toEqual([]);
    expect(ids((await get(staff.admin, `/api/admin/users?createdTo=${encodeURIComponent(future)}&pageSize=100`)).json())).toContain(zed.userId);
  });

  it('sorts and paginates like the other admin lists', async () => {
    const byName = (await get(staff.owner, '/api/admin/users?sort=username&pageSize=100')).json() as Array<{ username: string }>;
    const names = byName.map((u) => u.username.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const page = await get(staff.owner, '/api/admin/users?pageSize=2&page=2');
    expect(page.json()).toHaveLength(2);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThan(4);
    expect(page.headers.link).toContain('rel="prev"');
    const bad = await get(staff.owner, '/api/admin/users?sort=email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('request.validation_failed');
  });
});
