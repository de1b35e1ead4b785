import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeeds } from '../../core/db/seeds.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser } from '../../../test/factories.js';
import { demoSeeds, seeds } from '../../seeds.js';
import { DEMO_EVENT_ID, eventsDemoSeed } from './events.seeds.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo seed', () => {
  it('is applied only with --demo and adds one approved, labelled sample event users can register for, idempotently', async () => {
    expect(demoSeeds).toContain(eventsDemoSeed);
    expect(seeds).not.toContain(eventsDemoSeed);
    const user = await createUser(t);
    expect((await t.app.inject({ method: 'GET', url: `/api/events/${DEMO_EVENT_ID}`, headers: user.headers })).statusCode).toBe(404);
    await applySeeds(t.database.owner.pool, [eventsDemoSeed]);
    await applySeeds(t.database.owner.pool, [eventsDemoSeed], { force: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${DEMO_EVENT_ID}`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Sample event: spring tackle swap meet', type: 'SwapMeet', status: 'Approved', venue: { city: 'Minneapolis', stateCode: 'US-MN' }, capacity: 150 });
    expect(res.json().description).toContain('Not a real event');
    const listed = await t.app.inject({ method: 'GET', url: '/api/events?state=US-MN&type=SwapMeet', headers: user.headers });
    expect(listed.json().map((e: { id: string }) => e.id)).toContain(DEMO_EVENT_ID);
    const registered = await t.app.inject({ method: 'POST', url: `/api/events/${DEMO_EVENT_ID}/register`, headers: user.headers });
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toMatchObject({ registeredCount: 1 });
  });
});
