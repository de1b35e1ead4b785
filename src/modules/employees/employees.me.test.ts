import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, grant, type TestUser } from '../../../test/factories.js';

/** GET /api/admin/me: the caller's role and effective permissions, as the access resolver decides them. */

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let moderator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { role: 'Owner', username: 'me_owner' });
  admin = await createUser(t, { role: 'Admin', username: 'me_admin' });
  moderator = await createUser(t, { role: 'Moderator', username: 'me_mod' });
  standard = await createUser(t, { username: 'me_std' });
  await grant(t, owner, moderator, 'Content.Approve', true);
  await grant(t, owner, moderator, 'Users.Ban', true, { maxBanDays: 7 });
  await grant(t, owner, admin, 'Users.Ban', false);
});
afterAll(async () => {
  await t?.close();
});

const me = (user?: TestUser) => t.app.inject({ method: 'GET', url: '/api/admin/me', ...(user ? { headers: user.headers } : {}) });

describe('GET /api/admin/me', () => {
  it('needs a token (401)', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
  });

  it('tells a Moderator only what was granted, aliases included, with the restrictions of the grant', async () => {
    const res = await me(moderator);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: moderator.userId,
      username: 'me_mod',
      role: 'Moderator',
      staff: true,
      admin: false,
      owner: false,
      permissions: ['Content.Approve', 'Users.Ban', 'moderation.approve'],
      restrictions: { 'Users.Ban': { maxBanDays: 7 } },
    });
  });

  it('tells an Admin every permission but those needing a grant, the Owner-only ones and an explicit denial', async () => {
    const body = (await me(admin)).json();
    expect(body).toMatchObject({ role: 'Admin', staff: true, admin: true, owner: false, restrictions: {} });
    expect(body.permissions).toContain('Content.Moderate');
    expect(body.permissions).toContain('AuditLogs.View');
    for (const missing of ['Users.Ban', 'Settings.Modify', 'Permissions.Manage', 'Employees.Manage', 'Settings.Delete']) expect(body.permissions).not.toContain(missing);
  });

  it('tells the Owner everything', async () => {
    const body = (await me(owner)).json();
    expect(body).toMatchObject({ role: 'Owner', staff: true, admin: true, owner: true });
    expect(body.permissions).toContain('Permissions.Manage');
    expect(body.permissions).toHaveLength(38);
  });

  it('tells a Standard user they are not staff and hold nothing', async () => {
    const res = await me(standard);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userId: standard.userId, username: 'me_std', role: 'Standard', staff: false, admin: false, owner: false, permissions: [], restrictions: {} });
  });

  it('agrees with the routes: what it lists is admitted, what it leaves out is refused', async () => {
    expect((await me(moderator)).json().permissions).toContain('Content.Approve');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/moderation/pending', headers: moderator.headers })).statusCode).toBe(200);
    expect((await me(moderator)).json().permissions).not.toContain('AuditLogs.View');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: moderator.headers })).statusCode).toBe(403);
  });
});
