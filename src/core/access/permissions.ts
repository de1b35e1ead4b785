/**
 * The permission catalogue: the spec's granular names and its dot-style names, matched
 * case-insensitively. `users.ban`, `tournaments.approve` and `settings.modify` are the same
 * permissions as `Users.Ban`, `Tournaments.Approve` and `Settings.Modify`;
 * `moderation.approve`, `moderation.reject` and `payments.refund` are names of their own.
 */
export const PERMISSIONS = [
  'Users.View',
  'Users.Edit',
  'Users.Ban',
  'Users.Unban',
  'Users.Delete',
  'Users.ChangeRole',
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
export const OWNER_ONLY_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>(['Settings.Delete', 'Permissions.Manage', 'Employees.Manage']);

/** An Admin holds every permission by default except these, which need an explicit grant. */
export const ADMIN_NEEDS_GRANT: ReadonlySet<Permission> = new Set<Permission>(['Settings.Modify']);

const BY_LOWER = new Map<string, Permission>(PERMISSIONS.map((p) => [p.toLowerCase(), p]));

/** The catalogue's spelling of a permission name in either style, or undefined. */
export function canonicalPermission(name: string): Permission | undefined {
  return BY_LOWER.get(name.trim().toLowerCase());
}
