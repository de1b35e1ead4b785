import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { setIdpUserEnabled } from './idp/local/local-users.js';
import { notifyPrincipalChanged } from './notify.js';

/**
 * Two processes of one deployment (two apps on one database, each with its own principal cache):
 * a change made through one is seen by the other at once through LISTEN/NOTIFY, long before the
 * cache's 60 s TTL, whether the change names the user by id or by identity-provider sub.
 */

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ sameDatabaseAs: a });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

const me = (t: TestApp, user: TestUser) => t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });

/** Polls until the status changes (a notification takes milliseconds; the TTL would take 60 s). */
async function statusSoon(t: TestApp, user: TestUser, status: number) {
  for (let i = 0; i < 100; i++) {
    const res = await me(t, user);
    if (res.statusCode === status) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  return me(t, user);
}

describe('principal cache across processes', () => {
  it('drops a deactivated user everywhere when the change is notified by user id', async () => {
    const user = await createUser(a);
    expect((await me(b, user)).statusCode).toBe(200); // b caches the principal
    await a.database.pool.query('UPDATE users SET is_active = false WHERE id = $1', [user.userId]);
    // Not notified: b still answers from its cache (this is what the notification is for).
    expect((await me(b, user)).statusCode).toBe(200);
    await notifyPrincipalChanged(a.database.db, user.userId);
    const res = await statusSoon(b, user, 403);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, code: 'auth.account_deactivated' });
    expect((await statusSoon(a, user, 403)).statusCode).toBe(403); // the notifying process too
  });

  it('refuses a user disabled in the identity provider through the other process (notified by sub)', async () => {
    const user = await createUser(a);
    expect((await me(b, user)).statusCode).toBe(200);
    await setIdpUserEnabled(a.database.db, user.username, false);
    const res = await statusSoon(b, user, 401);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, code: 'auth.user_disabled' });
  });
});
