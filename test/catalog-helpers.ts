import { randomUUID } from 'node:crypto';
import type { TestApp } from './harness.js';
import type { TestUser } from './factories.js';

/** Helpers of the catalog tests (species, brands, gear). */

/** Grants or denies a permission through the Owner's API, as in production. */
export async function setPermission(t: TestApp, owner: TestUser, user: TestUser, permission: string, isGranted: boolean): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/employees/${user.userId}/permissions`, headers: owner.headers, payload: { permission, isGranted } });
  if (res.statusCode !== 201) throw new Error(`setting ${permission} failed: ${res.statusCode} ${res.body}`);
}

/** Logs a catch directly in the fishing-log tables (that module's API is not part of these tests). */
export async function logCatch(t: TestApp, ownerId: string, speciesId: string, options: { gearSetupId?: string } = {}): Promise<string> {
  const entryId = randomUUID();
  const catchId = randomUUID();
  await t.database.pool.query(`INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone) VALUES ($1, $2, 'Evening bite', now(), 'America/Chicago')`, [entryId, ownerId]);
  await t.database.pool.query(`INSERT INTO catches (id, entry_id, owner_id, species_id, released, caught_at, gear_setup_id) VALUES ($1, $2, $3, $4, true, now(), $5)`, [
    catchId,
    entryId,
    ownerId,
    speciesId,
    options.gearSetupId ?? null,
  ]);
  return catchId;
}

export async function auditCount(t: TestApp): Promise<number> {
  return (await t.database.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n as number;
}

export async function lastAudit(t: TestApp): Promise<Record<string, unknown>> {
  return (await t.database.pool.query('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0];
}

export const MISSING_ID = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';
