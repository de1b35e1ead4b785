import { AppError } from '../../core/http/problem.js';

export const AuditLogErrors = {
  badCursor: () =>
    new AppError(400, 'audit_logs.invalid_cursor', 'The cursor is not one this API gave out: pass the X-Next-Cursor of the previous page unchanged, or leave it out for the first page.', {
      errors: [{ pointer: '/cursor', in: 'query', detail: 'is not a cursor of this list' }],
    }),
  badRange: (from: string, to: string) =>
    new AppError(400, 'audit_logs.invalid_range', `The period is empty: \`from\` (${from}) must be before \`to\` (${to}).`, {
      errors: [{ pointer: '/from', in: 'query', detail: 'must be before `to`' }],
    }),
  rangeTooLong: (days: number, max: number) =>
    new AppError(400, 'audit_logs.range_too_long', `The period spans ${days} days; statistics cover at most ${max} days. Narrow \`from\`/\`to\`.`, {
      errors: [{ pointer: '/from', in: 'query', detail: `the period may span at most ${max} days` }],
    }),
};
