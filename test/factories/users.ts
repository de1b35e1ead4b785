import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createIdpUser } from '../../src/core/auth/idp/local/local-users.js';
import { Role, type RoleName } from '../../src/core/access/roles.js';
import { setRole, upsertFromClaims } from '../../src/modules/users/users.repository.js';
import type { TestApp } from '../harness.js';

/** Users: real users of the embedded identity provider, with real tokens from POST /api/auth/login; staff and grants. */

export interface TestUser {
  userId: string;
  sub: string;
  username: string;
  email: string;
  password: string;
  idToken: string;
  accessToken: string;
  refreshToken: string;
  /** Headers that authenticate as this user. */
  headers: { authorization: string };
}

let counter = 0;

export async function createUser(t: TestApp, options: { role?: RoleName; username?: string; password?: string } = {}): Promise<TestUser> {
  const username = options.username ?? `angler${++counter}_${randomBytes(3).toString('hex')}`;
  const password = options.password ?? `pw-${randomBytes(8).toString('hex')}`;
  const email = `${username.toLowerCase()}@example.com`;
  const idpUser = await createIdpUser(t.database.db, t.config.idp.kind === 'local' ? t.config.idp.scryptCost : 10, { username, email, password });
  const user = await upsertFromClaims(t.database.db, { sub: idpUser.sub, username, email });
  if (options.role && options.role !== 'Standard') await setRole(t.database.db, user.id, Role[options.role]);
  const tokens = await login(t, username, password);
  return {
    userId: user.id,
    sub: idpUser.sub,
    username,
    email,
    password,
    idToken: tokens.id_token,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    headers: { authorization: `Bearer ${tokens.id_token}` },
  };
}

export async function login(t: TestApp, username: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login of ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id_token: string; access_token: string; refresh_token: string; expires_in: number; token_type: string };
}

/** An id no record has. */
export const MISSING_ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';

/** Grants or denies a permission through the Owner's API, as in production. */
export async function grant(t: TestApp, owner: TestUser, user: TestUser, permission: string, isGranted: boolean, restrictions?: Record<string, unknown>): Promise<void> {
  const payload = restrictions ? { permission, isGranted, restrictions } : { permission, isGranted };
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${user.userId}/permissions`, headers: owner.headers, payload });
  if (res.statusCode !== 201) throw new Error(`setting ${permission} failed: ${res.statusCode} ${res.body}`);
}

/** @deprecated The former name of `grant`, kept while branches written against it merge. */
export const setPermission = grant;

/** The cast of a permission-gated admin test. */
export interface Staff {
  owner: TestUser;
  admin: TestUser;
  /** An Admin explicitly denied `permission`. */
  deniedAdmin: TestUser;
  /** A Moderator granted `otherPermission` (if given) but not `permission`. */
  moderator: TestUser;
  /** A Moderator granted `permission`. */
  grantedModerator: TestUser;
  standard: TestUser;
}

export async function createStaff(t: TestApp, permission: string, options: { otherPermission?: string } = {}): Promise<Staff> {
  const owner = await createUser(t, { role: 'Owner' });
  const staff: Staff = {
    owner,
    admin: await createUser(t, { role: 'Admin' }),
    deniedAdmin: await createUser(t, { role: 'Admin' }),
    moderator: await createUser(t, { role: 'Moderator' }),
    grantedModerator: await createUser(t, { role: 'Moderator' }),
    standard: await createUser(t),
  };
  await grant(t, owner, staff.deniedAdmin, permission, false);
  await grant(t, owner, staff.grantedModerator, permission, true);
  if (options.otherPermission) await grant(t, owner, staff.moderator, options.otherPermission, true);
  return staff;
}

/**
 * A permission-gated route refuses who lacks the permission: 401 without a token, and 403
 * `access.permission_denied` (the body) for the standard user, the Admin denied the permission and
 * a Moderator without it (`moderatorWithout`, by default `staff.moderator`).
 */
export async function expectStaffRefused(t: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, staff: Staff, payload?: object, moderatorWithout: TestUser = staff.moderator): Promise<void> {
  const send = (user: TestUser | null) => t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });
  expect((await send(null)).statusCode).toBe(401);
  for (const user of [staff.standard, staff.deniedAdmin, moderatorWithout]) expect((await send(user)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
}
