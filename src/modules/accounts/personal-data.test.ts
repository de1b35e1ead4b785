import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDeps } from '../../core/service-deps.js';
import { coveredColumns } from '../../core/personal-data.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { personalDataGaps } from './deletion.service.js';

/**
 * The foreign-key walk: every column of the database that refers to `users` is named by some
 * module's personal-data registration (core/personal-data.ts), so erasing an account reaches it.
 */
describe('personal data registrations cover every column that refers to a user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('finds no column that no module registered', async () => {
    expect(await personalDataGaps(serviceDeps(t))).toEqual([]);
    // Each registration says why, next to what it does.
    for (const [name, { column }] of coveredColumns(t)) expect(column.reason.length, name).toBeGreaterThan(10);
  });

  it('fails for a new table whose user column nobody registered', async () => {
    const owner = t.database.owner.db;
    await owner.execute(sql`CREATE TABLE zz_unregistered_things (id uuid PRIMARY KEY, holder_id uuid NOT NULL REFERENCES users(id))`);
    try {
      expect(await personalDataGaps(serviceDeps(t))).toEqual(['zz_unregistered_things.holder_id refers to users but no module registered it (registerPersonalData)']);
    } finally {
      await owner.execute(sql`DROP TABLE zz_unregistered_things`);
    }
    expect(await personalDataGaps(serviceDeps(t))).toEqual([]);
  });
});
