/**
 * The permission catalogue: the spec's granular names and its dot-style names, matched
 * case-insensitively. `users.ban`, `tournaments.approve` and `settings.modify` are the same
 * permissions as `Users.Ban`, `Tournaments.Approve` and `Settings.Modify`;
 * `moderation.approve`, `moderation.reject` and `payments.refund` are names of their own, and
 * `Content.Approve` / `Content.Moderate` are aliases of `moderation.approve` / `moderation.reject`
 * (see PERMISSION_ALIASES): granting, denying or requiring either name means the same permission.
 */
export const PERMISSIONS = [
  'Users.View',
  'Users.Edit',
  'Users.Ban',
  'Users.Unban',
  'Users.Delete',
  'Users.ChangeRole',
  'Users.LegalHold',
  'Content.Moderate',
  'Content.Delete',
  'Content.Approve',
  'Tournaments.View',
  'Tournaments.Approve',
  'Tournaments.Reject',
  'Tournaments.Suspend',
  'Organizers.View',
  'Organizers.Verify',
  'Organizers.Suspend',
  'Events.View',
  'Events.Approve',
  'Events.Reject',
  'Regulations.View',
  'Regulations.Edit',
  'Brands.Manage',
  'Species.Manage',
  'Lookups.Manage',
  'Settings.View',
  'Settings.Modify',
  'Settings.Delete',
  'Announcements.Create',
  'Announcements.Edit',
  'Announcements.Delete',
  'AuditLogs.View',
  'AuditLogs.Export',
  'Employees.Manage',
  'Permissions.Manage',
  'moderation.approve',
  'moderation.reject',
  'payments.refund',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** Only the Owner holds these; they can never be granted to anyone else. */
export const OWNER_ONLY_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>(['Settings.Delete', 'Permissions.Manage', 'Employees.Manage', 'Users.LegalHold']);

/** An Admin holds every permission by default except these, which need an explicit grant. */
export const ADMIN_NEEDS_GRANT: ReadonlySet<Permission> = new Set<Permission>(['Settings.Modify']);

/**
 * Catalogue names that are another name of the same permission: alias → the name grants are
 * stored under. A grant of either name is in force for both, and so is a denial.
 */
export const PERMISSION_ALIASES: Readonly<Partial<Record<Permission, Permission>>> = {
  'Content.Approve': 'moderation.approve',
  'Content.Moderate': 'moderation.reject',
};

const BY_LOWER = new Map<string, Permission>(PERMISSIONS.map((p) => [p.toLowerCase(), p]));

/** The catalogue's spelling of a permission name in either style, with aliases resolved; or undefined. */
export function canonicalPermission(name: string): Permission | undefined {
  const known = BY_LOWER.get(name.trim().toLowerCase());
  return known === undefined ? undefined : (PERMISSION_ALIASES[known] ?? known);
}

/** Every catalogue name of one permission: the canonical name first, then its aliases. */
export function permissionNames(permission: Permission): Permission[] {
  const canonical = PERMISSION_ALIASES[permission] ?? permission;
  const aliases = (Object.keys(PERMISSION_ALIASES) as Permission[]).filter((alias) => PERMISSION_ALIASES[alias] === canonical);
  return [canonical, ...aliases];
}

/** A permission's name for messages: `Content.Moderate (= moderation.reject)`. */
export function permissionLabel(permission: Permission): string {
  const others = permissionNames(permission).filter((name) => name !== permission);
  return others.length === 0 ? permission : `${permission} (= ${others.join(' = ')})`;
}
