import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** Lookup values through the admin API, as in production. */

export interface LookupValueInput {
  category?: string;
  code?: string;
  label?: string;
  description?: string | null;
  sortOrder?: number;
  reason?: string;
}

export interface AdminLookupValueBody {
  id: string;
  category: string;
  code: string;
  label: string;
  sortOrder: number;
  isActive: boolean;
  usage: { records: number | null; validated: boolean };
}

let counter = 0;

/** A complete create body: a fresh code in a test category unless given. */
export function lookupValueBody(input: LookupValueInput = {}): Record<string, unknown> {
  counter += 1;
  return { category: 'TestVocabulary', code: `Value${Date.now().toString(36)}${counter}`, label: `Value ${counter}`, reason: 'Needed for a test', ...input };
}

export async function createLookupValue(t: TestApp, by: TestUser, input: LookupValueInput = {}): Promise<AdminLookupValueBody> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/lookups/values', headers: by.headers, payload: lookupValueBody(input) });
  if (res.statusCode !== 201) throw new Error(`creating a lookup value failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Deactivates (or reactivates) a value, with a reason. */
export async function setLookupValueActive(t: TestApp, by: TestUser, id: string, active: boolean): Promise<AdminLookupValueBody> {
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/lookups/values/${id}/${active ? 'reactivate' : 'deactivate'}`, headers: by.headers, payload: { reason: 'Test' } });
  if (res.statusCode !== 200) throw new Error(`changing a lookup value failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
