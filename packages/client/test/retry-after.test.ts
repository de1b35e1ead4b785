import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createIdentityProvider } from '../../../src/core/auth/idp/index.js';
import type { LocalIdentityProvider } from '../../../src/core/auth/idp/local/local-idp.js';
import { createFishlogClient, FishlogProblem } from '../src/index.js';
import { observedFetch } from './observe.js';

/**
 * Retry-After against the real server: one password check at a time and none waiting
 * (FISHLOG_HASH_CONCURRENCY=1, FISHLOG_HASH_QUEUE=0), so parallel sign-ins get
 * 503 auth.busy with `Retry-After: 2`; failed sign-ins lock the username (429, 30 s). A test that
 * needs the 503 first occupies that one slot with a hash of its own (`occupy`), so the sign-ins
 * sent meanwhile are refused whatever their timing.
 */

const HASHING = { FISHLOG_HASH_CONCURRENCY: '1', FISHLOG_HASH_QUEUE: '0' };
let owner: TestApp;
let idp: LocalIdentityProvider;
let t: TestApp;
let base: string;
const users: TestUser[] = [];
beforeAll(async () => {
  // The served app's identity provider is made here, so that a test can reach its hashing queue.
  owner = await createTestApp();
  idp = (await createIdentityProvider(testConfig({ DATABASE_URL: owner.testDatabase.url, ...HASHING }), owner.database.db)) as LocalIdentityProvider;
  t = await createTestApp({ sameDatabaseAs: owner, idp, env: HASHING });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 6; i++) users.push(await createUser(t));
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
  await owner?.close();
});

/** Holds the app's only hashing slot for a few hundred milliseconds (one hash at a high cost). */
const occupy = () => idp.hashing.hash('occupies-the-slot', 14);

it('waits for Retry-After on a 503 and repeats the call', async () => {
  const observed = observedFetch();
  const occupied = occupy();
  const signIns = users.map((user) => createFishlogClient({ baseUrl: base, fetch: observed.fetch, maxRetries: 5 }).auth.login(user.username, user.password));
  const results = await Promise.all(signIns);
  await occupied;
  expect(results.map((r) => r.error)).toEqual(users.map(() => undefined));
  const statuses = observed.exchanges.map((e) => e.status);
  expect(statuses).toContain(503);
  expect(statuses.filter((s) => s === 200)).toHaveLength(users.length);
});

it('answers a Retry-After longer than it waits for as the problem, retryAfter set', async () => {
  const observed = observedFetch();
  const occupied = occupy();
  const signIns = users.map((user) => createFishlogClient({ baseUrl: base, fetch: observed.fetch, maxRetryAfterSeconds: 1 }).auth.login(user.username, user.password));
  const results = await Promise.all(signIns);
  await occupied;
  const busy = results.filter((r) => r.error);
  expect(busy.length).toBeGreaterThan(0);
  for (const { error } of busy) {
    expect(error).toBeInstanceOf(FishlogProblem);
    expect(error).toMatchObject({ status: 503, code: 'auth.busy', retryAfter: 2 });
  }
  expect(observed.exchanges).toHaveLength(users.length);
});

it('answers a 429 whose Retry-After is longer than it waits for at once, as the problem', async () => {
  const [user] = users;
  const observed = observedFetch();
  const fishlog = createFishlogClient({ baseUrl: base, fetch: observed.fetch, maxRetryAfterSeconds: 5 });
  const answers = [];
  for (let i = 0; i < 6; i++) answers.push((await fishlog.auth.login(user!.username, 'wrong password')).error);
  expect(answers.slice(0, 5).map((e) => e?.code)).toEqual(Array(5).fill('auth.invalid_credentials'));
  expect(answers[5]).toMatchObject({ status: 429, code: 'auth.login_throttled' });
  expect(answers[5]!.retryAfter).toBeGreaterThan(5);
  expect(answers[5]!.retryAfter).toBeLessThanOrEqual(30);
  expect(observed.exchanges.map((e) => e.status)).toEqual([401, 401, 401, 401, 401, 429]);
});
