import { pascalCase } from '../../core/http/enums.js';
import { AppError } from '../../core/http/problem.js';

export const DashboardErrors = {
  rangeReversed: () =>
    new AppError(400, 'dashboard.invalid_range', '`from` must be before `to`.', { errors: [{ pointer: '/from', in: 'query', detail: 'must be before to' }] }),
  rangeTooLarge: (interval: string, max: number, periods: number) =>
    new AppError(
      400,
      'dashboard.range_too_large',
      `The range spans ${periods} ${interval}s; at most ${max} per request with interval=${pascalCase(interval)}. Narrow from/to or use a longer interval.`,
      { errors: [{ pointer: '/to', in: 'query', detail: `at most ${max} ${interval}s after from` }] },
    ),
};
