import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { appendGrant } from './grants.repository.js';
import { canonicalPermission, permissionLabel, permissionNames, type Permission } from './permissions.js';
import { describeLevel, resolvePermission } from './resolve.js';
import { Role } from './roles.js';

/**
 * Permission aliases: `Content.Approve` is `moderation.approve` and `Content.Moderate` is
 * `moderation.reject`. A grant or denial under either name is in force for both, whichever
 * name the route declares.
 */

const PROBES: Permission[] = ['moderation.approve', 'Content.Approve', 'moderation.reject', 'Content.Moderate'];

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    configure(app) {
      for (const permission of PROBES) {
        app.get(`/test/alias/${permission}`, { config: { access: { permission } }, schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async () => ({ ok: true }));
      }
    },
  });
  owner = await createUser(t, { role: 'Owner' });
});
afterAll(async () => {
  await t?.close();
});

const probe = (user: TestUser, permission: Permission) => t.app.inject({ method: 'GET', url: `/test/alias/${permission}`, headers: user.headers });

async function passes(user: TestUser): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const permission of PROBES) out[permission] = (await probe(user, permission)).statusCode;
  return out;
}

describe('permission aliases in the catalogue', () => {
  it('resolves either name, in either case, to the stored name', () => {
    expect(canonicalPermission('Content.Approve')).toBe('moderation.approve');
    expect(canonicalPermission('content.approve')).toBe('moderation.approve');
    expect(canonicalPermission('CONTENT.MODERATE')).toBe('moderation.reject');
    expect(canonicalPermission('moderation.reject')).toBe('moderation.reject');
    expect(canonicalPermission('Content.Delete')).toBe('Content.Delete');
    expect(permissionNames('Content.Moderate')).toEqual(['moderation.reject', 'Content.Moderate']);
    expect(permissionNames('moderation.approve')).toEqual(['moderation.approve', 'Content.Approve']);
    expect(permissionNames('Users.Ban')).toEqual(['Users.Ban']);
    expect(permissionLabel('Content.Moderate')).toBe('Content.Moderate (= moderation.reject)');
    expect(describeLevel({ permission: 'Content.Moderate' })).toContain('moderation.reject');
  });

  it('applies a grant of the alias to the permission it names, and the other way round', async () => {
    const viaAlias = await createUser(t, { role: 'Moderator' });
    await appendGrant(t.database.db, { userId: viaAlias.userId, permission: 'Content.Moderate', isGranted: true, restrictions: null, reason: null, grantedBy: null });
    expect(await passes(viaAlias)).toEqual({ 'moderation.approve': 403, 'Content.Approve': 403, 'moderation.reject': 200, 'Content.Moderate': 200 });

    const viaName = await createUser(t, { role: 'Moderator' });
    await appendGrant(t.database.db, { userId: viaName.userId, permission: 'moderation.approve', isGranted: true, restrictions: null, reason: null, grantedBy: null });
    expect(await passes(viaName)).toEqual({ 'moderation.approve': 200, 'Content.Approve': 200, 'moderation.reject': 403, 'Content.Moderate': 403 });
  });

  it('applies a denial under either name to an Admin', async () => {
    const admin = await createUser(t, { role: 'Admin' });
    expect(Object.values(await passes(admin))).toEqual([200, 200, 200, 200]);
    await appendGrant(t.database.db, { userId: admin.userId, permission: 'Content.Approve', isGranted: false, restrictions: null, reason: null, grantedBy: null });
    const denied = await probe(admin, 'moderation.approve');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('moderation.approve') });
    expect((await probe(admin, 'Content.Moderate')).statusCode).toBe(200);
  });

  it('stores grants under the canonical name, through the employees endpoint too', async () => {
    const mod = await createUser(t, { role: 'Moderator' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/employees/${mod.userId}/permissions`,
      headers: owner.headers,
      payload: { permission: 'content.moderate', isGranted: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().permission).toBe('moderation.reject');
    expect((await probe(mod, 'Content.Moderate')).statusCode).toBe(200);
    // The newest grant under either name is in force: a later denial by the other name wins.
    await appendGrant(t.database.db, { userId: mod.userId, permission: 'moderation.reject', isGranted: false, restrictions: null, reason: null, grantedBy: null });
    expect((await probe(mod, 'Content.Moderate')).statusCode).toBe(403);
  });

  it('honours a grant stored under the alias name before aliasing existed', async () => {
    const mod = await createUser(t, { role: 'Moderator' });
    await t.database.pool.query(
      `INSERT INTO permission_grants (id, user_id, permission, is_granted, created_at) VALUES (gen_random_uuid(), $1, 'Content.Approve', true, now())`,
      [mod.userId],
    );
    expect((await probe(mod, 'moderation.approve')).statusCode).toBe(200);
  });

  it('names both spellings when it refuses', () => {
    const decision = resolvePermission(Role.Moderator, 'Content.Moderate', undefined);
    expect(decision).toEqual({ allowed: false, code: 'access.permission_denied', detail: 'Requires permission Content.Moderate (= moderation.reject); ask the Owner to grant it.' });
  });
});
