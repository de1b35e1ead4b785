import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64url, decodeJwt, SignJWT } from 'jose';
import type { CognitoIdpConfig } from '../../../../config.js';
import { startCognitoStandIn, type CognitoStandIn } from '../../../../../test/cognito-stand-in.js';
import { AppError } from '../../../http/problem.js';
import { CognitoIdentityProvider, secretHash, type CognitoIdentityProviderOptions } from './cognito-idp.js';

/** The error a promise rejects with, asserted to be an AppError. */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

async function expectCode(promise: Promise<unknown>, code: string, status = 401): Promise<void> {
  const error = await failure(promise);
  expect({ status: error.status, code: error.code }).toEqual({ status, code });
}

function configFor(standIn: CognitoStandIn, overrides: Partial<CognitoIdpConfig> = {}): CognitoIdpConfig {
  return {
    kind: 'cognito',
    userPoolId: standIn.poolId,
    clientId: standIn.clientId,
    clientSecret: standIn.clientSecret,
    region: standIn.region,
    endpoint: standIn.url,
    ...overrides,
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('CognitoIdentityProvider against the loopback stand-in', () => {
  let standIn: CognitoStandIn;
  let idp: CognitoIdentityProvider;
  const providers: CognitoIdentityProvider[] = [];

  function provider(overrides: Partial<CognitoIdpConfig> = {}, options: CognitoIdentityProviderOptions = { jwks: standIn.jwks }) {
    const created = new CognitoIdentityProvider(configFor(standIn, overrides), options);
    providers.push(created);
    return created;
  }

  beforeAll(async () => {
    standIn = await startCognitoStandIn();
    standIn.addUser({ username: 'angler', password: 'correct horse battery', email: 'angler@example.test' });
    standIn.addUser({ username: 'banned', password: 'banned password', enabled: false });
    standIn.addUser({ username: 'newbie', password: 'newbie password', confirmed: false });
    standIn.addUser({ username: 'fresh', password: 'fresh password', challenge: 'NEW_PASSWORD_REQUIRED' });
    standIn.addUser({ username: 'reset', password: 'reset password', passwordResetRequired: true });
    idp = provider();
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await standIn?.close();
  });

  describe('login', () => {
    it('returns Cognito tokens with the id token claims of the user', async () => {
      const tokens = await idp.login('angler', 'correct horse battery');
      expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const id = decodeJwt(tokens.id_token);
      expect(id).toMatchObject({ token_use: 'id', aud: standIn.clientId, iss: standIn.issuer, 'cognito:username': 'angler', email: 'angler@example.test' });
      const access = decodeJwt(tokens.access_token);
      expect(access).toMatchObject({ token_use: 'access', client_id: standIn.clientId, username: 'angler', sub: id.sub });
      expect(access.aud).toBeUndefined();
    });

    it('answers a wrong password and an unknown user alike', async () => {
      await expectCode(idp.login('angler', 'wrong password'), 'auth.invalid_credentials');
      await expectCode(idp.login('nobody', 'whatever password'), 'auth.invalid_credentials');
    });

    it('tells a disabled account apart', async () => {
      await expectCode(idp.login('banned', 'banned password'), 'auth.user_disabled');
    });

    it('tells an unconfirmed account apart', async () => {
      await expectCode(idp.login('newbie', 'newbie password'), 'auth.user_not_confirmed');
    });

    it('refuses a challenge it cannot complete, naming it', async () => {
      const error = await failure(idp.login('fresh', 'fresh password'));
      expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: 'auth.challenge_required' });
      expect(error.detail).toContain('NEW_PASSWORD_REQUIRED');
    });

    it('tells a required password reset apart', async () => {
      await expectCode(idp.login('reset', 'reset password'), 'auth.password_reset_required');
    });

    it('answers 503 when Cognito fails', async () => {
      standIn.fail('InitiateAuth', { type: 'InternalErrorException', status: 500 });
      try {
        await expectCode(idp.login('angler', 'correct horse battery'), 'auth.provider_unavailable', 503);
        standIn.fail('InitiateAuth', { type: 'TooManyRequestsException', status: 400 });
        await expectCode(idp.login('angler', 'correct horse battery'), 'auth.provider_unavailable', 503);
      } finally {
        standIn.fail('InitiateAuth', undefined);
      }
    });
  });

  describe('refresh', () => {
    it('issues new tokens and keeps the refresh token Cognito did not rotate', async () => {
      const login = await idp.login('angler', 'correct horse battery');
      const refreshed = await idp.refresh(login.refresh_token);
      expect(refreshed.refresh_token).toBe(login.refresh_token);
      expect(refreshed.id_token).not.toBe(login.id_token);
      expect(decodeJwt(refreshed.id_token)['cognito:username']).toBe('angler');
    });

    it('refuses an unknown refresh token', async () => {
      await expectCode(idp.refresh('not-a-refresh-token'), 'auth.refresh_token_invalid');
    });
  });

  describe('signOut', () => {
    const since = (mark: number) => standIn.calls.slice(mark);

    it('revokes one sign-in with RevokeToken; another sign-in of the user still refreshes', async () => {
      standIn.addUser({ username: 'leaver', password: 'leaver password' });
      const phone = await idp.login('leaver', 'leaver password');
      const laptop = await idp.login('leaver', 'leaver password');
      const mark = standIn.calls.length;
      await idp.signOut(phone.refresh_token, { everywhere: false });
      expect(since(mark)).toEqual(['RevokeToken']);
      await expectCode(idp.refresh(phone.refresh_token), 'auth.refresh_token_invalid');
      await expect(idp.refresh(laptop.refresh_token)).resolves.toMatchObject({ refresh_token: laptop.refresh_token });
    });

    it('answers a token Cognito does not know, or cannot read, as signed out already', async () => {
      await expect(idp.signOut('not-a-refresh-token', { everywhere: false })).resolves.toBeUndefined();
      await expect(idp.signOut('not a token at all!', { everywhere: false })).resolves.toBeUndefined();
    });

    it('signs out everywhere with GlobalSignOut, by an access token got for the refresh token', async () => {
      standIn.addUser({ username: 'everywhere', password: 'everywhere password' });
      standIn.addUser({ username: 'bystander', password: 'bystander password' });
      const sessions = [await idp.login('everywhere', 'everywhere password'), await idp.login('everywhere', 'everywhere password')];
      const other = await idp.login('bystander', 'bystander password');
      const mark = standIn.calls.length;
      await idp.signOut(sessions[0]!.refresh_token, { everywhere: true });
      expect(since(mark)).toEqual(['InitiateAuth', 'GlobalSignOut']);
      for (const session of sessions) await expectCode(idp.refresh(session.refresh_token), 'auth.refresh_token_invalid');
      await expect(idp.refresh(other.refresh_token)).resolves.toMatchObject({ token_type: 'Bearer' });
    });

    it('cannot tell whose sign-ins to end from a token Cognito refuses', async () => {
      await expectCode(idp.signOut('not-a-refresh-token', { everywhere: true }), 'auth.refresh_token_invalid');
    });

    it('answers 503 when Cognito fails or token revocation is not enabled for the client, so the token is not taken for revoked', async () => {
      standIn.addUser({ username: 'outage', password: 'outage password' });
      const tokens = await idp.login('outage', 'outage password');
      try {
        standIn.fail('RevokeToken', { type: 'InternalErrorException', status: 500 });
        await expectCode(idp.signOut(tokens.refresh_token, { everywhere: false }), 'auth.provider_unavailable', 503);
        standIn.fail('RevokeToken', { type: 'UnsupportedOperationException' });
        await expectCode(idp.signOut(tokens.refresh_token, { everywhere: false }), 'auth.provider_unavailable', 503);
        standIn.fail('GlobalSignOut', { type: 'TooManyRequestsException' });
        await expectCode(idp.signOut(tokens.refresh_token, { everywhere: true }), 'auth.provider_unavailable', 503);
      } finally {
        standIn.fail('RevokeToken', undefined);
        standIn.fail('GlobalSignOut', undefined);
      }
      await expect(idp.refresh(tokens.refresh_token)).resolves.toMatchObject({ token_type: 'Bearer' });
    });
  });

  describe('with a client secret', () => {
    let secretStandIn: CognitoStandIn;

    beforeAll(async () => {
      secretStandIn = await startCognitoStandIn({ clientSecret: 'stand-in-client-secret', poolId: 'eu-west-1_Secret1' });
      secretStandIn.addUser({ username: 'Angler', password: 'correct horse battery' });
    });

    afterAll(async () => {
      await secretStandIn?.close();
    });

    function secretProvider(clientSecret: string | undefined) {
      const created = new CognitoIdentityProvider(configFor(secretStandIn, { clientSecret }), { jwks: secretStandIn.jwks });
      providers.push(created);
      return created;
    }

    it('computes SECRET_HASH as Cognito documents it', () => {
      // base64(HMAC-SHA256(key = secret, message = username + client id)), checked independently.
      expect(secretHash('key', 'user', 'client')).toBe('YwFvZ4loYJ8AoBhNXIih/Y38DF2IP6/Lq768LwhOvJ0=');
    });

    it('logs in and refreshes with the right secret', async () => {
      const withSecret = secretProvider('stand-in-client-secret');
      const tokens = await withSecret.login('Angler', 'correct horse battery');
      const refreshed = await withSecret.refresh(tokens.refresh_token);
      expect(decodeJwt(refreshed.id_token)['cognito:username']).toBe('Angler');
    });

    it('fails with a wrong secret or none', async () => {
      await expectCode(secretProvider('wrong-secret').login('Angler', 'correct horse battery'), 'auth.invalid_credentials');
      await expectCode(secretProvider(undefined).login('Angler', 'correct horse battery'), 'auth.invalid_credentials');
    });

    it('revokes a refresh token with the client secret, and signs out everywhere', async () => {
      const withSecret = secretProvider('stand-in-client-secret');
      const one = await withSecret.login('Angler', 'correct horse battery');
      await withSecret.signOut(one.refresh_token, { everywhere: false });
      await expectCode(withSecret.refresh(one.refresh_token), 'auth.refresh_token_invalid');
      const [a, b] = [await withSecret.login('Angler', 'correct horse battery'), await withSecret.login('Angler', 'correct horse battery')];
      await withSecret.signOut(a.refresh_token, { everywhere: true });
      await expectCode(withSecret.refresh(b.refresh_token), 'auth.refresh_token_invalid');
    });

    it('cannot refresh a token whose username it never saw (documented limitation)', async () => {
      const tokens = await secretProvider('stand-in-client-secret').login('Angler', 'correct horse battery');
      await expectCode(secretProvider('stand-in-client-secret').refresh(tokens.refresh_token), 'auth.refresh_token_invalid');
    });
  });

  describe('verifyIdToken', () => {
    it('accepts an id token and returns its identity', async () => {
      const tokens = await idp.login('angler', 'correct horse battery');
      const id = decodeJwt(tokens.id_token);
      await expect(idp.verifyIdToken(tokens.id_token)).resolves.toEqual({ sub: id.sub, username: 'angler', email: 'angler@example.test', exp: id.exp, iat: id.iat, authTime: id.auth_time });
    });

    it('downloads the JWKS from the configured endpoint when none is pinned', async () => {
      const fetching = provider({}, {});
      const tokens = await fetching.login('angler', 'correct horse battery');
      await expect(fetching.verifyIdToken(tokens.id_token)).resolves.toMatchObject({ username: 'angler' });
      await expectCode(fetching.verifyIdToken(await standIn.sign({}, { kid: 'rotated-away' })), 'auth.token_key_unknown');
    });

    it('refuses an access token with its own code', async () => {
      const tokens = await idp.login('angler', 'correct horse battery');
      await expectCode(idp.verifyIdToken(tokens.access_token), 'auth.access_token_not_accepted');
    });

    it('refuses an expired token', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({ iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 })), 'auth.token_expired');
    });

    it('refuses a token without exp', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({ exp: undefined })), 'auth.token_exp_missing');
    });

    it('refuses a token for another client', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({ aud: 'another-client' })), 'auth.token_audience_invalid');
    });

    it('refuses a token of another issuer', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({ iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other' })), 'auth.token_issuer_invalid');
      await expectCode(idp.verifyIdToken(await standIn.sign({ iss: undefined })), 'auth.token_issuer_invalid');
    });

    it('refuses a tampered payload', async () => {
      const [header, , signature] = (await standIn.sign()).split('.');
      const forged = base64url.encode(JSON.stringify({ ...decodeJwt(await standIn.sign()), 'cognito:username': 'admin' }));
      await expectCode(idp.verifyIdToken(`${header}.${forged}.${signature}`), 'auth.token_signature_invalid');
    });

    it('refuses alg none', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: standIn.kid }));
      const payload = base64url.encode(JSON.stringify(decodeJwt(await standIn.sign())));
      for (const token of [`${header}.${payload}.`, `${header}.${payload}.c2lnbmF0dXJl`]) {
        const error = await failure(idp.verifyIdToken(token));
        expect(error.status).toBe(401);
        expect(error.code).toMatch(/^auth\.token_/);
      }
      await expectCode(idp.verifyIdToken(`${header}.${payload}.c2lnbmF0dXJl`), 'auth.token_algorithm_not_allowed');
    });

    it('refuses HS256 keyed with the public key', async () => {
      const claims = decodeJwt(await standIn.sign());
      const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: standIn.kid, typ: 'JWT' }).sign(new TextEncoder().encode(standIn.publicKeyPem));
      const error = await failure(idp.verifyIdToken(token));
      expect(error.status).toBe(401);
      expect(error.code).toBe('auth.token_algorithm_not_allowed');
    });

    it('refuses an unknown kid without going to the network', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({}, { kid: 'unknown-kid' })), 'auth.token_key_unknown');
    });

    it('refuses a token without kid or with a broken shape as malformed', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({}, { kid: undefined })), 'auth.token_malformed');
      await expectCode(idp.verifyIdToken('not.a.jwt'), 'auth.token_malformed');
    });

    it('refuses a token of the right pool whose token_use is neither id nor access', async () => {
      await expectCode(idp.verifyIdToken(await standIn.sign({ token_use: 'refresh' })), 'auth.token_claims_invalid');
    });
  });

  describe('userStatus and findUser', () => {
    it('reports an enabled user, and an unknown one as not existing', async () => {
      const user = standIn.addUser({ username: 'status-known', password: 'status password', email: 'known@example.test' });
      await expect(idp.userStatus({ sub: user.sub, username: 'status-known' })).resolves.toEqual({
        exists: true,
        enabled: true,
        username: 'status-known',
        email: 'known@example.test',
        checkedAt: expect.any(Number),
      });
      await expect(idp.userStatus({ sub: 'b6f4f3a6-0000-4000-8000-000000000000', username: 'status-nobody' })).resolves.toEqual({
        exists: false,
        enabled: false,
        checkedAt: expect.any(Number),
      });
    });

    it('treats a user re-created under the same username as another user', async () => {
      standIn.addUser({ username: 'status-recreated', password: 'status password' });
      await expect(idp.userStatus({ sub: 'b6f4f3a6-1111-4000-8000-000000000000', username: 'status-recreated' })).resolves.toMatchObject({ exists: false });
    });

    it('caches per sub for 60 s, so a disable is seen only after expiry, with one AdminGetUser per period', async () => {
      let now = 1_000_000;
      const clocked = provider({}, { jwks: standIn.jwks, now: () => now });
      const user = standIn.addUser({ username: 'status-cached', password: 'status password' });
      const claims = { sub: user.sub, username: 'status-cached' };
      const before = standIn.calls.filter((c) => c === 'AdminGetUser').length;

      await expect(clocked.userStatus(claims)).resolves.toMatchObject({ exists: true, enabled: true });
      standIn.setEnabled('status-cached', false);
      now += 59_000;
      await expect(clocked.userStatus(claims)).resolves.toMatchObject({ enabled: true });
      expect(standIn.calls.filter((c) => c === 'AdminGetUser').length - before).toBe(1);

      now += 2_000;
      await expect(clocked.userStatus(claims)).resolves.toMatchObject({ exists: true, enabled: false });
      expect(standIn.calls.filter((c) => c === 'AdminGetUser').length - before).toBe(2);
    });

    it('keeps answering from a stale entry for up to 5 minutes while Cognito fails, then answers 503', async () => {
      let now = 5_000_000;
      const clocked = provider({}, { jwks: standIn.jwks, now: () => now });
      const user = standIn.addUser({ username: 'status-outage', password: 'status password' });
      const claims = { sub: user.sub, username: 'status-outage' };
      await clocked.userStatus(claims);
      standIn.fail('AdminGetUser', { type: 'InternalErrorException', status: 500 });
      try {
        now += 120_000;
        await expect(clocked.userStatus(claims)).resolves.toMatchObject({ exists: true, enabled: true });
        now += 200_000;
        await expectCode(clocked.userStatus(claims), 'auth.provider_unavailable', 503);
        await expectCode(clocked.userStatus({ sub: 'b6f4f3a6-2222-4000-8000-000000000000', username: 'status-never-seen' }), 'auth.provider_unavailable', 503);
      } finally {
        standIn.fail('AdminGetUser', undefined);
      }
    });

    it('finds a user by username', async () => {
      const user = standIn.addUser({ username: 'findable', password: 'find password', email: 'findable@example.test' });
      await expect(idp.findUser('findable')).resolves.toEqual({ sub: user.sub, username: 'findable', email: 'findable@example.test' });
      await expect(idp.findUser('not-findable')).resolves.toBeUndefined();
    });
  });
});
