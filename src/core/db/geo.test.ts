import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { assertGeoExtensionsAvailable, GeoExtensionsMissing, snapToGrid } from './geo.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * Reference distances: Vincenty's inverse formula on the WGS 84 ellipsoid (computed once,
 * outside the project) between the lakes' approximate centres.
 */
const MILLE_LACS = { lat: 46.2333, lon: -93.65 };
const LEECH_LAKE = { lat: 47.15, lon: -94.4 };
const LAKE_MINNETONKA = { lat: 44.93, lon: -93.58 };

async function earthDistance(a: { lat: number; lon: number }, b: { lat: number; lon: number }): Promise<number> {
  const result = await t.database.db.execute(sql`SELECT earth_distance(ll_to_earth(${a.lat}::float8, ${a.lon}::float8), ll_to_earth(${b.lat}::float8, ${b.lon}::float8)) AS d`);
  return Number(result.rows[0]!.d);
}

describe('geo', () => {
  it('migrations created cube and earthdistance', async () => {
    const { rows } = await t.database.pool.query("SELECT extname FROM pg_extension WHERE extname IN ('cube', 'earthdistance') ORDER BY extname");
    expect(rows.map((r) => r.extname)).toEqual(['cube', 'earthdistance']);
  });

  it('earth_distance between Minnesota lakes is within 0.5 % of the ellipsoidal distance', async () => {
    for (const [a, b, reference] of [
      [MILLE_LACS, LEECH_LAKE, 116_942.3],
      [MILLE_LACS, LAKE_MINNETONKA, 144_955.8],
    ] as const) {
      const d = await earthDistance(a, b);
      expect(Math.abs(d - reference) / reference).toBeLessThan(0.005);
    }
  });

  it('start-up check names the missing extensions and what to install', async () => {
    const none = { query: async () => ({ rows: [] }) };
    await expect(assertGeoExtensionsAvailable(none)).rejects.toThrow(GeoExtensionsMissing);
    await expect(assertGeoExtensionsAvailable(none)).rejects.toThrow(/does not provide the cube and earthdistance extensions.*contrib/);
    const onlyCube = { query: async () => ({ rows: [{ name: 'cube' }] }) };
    await expect(assertGeoExtensionsAvailable(onlyCube)).rejects.toThrow(/does not provide the earthdistance extension,/);
    await expect(assertGeoExtensionsAvailable(t.database.pool)).resolves.toBeUndefined();
  });

  it('snaps to a 0.01° grid', () => {
    expect(snapToGrid(46.23456, -93.65432)).toEqual({ lat: 46.23, lon: -93.65 });
    expect(snapToGrid(46.235, -93.655)).toEqual({ lat: 46.24, lon: -93.65 });
  });
});
