import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../core/auth/idp/local/keys.js';
import { localIssuer } from '../../core/auth/idp/local/local-idp.js';
import { resetIdpPassword, setIdpPassword } from '../../core/auth/idp/local/local-users.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, login, type TestUser } from '../../../test/factories.js';

/** Token edge cases: issue times in the future, tokens older than a password change. */

let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    configure(app) {
      app.get('/test/me', { schema: { response: { 200: Type.Object({ userId: Type.String() }) } } }, async (request) => ({ userId: request.principal!.userId }));
    },
  });
  alice = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const me = (token: string) => t.app.inject({ method: 'GET', url: '/test/me', headers: { authorization: `Bearer ${token}` } });

async function sign(iat: number) {
  const key = await new KeyStore(t.database.db, undefined).signingKey();
  const idp = t.config.idp as { clientId: string; poolId: string };
  return new SignJWT({ token_use: 'id', 'cognito:username': alice.username, email: alice.email, iat, exp: Math.floor(Date.now() / 1000) + 3600 })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setSubject(alice.sub)
    .setAudience(idp.clientId)
    .setIssuer(localIssuer(idp.poolId))
    .setJti(randomUUID())
    .sign(key.privateKey);
}

describe('id token issue time', () => {
  it('refuses a token issued more than 5 minutes in the future', async () => {
    const res = await me(await sign(Math.floor(Date.now() / 1000) + 6 * 60));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_issued_in_future');
  });

  it('accepts a little clock skew (4 minutes ahead)', async () => {
    expect((await me(await sign(Math.floor(Date.now() / 1000) + 4 * 60))).statusCode).toBe(200);
  });
});

describe('tokens issued before a password change', () => {
  it('are refused after reset-password, also when the user was cached; a new login works', async () => {
    const bob = await createUser(t);
    expect((await me(bob.idToken)).statusCode).toBe(200); // cached now
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the reset is in a later second than the token
    const { password } = await resetIdpPassword(t.database.db, 10, bob.username);
    // The change reaches the running server by NOTIFY, as a disable does.
    await expect.poll(async () => (await me(bob.idToken)).json().code, { timeout: 3000 }).toBe('auth.token_revoked');
    const fresh = await login(t, bob.username, password);
    expect((await me(fresh.id_token)).statusCode).toBe(200);
    // the old token stays refused even with the new one's principal cached
    expect((await me(bob.idToken)).statusCode).toBe(401);
  });

  it('are refused after set-password', async () => {
    const carol = await createUser(t);
    expect((await me(carol.idToken)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await setIdpPassword(t.database.db, 10, carol.username, 'a-brand-new-passphrase-42');
    await expect.poll(async () => (await me(carol.idToken)).json().code, { timeout: 3000 }).toBe('auth.token_revoked');
  });
});
