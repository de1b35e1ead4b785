import { AppError } from '../../core/http/problem.js';

export const AdminReportErrors = {
  notContent: () =>
    new AppError(400, 'reports.resolution_needs_content', 'ContentRejected applies to reports about a post or a comment; for a user, resolve with ActionTaken and say what was done in the note.', {
      errors: [{ pointer: '/resolution', in: 'body', detail: 'ContentRejected needs a post or comment report' }],
    }),
  targetGone: (type: string) =>
    new AppError(409, 'reports.target_gone', `The reported ${type} no longer exists (its author deleted it); resolve with NoViolation or ActionTaken instead.`),
};
