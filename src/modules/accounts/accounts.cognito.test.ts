import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CognitoIdentityProvider } from '../../core/auth/idp/cognito/cognito-idp.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { startCognitoStandIn, type CognitoStandIn } from '../../../test/cognito-stand-in.js';

/** The whole HTTP flow with IDP=cognito, against a loopback stand-in for Cognito. */

let standIn: CognitoStandIn;
let t: TestApp;
let clock = Date.now();

beforeAll(async () => {
  standIn = await startCognitoStandIn({ region: 'eu-west-1', poolId: 'eu-west-1_Fish123', clientId: 'cognito-client' });
  const env = { IDP: 'cognito', COGNITO_USER_POOL_ID: 'eu-west-1_Fish123', COGNITO_CLIENT_ID: 'cognito-client', AWS_REGION: 'eu-west-1', COGNITO_ENDPOINT: standIn.url };
  const config = testConfig(env);
  const idp = new CognitoIdentityProvider(config.idp as never, { now: () => clock });
  t = await createTestApp({
    env,
    idp,
    now: () => clock,
    configure(app) {
      app.get('/test/me', { schema: { response: { 200: Type.Object({ username: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }) } } }, async (request) => ({
        username: request.principal!.username,
        email: request.principal!.email,
      }));
    },
  });
  standIn.addUser({ username: 'cora', password: 'cognito-pass-1', email: 'cora@example.com' });
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

const login = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('IDP=cognito', () => {
  it('logs in through InitiateAuth and accepts the id token, provisioning the user once', async () => {
    const res = await login('cora', 'cognito-pass-1');
    expect(res.statusCode).toBe(200);
    const tokens = res.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const me = await t.app.inject({ method: 'GET', url: '/test/me', headers: { authorization: `Bearer ${tokens.id_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ username: 'cora', email: 'cora@example.com' });
    const rows = await t.database.pool.query("SELECT username, role FROM users WHERE username = 'cora'");
    expect(rows.rows).toEqual([{ username: 'cora', role: 0 }]);
    expect(standIn.calls).toContain('InitiateAuth');
  });

  it('gives the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await login('cora', 'nope-nope');
    const unknown = await login('nobody', 'nope-nope');
    expect([wrong.json().code, unknown.json().code]).toEqual(['auth.invalid_credentials', 'auth.invalid_credentials']);
  });

  it('refuses the access token, and forged tokens, with their own codes', async () => {
    const tokens = (await login('cora', 'cognito-pass-1')).json();
    const access = await t.app.inject({ method: 'GET', url: '/test/me', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(access.json().code).toBe('auth.access_token_not_accepted');
    const wrongAud = await standIn.sign({ aud: 'someone-else' });
    expect((await t.app.inject({ method: 'GET', url: '/test/me', headers: { authorization: `Bearer ${wrongAud}` } })).json().code).toBe('auth.token_audience_invalid');
    const noExp = await standIn.sign({ exp: undefined });
    expect((await t.app.inject({ method: 'GET', url: '/test/me', headers: { authorization: `Bearer ${noExp}` } })).json().code).toBe('auth.token_exp_missing');
  });

  it('refreshes through REFRESH_TOKEN_AUTH', async () => {
    const tokens = (await login('cora', 'cognito-pass-1')).json();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } });
    expect(res.statusCode).toBe(200);
    expect(res.json().id_token).toEqual(expect.any(String));
  });

  it('signs out one sign-in through RevokeToken and every sign-in through GlobalSignOut', async () => {
    standIn.addUser({ username: 'lena', password: 'cognito-pass-2' });
    const logout = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/logout', payload });
    const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    const [phone, laptop, tablet] = [(await login('lena', 'cognito-pass-2')).json(), (await login('lena', 'cognito-pass-2')).json(), (await login('lena', 'cognito-pass-2')).json()];

    const one = await logout({ refreshToken: phone.refresh_token });
    expect([one.statusCode, one.body]).toEqual([204, '']);
    expect(standIn.calls.at(-1)).toBe('RevokeToken');
    expect((await refresh(phone.refresh_token)).json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    expect((await refresh(laptop.refresh_token)).statusCode).toBe(200);

    const everywhere = await logout({ refreshToken: laptop.refresh_token, everywhere: true });
    expect([everywhere.statusCode, everywhere.body]).toEqual([204, '']);
    expect(standIn.calls.slice(-2)).toEqual(['InitiateAuth', 'GlobalSignOut']);
    for (const token of [laptop.refresh_token, tablet.refresh_token]) expect((await refresh(token)).json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    expect((await logout({ refreshToken: laptop.refresh_token, everywhere: true })).json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
  });

  it('refuses a user disabled in Cognito within 60 s (AdminGetUser cache)', async () => {
    const tokens = (await login('cora', 'cognito-pass-1')).json();
    const headers = { authorization: `Bearer ${tokens.id_token}` };
    expect((await t.app.inject({ method: 'GET', url: '/test/me', headers })).statusCode).toBe(200);
    standIn.setEnabled('cora', false);
    // Within the 60 s the cached answer holds …
    clock += 30_000;
    expect((await t.app.inject({ method: 'GET', url: '/test/me', headers })).statusCode).toBe(200);
    // … after them the user is refused.
    clock += 31_000;
    const res = await t.app.inject({ method: 'GET', url: '/test/me', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.user_disabled');
  });
});
