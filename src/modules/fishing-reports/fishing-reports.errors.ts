import { AppError } from '../../core/http/problem.js';

export const FishingReportErrors = {
  notFound: (id: string) => new AppError(404, 'reports.not_found', `No fishing report has id ${id}. Search with GET /api/reports/by-location.`),
  fishedInFuture: () =>
    new AppError(400, 'reports.date_in_future', 'fishedOn is in the future; report a day you fished.', { errors: [{ pointer: '/fishedOn', in: 'body', detail: 'is after today' }] }),
  duplicateSpecies: (index: number) =>
    new AppError(400, 'reports.duplicate_species', 'A species is listed twice; give each species once with its bite.', {
      errors: [{ pointer: `/species/${index}/speciesId`, in: 'body', detail: 'listed twice' }],
    }),
  alreadyHelpful: () => new AppError(409, 'reports.already_helpful', 'You marked this report helpful already; undo it with DELETE.'),
  notMarked: () => new AppError(409, 'reports.not_marked_helpful', 'You had not marked this report helpful; nothing to undo.'),
  alreadyDecided: (status: string) => new AppError(409, 'reports.already_decided', `The report is ${status} already.`),
};
