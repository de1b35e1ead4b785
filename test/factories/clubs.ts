import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Clubs through the API. */
export async function createClub(t: TestApp, owner: TestUser, body: Record<string, unknown> = {}) {
  const payload = { name: 'Brainerd Lakes Walleye Club', stateCode: 'US-MN', city: 'Brainerd', location: { latitude: 46.358, longitude: -94.2008 }, ...body };
  const res = await t.app.inject({ method: 'POST', url: '/api/clubs', headers: owner.headers, payload });
  if (res.statusCode !== 201) throw new Error(`creating a club failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string } & Record<string, unknown>;
}
