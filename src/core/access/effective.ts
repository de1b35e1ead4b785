import type { DbOrTx } from '../db/client.js';
import { grantsInForce } from './grants.repository.js';
import { PERMISSION_ALIASES, PERMISSIONS, type Permission } from './permissions.js';
import { resolveLevel, resolvePermission } from './resolve.js';
import { Role } from './roles.js';

export interface EffectiveAccess {
  /** May call the Admin-only routes (Admin, Owner). */
  admin: boolean;
  /** May call the Owner-only routes. */
  owner: boolean;
  /** Every catalogue name the caller passes a `{ permission }` route with (aliases included), sorted. */
  permissions: Permission[];
  /** Restrictions of the grants in force, by permission name (e.g. `{ "Users.Ban": { "maxBanDays": 7 } }`). */
  restrictions: Partial<Record<Permission, Record<string, unknown>>>;
}

/**
 * What the caller may do, decided by the same resolver the routes use (`resolvePermission`,
 * `resolveLevel`) for every permission of the catalogue, from the grants in force (one query).
 */
export async function effectiveAccess(db: DbOrTx, principal: { userId: string; role: number }): Promise<EffectiveAccess> {
  const employee = principal.role === Role.Admin || principal.role === Role.Moderator;
  const rows = employee ? await grantsInForce(db, [principal.userId]) : [];
  const byCanonical = new Map(rows.map((row) => [row.permission, { isGranted: row.isGranted, restrictions: row.restrictions ?? null }]));
  const permissions: Permission[] = [];
  const restrictions: EffectiveAccess['restrictions'] = {};
  for (const permission of PERMISSIONS) {
    const decision = resolvePermission(principal.role, permission, byCanonical.get(PERMISSION_ALIASES[permission] ?? permission));
    if (!decision.allowed) continue;
    permissions.push(permission);
    if (decision.restrictions && Object.keys(decision.restrictions).length > 0) restrictions[permission] = decision.restrictions;
  }
  return {
    admin: resolveLevel(principal.role, 'admin').allowed,
    owner: resolveLevel(principal.role, 'owner').allowed,
    permissions: permissions.sort(),
    restrictions,
  };
}
