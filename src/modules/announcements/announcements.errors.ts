import { AppError } from '../../core/http/problem.js';

export const AnnouncementsErrors = {
  notFound: (id: string) => new AppError(404, 'announcements.not_found', `No announcement ${id}. List them with GET /api/admin/announcements.`),
  notVisible: (id: string) =>
    new AppError(404, 'announcements.not_found', `No announcement ${id} is shown to you now; GET /api/announcements lists the ones you can dismiss.`),
  invalidPeriod: () =>
    new AppError(400, 'announcements.invalid_period', 'endsAt must be later than startsAt; move endsAt after startsAt or leave it out for an open-ended announcement.', {
      errors: [{ pointer: '/endsAt', in: 'body', detail: 'must be later than startsAt' }],
    }),
  notDismissible: (id: string) => new AppError(409, 'announcements.not_dismissible', `Announcement ${id} is Persistent: it stays until it ends and cannot be dismissed.`),
  alreadyActive: (id: string) => new AppError(409, 'announcements.already_active', `Announcement ${id} is active; nothing to reactivate.`),
  alreadyInactive: (id: string) => new AppError(409, 'announcements.already_inactive', `Announcement ${id} is already deactivated.`),
};
