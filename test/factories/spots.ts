import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Spots through the API, as a user adds them. */

export interface SpotBody {
  name?: string;
  kind?: 'Spot' | 'BoatRamp' | 'Pier' | 'Shore';
  privacy?: 'Public' | 'Private';
  location?: { latitude: number; longitude: number };
  waterBody?: string;
  stateCode?: string;
  ramp?: Record<string, unknown>;
}

export const MILLE_LACS_POINT = { lat: 46.2333, lon: -93.65 };

export async function createSpot(t: TestApp, user: TestUser, body: SpotBody = {}): Promise<{ id: string } & Record<string, unknown>> {
  const payload = { name: 'Weed edge', kind: 'Spot', location: { latitude: MILLE_LACS_POINT.lat, longitude: MILLE_LACS_POINT.lon }, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN', ...body };
  const res = await t.app.inject({ method: 'POST', url: '/api/spots', headers: user.headers, payload });
  if (res.statusCode !== 201) throw new Error(`creating a spot failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
