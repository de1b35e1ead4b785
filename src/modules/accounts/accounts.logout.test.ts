import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdpUserEnabled } from '../../core/auth/idp/local/local-users.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { banUser, createUser, login, type TestUser } from '../../../test/factories.js';

/** POST /api/auth/logout: one sign-in or every one, in every process, whatever state the account is in. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const logout = (payload: unknown, app = t.app, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/api/auth/logout', payload: payload as object, headers });
const refresh = (refreshToken: string, app = t.app) => app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

async function expectRefused(refreshToken: string, app = t.app): Promise<void> {
  const res = await refresh(refreshToken, app);
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid', detail: expect.stringContaining('log in again') });
}

async function expectSignedOut(res: Awaited<ReturnType<typeof logout>>): Promise<void> {
  expect(res.statusCode).toBe(204);
  expect(res.body).toBe('');
}

describe('POST /api/auth/logout', () => {
  it('ends the sign-in of the refresh token (every token rotated from it too); another sign-in still refreshes', async () => {
    const jo = await createUser(t);
    const laptop = await login(t, jo.username, jo.password);
    const rotated = await refresh(jo.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const current = rotated.json().refresh_token as string;

    await expectSignedOut(await logout({ refreshToken: current }));
    await expectRefused(current);
    // The token it was rotated from, still inside the 10 s grace window, does not replay the old answer.
    await expectRefused(jo.refreshToken);
    const other = await refresh(laptop.refresh_token);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
  });

  it('answers 204 for a token signed out already and for one it never issued (RFC 7009: nothing to tell the client)', async () => {
    const jo = await createUser(t);
    await expectSignedOut(await logout({ refreshToken: jo.refreshToken }));
    await expectSignedOut(await logout({ refreshToken: jo.refreshToken }));
    await expectSignedOut(await logout({ refreshToken: 'never-issued-by-this-server' }));
    await expectSignedOut(await logout({ refreshToken: jo.refreshToken, everywhere: false }));
  });

  it('with everywhere, ends every sign-in of the user and no one else’s', async () => {
    const sam = await createUser(t);
    const others = [await login(t, sam.username, sam.password), await login(t, sam.username, sam.password)];
    const bystander = await createUser(t);

    await expectSignedOut(await logout({ refreshToken: sam.refreshToken, everywhere: true }));
    for (const token of [sam.refreshToken, ...others.map((o) => o.refresh_token)]) await expectRefused(token);
    expect((await refresh(bystander.refreshToken)).statusCode).toBe(200);
    // A new login after it works as usual.
    const again = await login(t, sam.username, sam.password);
    expect((await refresh(again.refresh_token)).statusCode).toBe(200);
  });

  it('with everywhere, refuses a token that names no live sign-in (401, log in again first) and ends nothing', async () => {
    const kim = await createUser(t);
    const unknown = await logout({ refreshToken: 'never-issued-by-this-server', everywhere: true });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid', instance: '/api/auth/logout' });

    const old = await login(t, kim.username, kim.password);
    await expectSignedOut(await logout({ refreshToken: old.refresh_token }));
    const revoked = await logout({ refreshToken: old.refresh_token, everywhere: true });
    expect(revoked.json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    const expired = await login(t, kim.username, kim.password);
    await t.database.pool.query("UPDATE idp.refresh_tokens SET expires_at = now() - interval '1 second' WHERE id = (SELECT id FROM idp.refresh_tokens WHERE sub = $1 ORDER BY id DESC LIMIT 1)", [kim.sub]);
    expect((await logout({ refreshToken: expired.refresh_token, everywhere: true })).json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    // The first sign-in of kim was not touched by any of it.
    expect((await refresh(kim.refreshToken)).statusCode).toBe(200);
  });

  it('revokes in every process at once: signed out on one server, refused on the other', async () => {
    const other = await createTestApp({ sameDatabaseAs: t });
    try {
      const ana = await createUser(t);
      const second = await login(t, ana.username, ana.password);
      await expectSignedOut(await logout({ refreshToken: ana.refreshToken }, other.app));
      await expectRefused(ana.refreshToken, t.app);
      expect((await refresh(second.refresh_token, other.app)).statusCode).toBe(200);

      const ben = await createUser(other);
      const benLaptop = await login(other, ben.username, ben.password);
      await expectSignedOut(await logout({ refreshToken: ben.refreshToken, everywhere: true }, t.app));
      await expectRefused(ben.refreshToken, other.app);
      await expectRefused(benLaptop.refresh_token, other.app);
    } finally {
      await other.close();
    }
  });

  it('signs out a banned, a deactivated and a disabled account (signing out never needs more than the refresh token)', async () => {
    const admin = await createUser(t, { role: 'Admin' });
    const banned = await createUser(t);
    await banUser(t, admin, banned);
    expect((await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: banned.headers })).json()).toMatchObject({ status: 403, code: 'auth.banned' });
    await expectSignedOut(await logout({ refreshToken: banned.refreshToken }, t.app, banned.headers));
    await expectRefused(banned.refreshToken);

    const deactivated = await createUser(t);
    await t.database.pool.query('UPDATE users SET is_active = false WHERE id = $1', [deactivated.userId]);
    const laptop = await login(t, deactivated.username, deactivated.password);
    await expectSignedOut(await logout({ refreshToken: deactivated.refreshToken, everywhere: true }));
    await expectRefused(laptop.refresh_token);

    const disabled: TestUser = await createUser(t);
    await setIdpUserEnabled(t.database.db, disabled.username, false);
    await expectSignedOut(await logout({ refreshToken: disabled.refreshToken }));
    await setIdpUserEnabled(t.database.db, disabled.username, true);
    await expectRefused(disabled.refreshToken);
  });

  it('needs no bearer token, and ignores a bad one', async () => {
    const lee = await createUser(t);
    await expectSignedOut(await logout({ refreshToken: lee.refreshToken }, t.app, { authorization: 'Bearer not.a.token' }));
    await expectRefused(lee.refreshToken);
  });

  it.each([
    ['no body', undefined, '', 'body'],
    ['an empty object', {}, '/refreshToken', 'is required'],
    ['an empty token', { refreshToken: '' }, '/refreshToken', ''],
    ['a token that is not a string', { refreshToken: 42 }, '/refreshToken', ''],
    ['a token longer than 4096 characters', { refreshToken: 'x'.repeat(4097) }, '/refreshToken', ''],
    ['everywhere that is not a boolean', { refreshToken: 'abc', everywhere: 'yes' }, '/everywhere', ''],
    ['an unknown property', { refreshToken: 'abc', userId: 'someone-else' }, '', 'userId'],
  ])('refuses %s with 400 request.validation_failed', async (_name, payload, pointer, detail) => {
    const res = await logout(payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const body = res.json();
    expect(body).toMatchObject({ status: 400, code: 'request.validation_failed' });
    const described = JSON.stringify(body.errors ?? body.detail);
    if (pointer) expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer, in: 'body' })]));
    if (detail) expect(described).toContain(detail);
  });

  it('refuses a body that is not JSON with a problem, never a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { 'content-type': 'application/json' }, payload: '{"refreshToken":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: expect.stringMatching(/^request\./) });
    const text = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { 'content-type': 'text/plain' }, payload: 'token' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ status: 415 });
  });

  it('is limited per client address like the other auth routes (429 with Retry-After)', async () => {
    const limited = await createTestApp({ sameDatabaseAs: t, env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      for (let i = 0; i < 2; i++) await expectSignedOut(await logout({ refreshToken: 'never-issued' }, limited.app));
      const refused = await logout({ refreshToken: 'never-issued' }, limited.app);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ status: 429, code: 'request.rate_limited' });
    } finally {
      await limited.close();
    }
  });

  it('leaves no refresh succeeding once it has answered, however logout and refreshes of the same token interleave', async () => {
    for (let round = 0; round < 8; round++) {
      const user = await createUser(t);
      const refreshes = Array.from({ length: 3 }, () => refresh(user.refreshToken));
      const signedOut = logout({ refreshToken: user.refreshToken });
      const more = Array.from({ length: 3 }, () => refresh(user.refreshToken));
      await expectSignedOut(await signedOut);
      // After the logout answered: the token, and every successor a racing refresh got, are refused.
      await expectRefused(user.refreshToken);
      const answers = await Promise.all([...refreshes, ...more]);
      for (const answer of answers) {
        expect([200, 401]).toContain(answer.statusCode);
        if (answer.statusCode === 200) await expectRefused(answer.json().refresh_token);
        else expect(answer.json().code).toBe('auth.refresh_token_invalid');
      }
    }
  });
});
