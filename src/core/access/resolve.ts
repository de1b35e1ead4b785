import { ADMIN_NEEDS_GRANT, OWNER_ONLY_PERMISSIONS, PERMISSION_ALIASES, permissionLabel, type Permission } from './permissions.js';
import { Role, roleName, roleValue, type RoleName } from './roles.js';

/**
 * The one resolver of the spec's access levels:
 * - Admin-only: Admin and Owner.
 * - Owner-only: Owner.
 * - Permission-required: Owner always; Admin unless explicitly denied (but `Settings.Modify`
 *   needs an explicit grant, and Owner-only names never pass); Moderator only when explicitly
 *   granted; Standard, DNR and Researcher never.
 */

export type AccessLevel = 'public' | 'authenticated' | 'admin' | 'owner' | { permission: Permission } | { anyPermission: Permission[] } | { roles: RoleName[] };

/** The grant in force for one user and permission: the newest history row, if any. */
export interface GrantInForce {
  isGranted: boolean;
  restrictions: Record<string, unknown> | null;
}

export type Decision = { allowed: true; restrictions: Record<string, unknown> | null } | { allowed: false; detail: string; code: string };

/**
 * `grant` is the grant in force for the permission under any of its names (an alias's grant
 * counts for the permission it names; see PERMISSION_ALIASES).
 */
export function resolvePermission(role: number, declared: Permission, grant: GrantInForce | undefined): Decision {
  const deny = (detail: string): Decision => ({ allowed: false, code: 'access.permission_denied', detail });
  const permission = PERMISSION_ALIASES[declared] ?? declared;
  const label = permissionLabel(declared);
  if (role === Role.Owner) return { allowed: true, restrictions: null };
  if (OWNER_ONLY_PERMISSIONS.has(permission)) return deny(`${label} is reserved to the Owner.`);
  if (role === Role.Admin) {
    if (ADMIN_NEEDS_GRANT.has(permission)) {
      return grant?.isGranted === true
        ? { allowed: true, restrictions: grant.restrictions }
        : deny(`Requires permission ${label}, which an Admin needs granted explicitly; ask the Owner to grant it.`);
    }
    return grant?.isGranted === false
      ? deny(`Permission ${label} has been explicitly denied to you; ask the Owner to grant it.`)
      : { allowed: true, restrictions: grant?.restrictions ?? null };
  }
  if (role === Role.Moderator) {
    return grant?.isGranted === true
      ? { allowed: true, restrictions: grant.restrictions }
      : deny(`Requires permission ${label}; ask the Owner to grant it.`);
  }
  return deny(`Requires permission ${label}, which only employees (Admin, Moderator) can hold; your role is ${roleName(role)}.`);
}

export function resolveLevel(role: number, level: 'admin' | 'owner'): Decision {
  if (level === 'owner') {
    return role === Role.Owner ? { allowed: true, restrictions: null } : { allowed: false, code: 'access.owner_only', detail: 'Only the Owner may do this.' };
  }
  return role === Role.Owner || role === Role.Admin
    ? { allowed: true, restrictions: null }
    : { allowed: false, code: 'access.admin_only', detail: `Requires the Admin or Owner role; your role is ${roleName(role)}.` };
}

/**
 * Data-access roles (DNR, Researcher) are not a rung of the admin ladder: a route restricted to
 * them admits exactly those roles, and the Owner's bypass does not apply.
 */
export function resolveRoles(role: number, roles: RoleName[]): Decision {
  return roles.some((r) => roleValue(r) === role)
    ? { allowed: true, restrictions: null }
    : { allowed: false, code: 'access.role_required', detail: `Requires the ${roles.join(' or ')} role; your role is ${roleName(role)}.` };
}

export function describeLevel(level: AccessLevel): string {
  if (level === 'public') return 'Public: no token needed.';
  if (level === 'authenticated') return 'Any signed-in user (Authorization: Bearer <id_token>).';
  if (level === 'admin') return 'Admin-only: Admin and Owner.';
  if (level === 'owner') return 'Owner-only.';
  if ('anyPermission' in level) return `Permission-required: any of ${level.anyPermission.map(permissionLabel).join(', ')} (each: Owner always; Admin unless explicitly denied; Moderator only when granted).`;
  if ('roles' in level) return `Role-restricted: ${level.roles.join(', ')} only (no other role passes, not even Owner or Admin).`;
  return `Permission-required: ${permissionLabel(level.permission)} (Owner always; Admin unless explicitly denied${
    ADMIN_NEEDS_GRANT.has(PERMISSION_ALIASES[level.permission] ?? level.permission) ? ', but this one needs an explicit grant' : ''
  }; Moderator only when granted).`;
}
