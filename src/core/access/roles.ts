/** Roles, stored as integers in this order (the spec fixes Owner = 5); the API shows the names. */
export const ROLES = ['Standard', 'DNR', 'Researcher', 'Admin', 'Moderator', 'Owner'] as const;
export type RoleName = (typeof ROLES)[number];

export const Role = {
  Standard: 0,
  DNR: 1,
  Researcher: 2,
  Admin: 3,
  Moderator: 4,
  Owner: 5,
} as const satisfies Record<RoleName, number>;

export function roleName(value: number): RoleName {
  const name = ROLES[value];
  if (!name) throw new Error(`unknown role value ${value}`);
  return name;
}

export function roleValue(name: string): number | undefined {
  const index = ROLES.findIndex((r) => r.toLowerCase() === name.toLowerCase());
  return index < 0 ? undefined : index;
}

/** Roles that work on the platform (the Owner's employees). */
export const EMPLOYEE_ROLES: readonly number[] = [Role.Admin, Role.Moderator];
