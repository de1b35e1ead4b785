import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { relationshipsOf } from './core/access/visibility.js';
import { photoRecords } from './modules/photos/photos.service.js';
import { moderatedContentTypes } from './modules/moderation/moderated-content.service.js';
import { Registries, registryKey } from './core/registries.js';
import { lookupValuesOf } from './modules/lookups/lookups.service.js';
import { masterAnglerCatalogOf } from './modules/master-angler/master-angler.service.js';
import { ownProfilesOf } from './modules/profiles/profiles.service.js';
import { auditKeyOf, recordAudit, rowHash } from './core/audit/audit.js';
import { systemAuditContext } from './core/audit/context.js';
import { serviceDeps } from './core/service-deps.js';

describe('Registries', () => {
  it('makes a registry on first use and hands the same one back; another set has its own', () => {
    const key = registryKey('test.names', () => new Set<string>());
    const one = new Registries();
    const other = new Registries();
    one.of(key).add('a');
    expect(one.of(key)).toBe(one.of(key));
    expect([...one.of(key)]).toEqual(['a']);
    expect(other.of(key).size).toBe(0);
  });
});

describe('registries of two apps in one process', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('each app holds what its own modules registered; changing one leaves the other alone', () => {
    const kinds = ['Avatar', 'Catch', 'Entry', 'FishingReport', 'Post', 'Spot'];
    expect([...first.registries.of(photoRecords).keys()].sort()).toEqual(kinds);
    expect([...second.registries.of(photoRecords).keys()].sort()).toEqual(kinds);
    expect(first.registries.of(photoRecords)).not.toBe(second.registries.of(photoRecords));
    expect([...first.registries.of(moderatedContentTypes).keys()].sort()).toEqual(['comment', 'post']);
    expect(relationshipsOf(first)).toBeDefined();

    second.registries.of(photoRecords).delete('Spot');
    expect(first.registries.of(photoRecords).has('Spot')).toBe(true);
  });

  it('each app keeps its own caches of lookup values, Master Angler minimums and own profiles', () => {
    for (const cacheOf of [lookupValuesOf, masterAnglerCatalogOf, ownProfilesOf]) {
      expect(cacheOf(first)).toBe(cacheOf(first));
      expect(cacheOf(first)).not.toBe(cacheOf(second));
    }
  });

  it('each app signs its audit log with the key of its own configuration', async () => {
    const keyed = await createTestApp({ sameDatabaseAs: first, env: { FISHLOG_AUDIT_KEY: 'a-second-app-key-0123456789abcdef0123' } });
    try {
      expect(auditKeyOf(keyed.registries).toString()).toBe('a-second-app-key-0123456789abcdef0123');
      expect(auditKeyOf(first.registries).equals(auditKeyOf(keyed.registries))).toBe(false);
      for (const app of [first, keyed, first]) {
        const row = await recordAudit(serviceDeps(app), systemAuditContext('test'), { action: 'test.keyed' });
        expect(rowHash(row, auditKeyOf(app.registries))).toBe(row.hash);
        expect(rowHash(row, auditKeyOf((app === first ? keyed : first).registries))).not.toBe(row.hash);
      }
    } finally {
      await keyed.close();
    }
    expect(() => auditKeyOf(new Registries())).toThrow(/no audit key/);
  });

  it('a registry nothing registered into is empty, and a service that needs it says which module registers it', () => {
    expect(() => relationshipsOf({ registries: new Registries() })).toThrow(/social module/);
  });
});
