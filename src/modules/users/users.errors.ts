import { AppError } from '../../core/http/problem.js';

export const UserErrors = {
  notFound: (id: string) => new AppError(404, 'users.user_not_found', `No user has id ${id}; the user must have signed in at least once.`),
  ownerRoleProtected: () => new AppError(409, 'users.owner_role_protected', "The Owner's role cannot be changed."),
  lastAdmin: () =>
    new AppError(409, 'users.last_admin', 'This is the last Admin who can sign in (disabled, deactivated or banned Admins do not count): promote another user to Admin first, then change this one.'),
  lastAdminBan: () =>
    new AppError(409, 'users.last_admin', 'This is the last Admin who can sign in (disabled, deactivated or banned Admins do not count): promote another user to Admin first, then ban this one.'),
};
