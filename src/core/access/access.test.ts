import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { appendGrant } from './grants.repository.js';
import { canonicalPermission, PERMISSIONS, type Permission } from './permissions.js';
import { resolvePermission, type AccessLevel } from './resolve.js';
import { ROLES, Role, type RoleName } from './roles.js';

/**
 * The permission matrix: every role × every access level × grant / deny / none, through the
 * real HTTP layer (probe routes declaring each level) — one assertion per cell.
 */

const LEVELS: Array<{ name: string; access: AccessLevel; permission?: Permission }> = [
  { name: 'authenticated', access: 'authenticated' },
  { name: 'admin', access: 'admin' },
  { name: 'owner', access: 'owner' },
  { name: 'Users.Ban', access: { permission: 'Users.Ban' }, permission: 'Users.Ban' },
  { name: 'Settings.Modify', access: { permission: 'Settings.Modify' }, permission: 'Settings.Modify' },
  { name: 'Settings.Delete', access: { permission: 'Settings.Delete' }, permission: 'Settings.Delete' },
  { name: 'moderation.approve', access: { permission: 'moderation.approve' }, permission: 'moderation.approve' },
];
type GrantState = 'none' | 'granted' | 'denied';

/** The expected outcome of each cell, written out from the spec's rules. */
function expected(role: RoleName, level: (typeof LEVELS)[number], grant: GrantState): boolean {
  if (level.name === 'authenticated') return true;
  if (level.name === 'admin') return role === 'Admin' || role === 'Owner';
  if (level.name === 'owner') return role === 'Owner';
  if (role === 'Owner') return true;
  if (level.name === 'Settings.Delete') return false; // Owner-only name
  if (role === 'Admin') return level.name === 'Settings.Modify' ? grant === 'granted' : grant !== 'denied';
  if (role === 'Moderator') return grant === 'granted';
  return false; // Standard, DNR, Researcher
}

let t: TestApp;
const users = {} as Record<RoleName, Record<GrantState, TestUser>>;

beforeAll(async () => {
  t = await createTestApp({
    configure(app) {
      for (const level of LEVELS) {
        app.get(
          `/test/access/${level.name}`,
          { config: { access: level.access }, schema: { response: { 200: Type.Object({ ok: Type.Boolean(), restrictions: Type.Any() }) } } },
          async (request) => ({ ok: true, restrictions: request.grantRestrictions }),
        );
      }
    },
  });
  for (const role of ROLES) {
    users[role] = {} as Record<GrantState, TestUser>;
    for (const grant of ['none', 'granted', 'denied'] as const) {
      const user = await createUser(t, { role });
      users[role][grant] = user;
      if (grant === 'none') continue;
      for (const level of LEVELS) {
        if (!level.permission) continue;
        await appendGrant(t.database.db, {
          userId: user.userId,
          permission: level.permission,
          isGranted: grant === 'granted',
          restrictions: level.permission === 'Users.Ban' ? { maxBanDays: 7 } : null,
          reason: 'matrix',
          grantedBy: null,
        });
      }
    }
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const cells = ROLES.flatMap((role) => LEVELS.flatMap((level) => (['none', 'granted', 'denied'] as const).map((grant) => [role, level.name, grant] as const)));

describe('permission matrix (HTTP)', () => {
  it.each(cells)('%s on %s with grant %s', async (role, levelName, grant) => {
    const level = LEVELS.find((l) => l.name === levelName)!;
    const res = await t.app.inject({ method: 'GET', url: `/test/access/${levelName}`, headers: users[role][grant].headers });
    if (expected(role, level, grant)) {
      expect(res.statusCode).toBe(200);
      expect(res.json().ok).toBe(true);
    } else {
      expect(res.statusCode).toBe(403);
      const body = res.json();
      expect(body.code).toMatch(/^access\.(permission_denied|admin_only|owner_only)$/);
      if (level.permission) expect(body.detail).toContain(level.permission);
    }
  });

  it('hands the grant restrictions to the route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/access/Users.Ban', headers: users.Moderator.granted.headers });
    expect(res.json()).toEqual({ ok: true, restrictions: { maxBanDays: 7 } });
  });

  it('says what is missing and whom to ask', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/access/Users.Ban', headers: users.Moderator.none.headers });
    expect(res.json().detail).toBe('Requires permission Users.Ban; ask the Owner to grant it.');
    const admin = await t.app.inject({ method: 'GET', url: '/test/access/admin', headers: users.Standard.none.headers });
    expect(admin.json()).toMatchObject({ code: 'access.admin_only', detail: expect.stringContaining('Standard') });
  });

  it('applies a new grant on the next request (grants are not cached)', async () => {
    const mod = await createUser(t, { role: 'Moderator' });
    const url = '/test/access/moderation.approve';
    expect((await t.app.inject({ method: 'GET', url, headers: mod.headers })).statusCode).toBe(403);
    await appendGrant(t.database.db, { userId: mod.userId, permission: 'moderation.approve', isGranted: true, restrictions: null, reason: null, grantedBy: null });
    expect((await t.app.inject({ method: 'GET', url, headers: mod.headers })).statusCode).toBe(200);
    await appendGrant(t.database.db, { userId: mod.userId, permission: 'moderation.approve', isGranted: false, restrictions: null, reason: null, grantedBy: null });
    expect((await t.app.inject({ method: 'GET', url, headers: mod.headers })).statusCode).toBe(403);
  });

  it('needs a token on every level', async () => {
    for (const level of LEVELS) {
      const res = await t.app.inject({ method: 'GET', url: `/test/access/${level.name}` });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('permission catalogue', () => {
  it('matches both naming styles case-insensitively', () => {
    expect(canonicalPermission('users.ban')).toBe('Users.Ban');
    expect(canonicalPermission('USERS.BAN')).toBe('Users.Ban');
    expect(canonicalPermission('tournaments.approve')).toBe('Tournaments.Approve');
    expect(canonicalPermission('settings.modify')).toBe('Settings.Modify');
    expect(canonicalPermission('Moderation.Approve')).toBe('moderation.approve');
    expect(canonicalPermission('payments.refund')).toBe('payments.refund');
    expect(canonicalPermission('users.fly')).toBeUndefined();
  });

  it('holds every name of the spec once', () => {
    expect(new Set(PERMISSIONS.map((p) => p.toLowerCase())).size).toBe(PERMISSIONS.length);
    expect(PERMISSIONS).toHaveLength(38);
  });

  it('never lets anyone but the Owner pass an Owner-only name, whatever the grant', () => {
    for (const permission of ['Settings.Delete', 'Permissions.Manage', 'Employees.Manage'] as const) {
      for (const role of [Role.Admin, Role.Moderator, Role.Standard]) {
        expect(resolvePermission(role, permission, { isGranted: true, restrictions: null }).allowed).toBe(false);
      }
      expect(resolvePermission(Role.Owner, permission, undefined).allowed).toBe(true);
    }
  });
});
