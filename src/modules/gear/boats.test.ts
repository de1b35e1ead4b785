import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID } from '../../../test/factories.js';

let t: TestApp;
let jo: TestUser;
let sam: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  jo = await createUser(t);
  sam = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

const lund = { name: 'Old Faithful', make: 'Lund', model: '1875 Crossover XS', year: 2021, lengthCm: 571.5, hullType: 'Modified-V', hullMaterial: 'Aluminum', motor: 'Mercury 150 FourStroke', horsepower: 150, homeWater: 'Lake of the Woods' };

describe('boats', () => {
  it('creates a boat for the caller and lists only their own boats, by name', async () => {
    const created = await call('POST', '/api/gear/boats', jo, lund);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(String), ...lund, notes: null, version: 1, createdAt: expect.any(String), updatedAt: expect.any(String) });
    await call('POST', '/api/gear/boats', jo, { name: 'Kayak', hullType: 'Kayak', hullMaterial: 'Polyethylene', lengthCm: 366 });
    await call('POST', '/api/gear/boats', sam, { name: "Sam's skiff" });
    const mine = await call('GET', '/api/gear/boats', jo);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((b: { name: string }) => b.name)).toEqual(['Kayak', 'Old Faithful']);
    expect(mine.headers['x-total-count']).toBe('2');
    const page = await call('GET', '/api/gear/boats?pageSize=1&page=2', jo);
    expect(page.json().map((b: { name: string }) => b.name)).toEqual(['Old Faithful']);
    expect((await call('GET', '/api/gear/boats', sam)).json().map((b: { name: string }) => b.name)).toEqual(["Sam's skiff"]);
  });

  it('validates the body (400 naming the field)', async () => {
    const bad = await call('POST', '/api/gear/boats', jo, { name: '', hullType: 'Submarine', lengthCm: -3, owner: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/name', '/hullType', '/lengthCm', '/owner']));
    const future = await call('POST', '/api/gear/boats', jo, { name: 'Time machine', year: new Date().getUTCFullYear() + 2 });
    expect(future.json()).toMatchObject({ code: 'gear.boat_year_invalid', errors: [{ pointer: '/year' }] });
    expect((await call('POST', '/api/gear/boats', null, lund)).statusCode).toBe(401);
  });

  it('shows, replaces and deletes a boat for its owner only: 403 for another user (even an Admin), 404 when missing', async () => {
    const boat = (await call('POST', '/api/gear/boats', jo, { ...lund, name: 'Trolling rig' })).json();
    expect((await call('GET', `/api/gear/boats/${boat.id}`, jo)).json()).toMatchObject({ name: 'Trolling rig', make: 'Lund' });
    for (const other of [sam, admin]) {
      for (const [method, payload] of [['GET'], ['PUT', { name: 'Stolen' }], ['DELETE']] as const) {
        const res = await call(method, `/api/gear/boats/${boat.id}`, other, payload);
        expect(res.statusCode, `${method} by another user`).toBe(403);
        expect(res.json().code).toBe('gear.boat_not_owned');
      }
    }
    const replaced = await call('PUT', `/api/gear/boats/${boat.id}`, jo, { name: 'Trolling rig', make: 'Lund', motor: 'Mercury 200 Pro XS', horsepower: 200 });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'Trolling rig', make: 'Lund', model: null, year: null, motor: 'Mercury 200 Pro XS', horsepower: 200, homeWater: null });
    expect((await call('PUT', `/api/gear/boats/${boat.id}`, jo, { make: 'Lund' })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/gear/boats/${boat.id}`, jo)).statusCode).toBe(204);
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(method, `/api/gear/boats/${boat.id}`, jo);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('gear.boat_not_found');
    }
    expect((await call('PUT', `/api/gear/boats/${MISSING_ID}`, jo, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/api/gear/boats/not-a-uuid', jo)).statusCode).toBe(400);
    expect((await call('GET', `/api/gear/boats/${MISSING_ID}`, null)).statusCode).toBe(401);
  });
});
