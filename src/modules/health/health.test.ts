import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../core/db/client.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /health', () => {
  it('is public and reports the service and database as ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ status: 'ok', database: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/), uptimeSeconds: expect.any(Number) });
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('ignores a bad token: health stays public', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { authorization: 'Bearer nonsense' } });
    expect(res.statusCode).toBe(200);
  });

  it('answers 503 with database unavailable when the database cannot be reached', async () => {
    // A port nothing listens on: the pool cannot connect.
    const config = testConfig({ DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none' });
    const database = await openDatabase(config);
    const app = await buildApp({ config, database, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'error', database: 'unavailable' });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
