import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, auditCount, lastAudit } from '../../../test/factories.js';

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let admin2: TestUser;
let moderator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    configure(app) {
      app.get('/test/admin-probe', { config: { access: 'admin' }, schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async () => ({ ok: true }));
    },
  });
  owner = await createUser(t, { role: 'Owner', username: 'owner_olga' });
  admin = await createUser(t, { role: 'Admin', username: 'admin_adam' });
  admin2 = await createUser(t, { role: 'Admin', username: 'admin_abe' });
  moderator = await createUser(t, { role: 'Moderator', username: 'mod_mia' });
  standard = await createUser(t, { username: 'std_sam' });
});
afterAll(async () => {
  await t?.close();
});


async function expectOneAuditEntry<T>(fn: () => Promise<T>): Promise<T> {
  const before = await auditCount(t);
  const result = await fn();
  expect(await auditCount(t)).toBe(before + 1);
  return result;
}

describe('who may manage employees', () => {
  const endpoints = () => [
    { method: 'GET' as const, url: '/api/admin/employees' },
    { method: 'PUT' as const, url: `/api/admin/employees/${standard.userId}/role`, payload: { role: 'Moderator' } },
    { method: 'POST' as const, url: `/api/admin/employees/${moderator.userId}/permissions`, payload: { permission: 'Users.Ban', isGranted: true } },
    { method: 'GET' as const, url: `/api/admin/employees/${moderator.userId}/permissions/history` },
  ];

  it('needs a token (401)', async () => {
    for (const endpoint of endpoints()) {
      const res = await t.app.inject(endpoint);
      expect(res.statusCode, endpoint.url).toBe(401);
      expect(res.json().code).toBe('auth.token_missing');
    }
  });

  it('is Owner-only: Admin, Moderator and Standard get 403 and nothing changes', async () => {
    for (const caller of [admin, moderator, standard]) {
      for (const endpoint of endpoints()) {
        const before = await auditCount(t);
        const res = await t.app.inject({ ...endpoint, headers: caller.headers });
        expect(res.statusCode, `${caller.username} ${endpoint.method} ${endpoint.url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.owner_only', detail: 'Only the Owner may do this.' });
        expect(await auditCount(t)).toBe(before);
      }
    }
    const row = await t.database.pool.query('SELECT role FROM users WHERE id = $1', [standard.userId]);
    expect(row.rows[0].role).toBe(0);
  });
});

describe('GET /api/admin/employees', () => {
  it('lists admins and moderators with their grants in force, paginated, audit-logged', async () => {
    const res = await expectOneAuditEntry(() => t.app.inject({ method: 'GET', url: '/api/admin/employees', headers: owner.headers }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((e: { username: string }) => e.username).sort()).toEqual(['admin_abe', 'admin_adam', 'mod_mia']);
    expect(body[0]).toEqual({ id: expect.any(String), username: expect.any(String), email: expect.any(String), role: expect.stringMatching(/^(Admin|Moderator)$/), permissions: expect.any(Array) });
    expect(res.headers['x-total-count']).toBe('3');
    expect(await lastAudit(t)).toMatchObject({ action: 'employees.listed', actor_type: 'user', actor_user_id: owner.userId });
  });

  it('filters by role and pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/employees?role=Admin&pageSize=1', headers: owner.headers });
    expect(res.json()).toHaveLength(1);
    expect(res.json()[0].role).toBe('Admin');
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers.link).toContain('rel="next"');
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/employees?role=Owner', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PUT /api/admin/employees/{userId}/role', () => {
  it('promotes a user, answers the employee, and writes one audit entry with before/after', async () => {
    const target = await createUser(t);
    const res = await expectOneAuditEntry(() =>
      t.app.inject({ method: 'PUT', url: `/api/admin/employees/${target.userId}/role`, headers: { ...owner.headers, 'user-agent': 'vitest-agent' }, payload: { role: 'Moderator', reason: 'joins the mod team' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: target.userId, username: target.username, email: target.email, role: 'Moderator', permissions: [] });
    expect(await lastAudit(t)).toMatchObject({
      action: 'employees.role_changed',
      actor_user_id: owner.userId,
      target_type: 'user',
      target_id: target.userId,
      reason: 'joins the mod team',
      before: { role: 'Standard' },
      after: { role: 'Moderator' },
      user_agent: 'vitest-agent',
      ip_address: '127.0.0.1',
      request_id: res.headers['x-request-id'],
    });
  });

  it('takes effect on the target at once, although its principal was cached', async () => {
    const target = await createUser(t);
    const probe = () => t.app.inject({ method: 'GET', url: '/test/admin-probe', headers: target.headers });
    expect((await probe()).statusCode).toBe(403);
    await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${target.userId}/role`, headers: owner.headers, payload: { role: 'Admin' } });
    await expect.poll(async () => (await probe()).statusCode, { timeout: 3000 }).toBe(200);
    await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${target.userId}/role`, headers: owner.headers, payload: { role: 'Moderator' } });
    await expect.poll(async () => (await probe()).statusCode, { timeout: 3000 }).toBe(403);
  });

  it("refuses to change the Owner's role (409)", async () => {
    const before = await auditCount(t);
    const res = await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${owner.userId}/role`, headers: owner.headers, payload: { role: 'Admin' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'users.owner_role_protected' });
    expect(await auditCount(t)).toBe(before);
  });

  it('refuses an unknown user (404), a bad id (400) and a bad body (400)', async () => {
    const missing = await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${MISSING_ID}/role`, headers: owner.headers, payload: { role: 'Admin' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('users.user_not_found');
    const badId = await t.app.inject({ method: 'PUT', url: '/api/admin/employees/42/role', headers: owner.headers, payload: { role: 'Admin' } });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().errors).toEqual([{ pointer: '/userId', in: 'path', detail: 'must be a UUID' }]);
    const owner2 = await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${standard.userId}/role`, headers: owner.headers, payload: { role: 'Owner' } });
    expect(owner2.statusCode).toBe(400);
    const extra = await t.app.inject({ method: 'PUT', url: `/api/admin/employees/${standard.userId}/role`, headers: owner.headers, payload: { role: 'Admin', isActive: false } });
    expect(extra.statusCode).toBe(400);
  });
});

describe('last-admin protection', () => {
  it('refuses to demote the last Admin, and lets exactly one of two concurrent demotions through', async () => {
    const isolated = await createTestApp();
    try {
      const boss = await createUser(isolated, { role: 'Owner' });
      const a1 = await createUser(isolated, { role: 'Admin' });
      const a2 = await createUser(isolated, { role: 'Admin' });
      const demote = (id: string) =>
        isolated.app.inject({ method: 'PUT', url: `/api/admin/employees/${id}/role`, headers: boss.headers, payload: { role: 'Moderator' } });
      const results = await Promise.all([demote(a1.userId), demote(a2.userId)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const refused = results.find((r) => r.statusCode === 409)!;
      expect(refused.json()).toMatchObject({ code: 'users.last_admin', detail: expect.stringContaining('last Admin') });
      const admins = await isolated.database.pool.query('SELECT count(*)::int AS n FROM users WHERE role = 3');
      expect(admins.rows[0].n).toBe(1);
    } finally {
      await isolated.close();
    }
  });
});

describe('POST /api/admin/employees/{userId}/permissions', () => {
  it('grants with restrictions and a reason, in either naming style', async () => {
    const res = await expectOneAuditEntry(() =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/employees/${moderator.userId}/permissions`,
        headers: owner.headers,
        payload: { permission: 'users.ban', isGranted: true, reason: 'weekend shifts', restrictions: { maxBanDays: 7 } },
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      userId: moderator.userId,
      permission: 'Users.Ban',
      isGranted: true,
      restrictions: { maxBanDays: 7 },
      reason: 'weekend shifts',
      grantedBy: owner.userId,
      grantedAt: expect.any(String),
    });
    expect(await lastAudit(t)).toMatchObject({
      action: 'employees.permission_granted',
      target_id: moderator.userId,
      before: null,
      after: { permission: 'Users.Ban', isGranted: true, restrictions: { maxBanDays: 7 } },
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/employees?role=Moderator', headers: owner.headers });
    const mia = list.json().find((e: { id: string }) => e.id === moderator.userId);
    expect(mia.permissions).toEqual([expect.objectContaining({ permission: 'Users.Ban', isGranted: true, restrictions: { maxBanDays: 7 } })]);
  });

  it('denies explicitly and records the change as a new history entry', async () => {
    const res = await expectOneAuditEntry(() =>
      t.app.inject({ method: 'POST', url: `/api/admin/employees/${admin.userId}/permissions`, headers: owner.headers, payload: { permission: 'Users.Ban', isGranted: false } }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ permission: 'Users.Ban', isGranted: false, restrictions: null, reason: null });
    expect((await lastAudit(t)).action).toBe('employees.permission_denied');
  });

  it('refuses an unknown permission with the list of valid names', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${moderator.userId}/permissions`, headers: owner.headers, payload: { permission: 'Users.Fly', isGranted: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('access.unknown_permission');
    expect(res.json().detail).toContain('Users.Ban');
    expect(res.json().detail).toContain('payments.refund');
  });

  it.each(['Permissions.Manage', 'settings.delete', 'Employees.Manage'])('never grants the Owner-only %s (422: a rule, not a state that could change)', async (permission) => {
    const before = await auditCount(t);
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${admin.userId}/permissions`, headers: owner.headers, payload: { permission, isGranted: true } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: 422, code: 'employees.owner_only_permission' });
    expect(res.json().detail).toContain('belongs to the Owner alone');
    expect(await auditCount(t)).toBe(before);
  });

  it('refuses grants to non-employees and to the Owner (409), unknown users (404), bad restrictions (400)', async () => {
    const toStandard = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${standard.userId}/permissions`, headers: owner.headers, payload: { permission: 'Users.Ban', isGranted: true } });
    expect(toStandard.statusCode).toBe(409);
    expect(toStandard.json().code).toBe('employees.not_an_employee');
    const toOwner = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${owner.userId}/permissions`, headers: owner.headers, payload: { permission: 'Users.Ban', isGranted: false } });
    expect(toOwner.json().code).toBe('employees.owner_has_all_permissions');
    const missing = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${MISSING_ID}/permissions`, headers: owner.headers, payload: { permission: 'Users.Ban', isGranted: true } });
    expect(missing.statusCode).toBe(404);
    const badRestrictions = await t.app.inject({
      method: 'POST',
      url: `/api/admin/employees/${moderator.userId}/permissions`,
      headers: owner.headers,
      payload: { permission: 'Users.Ban', isGranted: true, restrictions: { maxBanDays: -3 } },
    });
    expect(badRestrictions.statusCode).toBe(400);
    expect(badRestrictions.json().code).toBe('employees.invalid_restrictions');
    const missingField = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${moderator.userId}/permissions`, headers: owner.headers, payload: { permission: 'Users.Ban' } });
    expect(missingField.json().errors).toEqual([{ pointer: '/isGranted', in: 'body', detail: 'is required' }]);
  });
});

describe('GET /api/admin/employees/{userId}/permissions/history', () => {
  it('keeps every change, newest first, paginated and audit-logged', async () => {
    for (const isGranted of [true, false, true]) {
      await t.app.inject({ method: 'POST', url: `/api/admin/employees/${admin2.userId}/permissions`, headers: owner.headers, payload: { permission: 'AuditLogs.View', isGranted } });
    }
    const res = await expectOneAuditEntry(() =>
      t.app.inject({ method: 'GET', url: `/api/admin/employees/${admin2.userId}/permissions/history?pageSize=2`, headers: owner.headers }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().map((g: { isGranted: boolean }) => g.isGranted)).toEqual([true, false]);
    expect(res.headers['x-total-count']).toBe('3');
    expect((await lastAudit(t)).action).toBe('employees.permission_history_viewed');
    const page2 = await t.app.inject({ method: 'GET', url: `/api/admin/employees/${admin2.userId}/permissions/history?pageSize=2&page=2`, headers: owner.headers });
    expect(page2.json().map((g: { isGranted: boolean }) => g.isGranted)).toEqual([true]);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/employees/${MISSING_ID}/permissions/history`, headers: owner.headers });
    expect(res.statusCode).toBe(404);
  });
});
