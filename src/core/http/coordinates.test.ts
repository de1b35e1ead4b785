import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { legacyPoint, shownLocation } from './coordinates.js';

describe('coordinates: one spelling, the old one moved into location', () => {
  async function echo(body: unknown, names: [string, string] = ['lat', 'lon']) {
    const app = Fastify();
    app.post('/', { preValidation: legacyPoint(...names) }, async (request) => request.body);
    const response = await app.inject({ method: 'POST', url: '/', payload: body as Record<string, unknown> });
    await app.close();
    return response.json();
  }

  it('moves top-level lat/lon into location when no location is sent', async () => {
    expect(await echo({ name: 'Ramp', lat: 46.2, lon: -93.6 })).toEqual({ name: 'Ramp', location: { latitude: 46.2, longitude: -93.6 } });
  });

  it('moves one key alone (a merge patch may change only one) and the latitude/longitude spelling', async () => {
    expect(await echo({ latitude: 47 }, ['latitude', 'longitude'])).toEqual({ location: { latitude: 47 } });
  });

  it('leaves a body that sends location, or both spellings (the validation then refuses the old keys)', async () => {
    expect(await echo({ location: { latitude: 1, longitude: 2 } })).toEqual({ location: { latitude: 1, longitude: 2 } });
    expect(await echo({ lat: 3, location: { latitude: 1, longitude: 2 } })).toEqual({ lat: 3, location: { latitude: 1, longitude: 2 } });
  });

  it('shows the exact point or the public one, with its precision', () => {
    const point = { latitude: 46.23456, longitude: -93.65432 };
    const snapped = { latitude: 46.23, longitude: -93.65 };
    expect(shownLocation(true, point, snapped)).toEqual({ ...point, precision: 'Exact' });
    expect(shownLocation(false, point, snapped)).toEqual({ ...snapped, precision: 'Approximate' });
  });
});
