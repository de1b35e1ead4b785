import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Fishing reports through the API. */

export async function walleyeId(t: TestApp): Promise<string> {
  const { rows } = await t.database.pool.query("SELECT id FROM fish_species WHERE common_name = 'Walleye'");
  return rows[0].id as string;
}

export async function createFishingReport(t: TestApp, author: TestUser, body: Record<string, unknown> = {}) {
  const payload = { waterBody: 'Mille Lacs Lake', stateCode: 'US-MN', location: { latitude: 46.23456, longitude: -93.65432 }, fishedOn: '2026-06-01', text: 'Walleye on the flats at dusk.', ...body };
  const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: author.headers, payload });
  if (res.statusCode !== 201) throw new Error(`creating a fishing report failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; status: string } & Record<string, unknown>;
}
