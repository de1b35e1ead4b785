import { AppError } from '../../core/http/problem.js';

export const ClubErrors = {
  notFound: (id: string) => new AppError(404, 'clubs.not_found', `No club has id ${id}. See GET /api/clubs.`),
  memberNotFound: (userId: string) => new AppError(404, 'clubs.member_not_found', `User ${userId} is not a member of this club and has no pending request.`),
  nearIncomplete: () =>
    new AppError(400, 'clubs.near_incomplete', 'Give lat and lon together (radiusKm optional, default 50).', { errors: [{ pointer: '/lat', in: 'query', detail: 'lat and lon go together' }] }),
  notPending: () => new AppError(409, 'clubs.not_pending', 'This member is active already; nothing to approve.'),
  cannotRemoveOwner: () => new AppError(409, 'clubs.cannot_remove_owner', 'The owner cannot be removed from the club.'),
  adminRemovesAdmin: () => new AppError(403, 'clubs.cannot_remove_admin', 'Only the owner removes a club admin.'),
  ownerRole: () => new AppError(400, 'clubs.owner_role', 'The owner’s role cannot be changed.', { errors: [{ pointer: '/role', in: 'body', detail: 'the owner keeps the owner role' }] }),
  alreadyInactive: (id: string) => new AppError(409, 'clubs.already_inactive', `Club ${id} is deactivated already.`),
  alreadyActive: (id: string) => new AppError(409, 'clubs.already_active', `Club ${id} is active; nothing to reactivate.`),
};
