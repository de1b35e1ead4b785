import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SignJWT, decodeJwt, decodeProtectedHeader, importPKCS8 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { KeyStore, rotateSigningKey } from '../../core/auth/idp/local/keys.js';
import { localIssuer } from '../../core/auth/idp/local/local-idp.js';
import { createIdpUser, deleteIdpUser, resetIdpPassword, setIdpUserEnabled } from '../../core/auth/idp/local/local-users.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, login, type TestUser } from '../../../test/factories.js';

let t: TestApp;
let alice: TestUser;

const probe = (app: TestApp['app']) => {
  app.get(
    '/test/me',
    { schema: { response: { 200: Type.Object({ userId: Type.String(), username: Type.String(), role: Type.Integer() }) } } },
    async (request) => ({ userId: request.principal!.userId, username: request.principal!.username, role: request.principal!.role }),
  );
};

beforeAll(async () => {
  t = await createTestApp({ configure: probe });
  alice = await createUser(t, { username: 'Alice_Angler' });
});
afterAll(async () => {
  await t?.close();
});

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/test/me', headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const userCount = async () => (await t.database.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n as number;

async function signWithRealKey(claims: Record<string, unknown>, options: { kid?: string; alg?: string } = {}) {
  const key = await new KeyStore(t.database.db, undefined).signingKey();
  return new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? key.kid }).sign(key.privateKey);
}

function idClaims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: randomUUID(),
    aud: t.config.idp.kind === 'local' ? t.config.idp.clientId : '',
    iss: t.config.idp.kind === 'local' ? localIssuer(t.config.idp.poolId) : '',
    token_use: 'id',
    'cognito:username': 'mallory',
    email: 'mallory@example.com',
    iat: now,
    exp: now + 600,
    ...overrides,
  };
}

describe('POST /api/auth/login', () => {
  it('returns Cognito-shaped tokens', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: alice.username, password: alice.password } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const id = decodeJwt(body.id_token);
    const access = decodeJwt(body.access_token);
    const header = decodeProtectedHeader(body.id_token);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(id).toMatchObject({
      token_use: 'id',
      sub: alice.sub,
      aud: 'fishlog-local-client',
      email: alice.email,
      email_verified: true,
      'cognito:username': alice.username,
      iss: 'urn:fishlog:idp:local_fishlog',
    });
    for (const claim of ['iat', 'exp', 'auth_time', 'jti']) expect(id).toHaveProperty(claim);
    expect((id.exp as number) - (id.iat as number)).toBe(3600);
    expect(access).toMatchObject({ token_use: 'access', client_id: 'fishlog-local-client', username: alice.username, scope: expect.any(String) });
    expect(access).not.toHaveProperty('aud');
    expect((access.exp as number) - (access.iat as number)).toBe(3600);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('matches the username case-insensitively', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'alice_angler', password: alice.password } });
    expect(res.statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: alice.username, password: 'not-the-password' }, remoteAddress: '10.0.0.1' });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody-here', password: 'whatever1' }, remoteAddress: '10.0.0.1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
    expect(wrong.json().code).toBe('auth.invalid_credentials');
  });

  it('says an account is disabled only after the right password', async () => {
    const bob = await createUser(t);
    await setIdpUserEnabled(t.database.db, bob.username, false);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: bob.username, password: 'wrong-password' }, remoteAddress: '10.0.0.2' });
    expect(wrong.json().code).toBe('auth.invalid_credentials');
    const right = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: bob.username, password: bob.password } });
    expect(right.statusCode).toBe(401);
    expect(right.json()).toMatchObject({ code: 'auth.user_disabled', detail: expect.stringContaining('disabled') });
  });

  it('refuses an unconfirmed account with its own code', async () => {
    await createIdpUser(t.database.db, 10, { username: 'newbie', email: 'newbie@example.com', password: 'password-1', confirmed: false });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'newbie', password: 'password-1' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.user_not_confirmed');
  });

  it('validates the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ pointer: '/password', in: 'body', detail: 'is required' }]);
    const extra = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'x', password: 'y', role: 'Owner' } });
    expect(extra.statusCode).toBe(400);
  });

  it('throttles repeated failures per username and IP with 429 and Retry-After, without locking out other IPs', async () => {
    const carol = await createUser(t);
    const attempt = (password: string, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: carol.username, password }, remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await attempt('bad-password', '198.51.100.7')).statusCode).toBe(401);
    const locked = await attempt(carol.password, '198.51.100.7');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('auth.login_throttled');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The real user on their own network still gets in.
    expect((await attempt(carol.password, '203.0.113.9')).statusCode).toBe(200);
    // The lock ends: once it has expired, the right password works again from that IP.
    await t.database.pool.query("UPDATE login_throttle SET locked_until = now() - interval '1 second' WHERE key LIKE $1", [`%${carol.username.toLowerCase()}%`]);
    expect((await attempt(carol.password, '198.51.100.7')).statusCode).toBe(200);
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh token and returns the login shape', async () => {
    const tokens = await login(t, alice.username, alice.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(body.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(body.id_token).sub).toBe(alice.sub);
    expect((await me(bearer(body.id_token))).statusCode).toBe(200);
  });

  it('tolerates a concurrent double refresh (grace window) without logging the user out', async () => {
    const tokens = await login(t, alice.username, alice.password);
    const [a, b] = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } })),
    );
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    // Both descendants keep working.
    for (const res of [a!, b!]) {
      const next = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: res.json().refresh_token } });
      expect(next.statusCode).toBe(200);
    }
  });

  it('revokes the whole family when a used refresh token comes back after the grace window', async () => {
    const tokens = await login(t, alice.username, alice.password);
    const first = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } });
    expect(first.statusCode).toBe(200);
    await t.database.db.execute(sql`UPDATE idp.refresh_tokens SET used_at = now() - interval '1 minute' WHERE used_at IS NOT NULL`);
    const reused = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('auth.refresh_token_reused');
    // The descendant issued to the legitimate client is revoked too.
    const descendant = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.json().refresh_token } });
    expect(descendant.statusCode).toBe(401);
    expect(descendant.json().code).toBe('auth.refresh_token_invalid');
  });

  it('refuses unknown tokens and a disabled user', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: 'not-a-real-token' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('auth.refresh_token_invalid');
    const dave = await createUser(t);
    await setIdpUserEnabled(t.database.db, dave.username, false);
    const disabled = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: dave.refreshToken } });
    expect(disabled.json().code).toBe('auth.user_disabled');
  });

  it('is ended for every session by reset-password', async () => {
    const erin = await createUser(t);
    const { password, revoked } = await resetIdpPassword(t.database.db, 10, erin.username);
    expect(revoked).toBeGreaterThan(0);
    expect(password).toHaveLength(20);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: erin.refreshToken } });
    expect(res.json().code).toBe('auth.refresh_token_invalid');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: erin.username, password } })).statusCode).toBe(200);
  });
});

describe('bearer token verification (attack suite)', () => {
  it('accepts the id token and provisions the User from its claims', async () => {
    const res = await me(alice.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userId: alice.userId, username: alice.username, role: 0 });
  });

  const attacks: Array<[string, () => Promise<Record<string, string>>, string]> = [
    ['no header', async () => ({}), 'auth.token_missing'],
    ['not a bearer token', async () => ({ authorization: 'Basic dXNlcjpwYXNz' }), 'auth.token_malformed'],
    ['garbage', async () => bearer('abc.def'), 'auth.token_malformed'],
    ['alg none', async () => {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      return bearer(`${enc({ alg: 'none', typ: 'JWT' })}.${enc(idClaims())}.`);
    }, 'auth.token_algorithm_not_allowed'],
    ['HS256 signed with the public key', async () => {
      const key = await new KeyStore(t.database.db, undefined).signingKey();
      const jwks = await new KeyStore(t.database.db, undefined).jwks();
      const publicPem = createPublicKey({ key: jwks.find((k) => k.kid === key.kid) as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
      const token = await new SignJWT(idClaims()).setProtectedHeader({ alg: 'HS256', kid: key.kid }).sign(Buffer.from(publicPem as string));
      return bearer(token);
    }, 'auth.token_algorithm_not_allowed'],
    ['wrong signature', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      const kid = decodeProtectedHeader(alice.idToken).kid!;
      return bearer(await new SignJWT(idClaims()).setProtectedHeader({ alg: 'RS256', kid }).sign(await importPKCS8(pem, 'RS256')));
    }, 'auth.token_signature_invalid'],
    ['tampered payload', async () => {
      const [h, p, s] = alice.idToken.split('.');
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
      payload['cognito:username'] = 'admin';
      return bearer(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`);
    }, 'auth.token_signature_invalid'],
    ['unknown kid', async () => bearer(await signWithRealKey(idClaims(), { kid: 'no-such-key' })), 'auth.token_key_unknown'],
    ['expired', async () => bearer(await signWithRealKey(idClaims({ iat: 1_700_000_000, exp: 1_700_003_600 }))), 'auth.token_expired'],
    ['no exp', async () => bearer(await signWithRealKey(idClaims({ exp: undefined }))), 'auth.token_exp_missing'],
    ['wrong aud', async () => bearer(await signWithRealKey(idClaims({ aud: 'another-client' }))), 'auth.token_audience_invalid'],
    ['wrong iss', async () => bearer(await signWithRealKey(idClaims({ iss: 'https://evil.example/pool' }))), 'auth.token_issuer_invalid'],
    ['no token_use', async () => bearer(await signWithRealKey(idClaims({ token_use: undefined }))), 'auth.token_claims_invalid'],
    ['access token instead of id token', async () => bearer(alice.accessToken), 'auth.access_token_not_accepted'],
    ['valid signature, unknown user', async () => bearer(await signWithRealKey(idClaims())), 'auth.user_not_found'],
  ];

  it.each(attacks)('refuses %s with 401 and its own code, creating no user', async (_name, headers, code) => {
    const before = await userCount();
    const res = await me(await headers());
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.json()).toMatchObject({ status: 401, code });
    expect(await userCount()).toBe(before);
  });

  it('tells the caller to send the id_token when given the access token', async () => {
    const res = await me(bearer(alice.accessToken));
    expect(res.json().detail).toContain('id_token');
  });

  it('refuses a deleted user on the next request, even with a cached principal', async () => {
    const frank = await createUser(t);
    expect((await me(frank.headers)).statusCode).toBe(200);
    await deleteIdpUser(t.database.db, frank.username);
    await expect.poll(async () => (await me(frank.headers)).json().code, { timeout: 3000 }).toBe('auth.user_not_found');
  });

  it('refuses a disabled user on the next request, and lets them back when enabled', async () => {
    const gina = await createUser(t);
    expect((await me(gina.headers)).statusCode).toBe(200);
    await setIdpUserEnabled(t.database.db, gina.username, false);
    await expect.poll(async () => (await me(gina.headers)).json().code, { timeout: 3000 }).toBe('auth.user_disabled');
    await setIdpUserEnabled(t.database.db, gina.username, true);
    await expect.poll(async () => (await me(gina.headers)).statusCode, { timeout: 3000 }).toBe(200);
  });

  it('creates exactly one User under concurrent first requests', async () => {
    const idpUser = await createIdpUser(t.database.db, 10, { username: 'hank_first', email: 'hank@example.com', password: 'password-1' });
    const tokens = await login(t, 'hank_first', 'password-1');
    const results = await Promise.all(Array.from({ length: 12 }, () => me(bearer(tokens.id_token))));
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(new Set(results.map((r) => r.json().userId)).size).toBe(1);
    const rows = await t.database.pool.query('SELECT username, email, role FROM users WHERE sub = $1', [idpUser.sub]);
    expect(rows.rows).toEqual([{ username: 'hank_first', email: 'hank@example.com', role: 0 }]);
  });
});

describe('signing key rotation', () => {
  it('signs new tokens with the new key while tokens of the old key stay valid', async () => {
    const before = await login(t, alice.username, alice.password);
    const oldKid = decodeProtectedHeader(before.id_token).kid;
    const { kid, retired } = await rotateSigningKey(t.database.db, undefined);
    expect(retired).toContain(oldKid);
    // Another process (a fresh app on the same database) signs with the new key …
    const other = await createTestApp({ sameDatabaseAs: t });
    let fresh: string;
    try {
      const res = await other.app.inject({ method: 'POST', url: `/api/auth/login`, payload: { username: alice.username, password: alice.password } });
      expect(res.json()).toHaveProperty('id_token');
      fresh = res.json().id_token;
    } finally {
      await other.close();
    }
    expect(decodeProtectedHeader(fresh).kid).toBe(kid);
    // … and this process verifies both the new key's token and the old one's.
    expect((await me(bearer(fresh))).statusCode).toBe(200);
    expect((await me(bearer(before.id_token))).statusCode).toBe(200);
  });
});
