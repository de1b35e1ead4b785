import { AppError } from '../../core/http/problem.js';

export const NotificationErrors = {
  notFound: (id: string) => new AppError(404, 'notifications.not_found', `No notification has id ${id}; list yours with GET /api/notifications.`),
};
