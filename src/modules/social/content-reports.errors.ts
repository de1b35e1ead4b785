import { AppError } from '../../core/http/problem.js';

export const ReportErrors = {
  alreadyOpen: () =>
    new AppError(409, 'reports.already_open', 'You already have an open report about this; a moderator will look at it. You can report it again once that report is resolved.'),
  ownContent: (what: string) => new AppError(409, 'reports.own_content', `You cannot report your own ${what}; edit or delete it instead.`),
  self: () => new AppError(409, 'reports.self', 'You cannot report yourself.'),
  userNotFound: (id: string) => new AppError(404, 'social.user_not_found', `No user has id ${id}.`),
  notFound: (id: string) => new AppError(404, 'reports.report_not_found', `No report has id ${id}; list them with GET /api/admin/reports.`),
  alreadyResolved: () => new AppError(409, 'reports.already_resolved', 'This report is already resolved; its resolution is kept as it is.'),
};
