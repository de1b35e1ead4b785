import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeeds } from '../../core/db/seeds.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser } from '../../../test/factories.js';
import { demoSeeds, seeds } from '../../seeds.js';
import { DEMO_CLUB_ID, clubsDemoSeed } from './clubs.seeds.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo seed', () => {
  it('is applied only with --demo and adds one public, labelled sample club with its owner, idempotently; anyone joins at once', async () => {
    expect(demoSeeds).toContain(clubsDemoSeed);
    expect(seeds).not.toContain(clubsDemoSeed);
    const user = await createUser(t);
    await applySeeds(t.database.owner.pool, [clubsDemoSeed]);
    await applySeeds(t.database.owner.pool, [clubsDemoSeed], { force: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/clubs/${DEMO_CLUB_ID}`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Sample Lakes Area Anglers', privacy: 'Public', stateCode: 'US-MN', memberCount: 1 });
    expect(res.json().description).toContain('Not a real club');
    const joined = await t.app.inject({ method: 'POST', url: `/api/clubs/${DEMO_CLUB_ID}/join`, headers: user.headers });
    expect(joined.statusCode).toBeLessThan(300);
    const mine = await t.app.inject({ method: 'GET', url: '/api/clubs/my-clubs', headers: user.headers });
    expect(mine.json().map((c: { id: string }) => c.id)).toContain(DEMO_CLUB_ID);
    const count = await t.database.pool.query('SELECT member_count FROM clubs WHERE id = $1', [DEMO_CLUB_ID]);
    expect(count.rows).toEqual([{ member_count: 2 }]);
  });
});
