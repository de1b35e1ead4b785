import { AppError } from '../../core/http/problem.js';

export const BoatErrors = {
  notFound: (id: string) => new AppError(404, 'gear.boat_not_found', `No boat has id ${id}. Your boats are at GET /api/gear/boats.`),
  yearInFuture: (max: number) =>
    new AppError(400, 'gear.boat_year_invalid', `The model year can be at most ${max}.`, { errors: [{ pointer: '/year', in: 'body', detail: `must be at most ${max}` }] }),
};
