import { AppError } from '../../core/http/problem.js';

export const EventErrors = {
  notFound: (id: string) => new AppError(404, 'events.not_found', `No event has id ${id}. See GET /api/events.`),
  endsBeforeStart: () =>
    new AppError(400, 'events.ends_before_start', 'endsAt is before startsAt.', { errors: [{ pointer: '/endsAt', in: 'body', detail: 'must not be before startsAt' }] }),
  deadlineAfterStart: () =>
    new AppError(400, 'events.deadline_after_start', 'registrationDeadline must not be after startsAt.', {
      errors: [{ pointer: '/registrationDeadline', in: 'body', detail: 'after the start' }],
    }),
  inPast: () => new AppError(400, 'events.in_past', 'The event has ended already; propose upcoming events.', { errors: [{ pointer: '/endsAt', in: 'body', detail: 'is in the past' }] }),
  nearIncomplete: () =>
    new AppError(400, 'events.near_incomplete', 'Give lat and lon together (radiusKm optional, default 50).', { errors: [{ pointer: '/lat', in: 'query', detail: 'lat and lon go together' }] }),
  deadlinePassed: (deadline: string) => new AppError(409, 'events.registration_closed', `Registration closed at ${deadline}.`),
  full: (capacity: number) => new AppError(409, 'events.full', `The event is full (${capacity} places).`),
  alreadyRegistered: () => new AppError(409, 'events.already_registered', 'You are registered already; cancel with DELETE.'),
  notRegistered: () => new AppError(409, 'events.not_registered', 'You are not registered for this event.'),
  alreadyDecided: (status: string) => new AppError(409, 'events.already_decided', `The event is ${status} already.`),
};
