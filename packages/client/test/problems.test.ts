import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { banUser, createClub, createUser, type TestUser } from '../../../test/factories.js';
import { createFishlogClient, type paths, type ProblemBody, type ProblemStatus } from '../src/index.js';

/**
 * The answers every signed-in operation can give — a banned caller's 403, maintenance's 503 — are
 * in the document (shared components.responses), so in the client's types, and come back as
 * FishlogProblem values.
 */

let t: TestApp;
let base: string;
let owner: TestUser;
let banned: TestUser;
let angler: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, banned, angler] = await Promise.all([createUser(t, { role: 'Owner' }), createUser(t), createUser(t)]);
  await banUser(t, owner, banned, { reason: 'Spamming the feed' });
});
afterAll(async () => {
  await t?.close();
});

const signedIn = async (user: TestUser) => {
  const fishlog = createFishlogClient({ baseUrl: base, maxRetries: 0 });
  expect((await fishlog.auth.login(user.username, user.password)).error).toBeUndefined();
  return fishlog;
};

describe('problems every signed-in operation can answer', () => {
  it('are typed: 401, 403, 429, 503 and 500 are problem+json statuses of any operation, 503 with Retry-After', () => {
    expectTypeOf<ProblemStatus<'/api/clubs/{id}/join', 'post'>>().toEqualTypeOf<400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503>();
    expectTypeOf<ProblemStatus<'/api/fish-species', 'get'>>().toEqualTypeOf<400 | 401 | 403 | 429 | 500 | 503>();
    expectTypeOf<paths['/api/clubs/{id}/join']['post']['responses'][403]['content']['application/problem+json']>().toEqualTypeOf<ProblemBody>();
    expectTypeOf<paths['/api/fish-species']['get']['responses'][503]['content']['application/problem+json']>().toEqualTypeOf<ProblemBody>();
    expectTypeOf<paths['/api/fish-species']['get']['responses'][503]['headers']['Retry-After']>().toEqualTypeOf<number>();
    // A public operation that maintenance leaves open declares no maintenance 503.
    expectTypeOf<ProblemStatus<'/health/live', 'get'>>().toEqualTypeOf<429 | 500>();
  });

  it('a banned caller gets FishlogProblem 403 auth.banned', async () => {
    const club = await createClub(t, owner);
    const fishlog = await signedIn(banned);
    const { data, error } = await fishlog.POST('/api/clubs/{id}/join', { params: { path: { id: club.id } } });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ name: 'FishlogProblem', status: 403, code: 'auth.banned' });
    expect(error!.detail).toContain('Read your ban with GET /api/bans/me');
  });

  it('during maintenance, a FishlogProblem 503 system.maintenance with its Retry-After (longer than the client waits)', async () => {
    const fishlog = await signedIn(angler);
    const on = await t.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value: true, reason: 'database upgrade' } });
    expect(on.statusCode).toBe(200);
    try {
      const { error } = await fishlog.GET('/api/fish-species', { params: { query: { pageSize: 1 } } });
      expect(error).toMatchObject({ status: 503, code: 'system.maintenance', retryAfter: 300 });
    } finally {
      const off = await t.app.inject({ method: 'PUT', url: '/api/admin/system-settings/MaintenanceMode', headers: owner.headers, payload: { value: false, reason: 'done' } });
      expect(off.statusCode).toBe(200);
    }
    expect((await fishlog.GET('/api/fish-species', { params: { query: { pageSize: 1 } } })).error).toBeUndefined();
  });
});
