import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createFishlogClient, memoryTokenStore, ok, type SignOutEvent, type TokenSet, type TokenStore } from '../src/index.js';
import { claimsOf, observedFetch } from './observe.js';

/**
 * Refreshing across a token expiry, against the real server whose local identity provider issues
 * id tokens that live 2 s (IDP_LOCAL_TOKEN_LIFETIME_SECONDS): the real expiry, verified by the
 * server, no clock moved.
 */

const LIFETIME_S = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A memory store that counts the sessions written into it (each login or refresh writes one). */
function countingStore(): TokenStore & { writes: TokenSet[] } {
  const store = memoryTokenStore();
  const writes: TokenSet[] = [];
  return { writes, get: store.get, clear: store.clear, set: (tokens) => (writes.push(tokens), store.set(tokens)) };
}

let t: TestApp;
let base: string;
let jo: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { IDP_LOCAL_TOKEN_LIFETIME_SECONDS: String(LIFETIME_S) } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  jo = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const calls = (fishlog: ReturnType<typeof createFishlogClient>) => [
  fishlog.GET('/api/userprofile/me'),
  fishlog.GET('/api/fishinglog/entries', { params: { query: { mine: true } } }),
  fishlog.GET('/api/fish-species', { params: { query: { q: 'walleye' } } }),
  fishlog.GET('/api/personalbest/me'),
  fishlog.GET('/api/social/friends'),
  fishlog.GET('/api/fishinglog/research-consent'),
];

describe('token expiry', () => {
  it('refreshes once shortly before expiry for parallel calls, then sends the new id token', async () => {
    const store = countingStore();
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, tokenStore: store, fetch: observed.fetch, refreshLeewaySeconds: 0.5 });
    const first = await ok(fishlog.auth.login(jo.username, jo.password));
    expect(first.expiresAt - Date.now()).toBeLessThanOrEqual(LIFETIME_S * 1000);
    await sleep(LIFETIME_S * 1000 - 400); // within the leeway: due, not yet expired

    const results = await Promise.all(calls(fishlog));
    expect(results.map((r) => r.error)).toEqual(results.map(() => undefined));
    const refreshes = observed.exchanges.filter((e) => e.url.pathname === '/api/auth/refresh');
    expect(refreshes).toHaveLength(1);
    expect(store.writes).toHaveLength(2);
    const renewed = store.writes[1]!;
    expect(renewed.idToken).not.toBe(first.idToken);
    const sent = observed.exchanges.filter((e) => e.url.pathname.startsWith('/api/') && !e.url.pathname.startsWith('/api/auth/'));
    expect(sent.map((e) => e.authorization)).toEqual(sent.map(() => `Bearer ${renewed.idToken}`));
    expect(claimsOf(renewed.idToken).token_use).toBe('id');
  });

  it('refreshes once on 401 auth.token_expired (a device clock behind the server) and repeats each call', async () => {
    const store = countingStore();
    const observed = observedFetch();
    const fishlog = createFishlogClient({ baseUrl: base, tokenStore: store, fetch: observed.fetch, refreshLeewaySeconds: 0 });
    const session = await ok(fishlog.auth.login(jo.username, jo.password));
    // The device believes the token lives an hour more; the server knows better.
    await store.set({ ...session, expiresAt: Date.now() + 3_600_000 });
    await sleep(LIFETIME_S * 1000 + 200);

    const results = await Promise.all(calls(fishlog));
    expect(results.map((r) => r.error)).toEqual(results.map(() => undefined));
    expect(results[0]!.data).toMatchObject({ userId: jo.userId });
    const refreshes = observed.exchanges.filter((e) => e.url.pathname === '/api/auth/refresh');
    expect(refreshes).toHaveLength(1);
    const statuses = observed.exchanges.filter((e) => e.url.pathname === '/api/userprofile/me').map((e) => e.status);
    expect(statuses).toEqual([401, 200]);
    expect(store.writes).toHaveLength(3);
  });

  it('signs out and says so when the refresh token was used already (auth.refresh_token_reused)', async () => {
    const events: SignOutEvent[] = [];
    const store = countingStore();
    const fishlog = createFishlogClient({ baseUrl: base, tokenStore: store, onSignOut: (event) => events.push(event), refreshLeewaySeconds: 0.5 });
    const session = await ok(fishlog.auth.login(jo.username, jo.password));
    // Someone else (a copied token store) uses the refresh token; past the server's 10 s grace window,
    // the client presenting it again is a reuse. That use is dated 11 s back in the token's row
    // (the local identity provider stores a SHA-256 of it) rather than waited for.
    const stolen = await fetch(`${base}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: session.refreshToken }) });
    expect(stolen.status).toBe(200);
    const used = await t.database.owner.pool.query(
      `UPDATE idp.refresh_tokens SET used_at = used_at - interval '11 seconds' WHERE token_hash = $1 AND used_at IS NOT NULL`,
      [createHash('sha256').update(session.refreshToken).digest('base64url')],
    );
    expect(used.rowCount).toBe(1);
    await store.set({ ...session, expiresAt: Date.now() - 1_000 }); // and the id token is due, so the next call refreshes

    const { error } = await fishlog.GET('/api/userprofile/me');
    expect(error).toMatchObject({ status: 401, code: 'auth.refresh_token_reused' });
    expect(events).toEqual([{ reason: 'refresh_token_reused', problem: error }]);
    expect(await fishlog.auth.session()).toBeUndefined();
    expect((await fishlog.GET('/api/userprofile/me')).error?.code).toBe('auth.token_missing');
  });
});
