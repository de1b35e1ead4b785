import { AppError } from '../../core/http/problem.js';
import { PERMISSIONS } from '../../core/access/permissions.js';

export const EmployeeErrors = {
  unknownPermission: (name: string) =>
    new AppError(400, 'access.unknown_permission', `Unknown permission "${name}". Valid names (case-insensitive): ${PERMISSIONS.join(', ')}.`, {
      errors: [{ pointer: '/permission', in: 'body', detail: 'is not a known permission' }],
    }),
  ownerOnlyPermission: (name: string) =>
    new AppError(422, 'employees.owner_only_permission', `${name} belongs to the Owner alone and cannot be granted to anyone else.`),
  notAnEmployee: (role: string) =>
    new AppError(409, 'employees.not_an_employee', `Permissions apply to Admins and Moderators; this user is ${role}. Make them an employee first (PUT /api/admin/employees/{userId}/role).`),
  ownerHasAll: () => new AppError(409, 'employees.owner_has_all_permissions', 'The Owner passes every permission check; there is nothing to grant or deny.'),
  badRestrictions: (detail: string) =>
    new AppError(400, 'employees.invalid_restrictions', `Invalid restrictions: ${detail}.`, { errors: [{ pointer: '/restrictions', in: 'body', detail }] }),
};
