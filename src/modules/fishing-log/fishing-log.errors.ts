import { AppError } from '../../core/http/problem.js';

const field = (pointer: string, detail: string) => ({ errors: [{ pointer, in: 'body' as const, detail }] });

export const FishingLogErrors = {
  entryNotFound: (id: string) => new AppError(404, 'fishinglog.entry_not_found', `No log entry has id ${id}.`),
  catchNotFound: (entryId: string, catchId: string) =>
    new AppError(404, 'fishinglog.catch_not_found', `Log entry ${entryId} has no catch with id ${catchId}; list its catches with GET /api/fishinglog/entries/${entryId}/catches.`),
  sessionNotFound: (id: string) => new AppError(404, 'fishinglog.session_not_found', `No fishing session has id ${id}.`),
  unknownSession: () =>
    new AppError(400, 'fishinglog.unknown_session', 'sessionId does not name one of your fishing sessions; create it first (POST /api/fishinglog/sessions) or leave it out.', field('/sessionId', 'is not one of your sessions')),
  unknownSpecies: () =>
    new AppError(400, 'fishinglog.unknown_species', 'speciesId does not name an active fish species; look it up with GET /api/fish-species.', field('/speciesId', 'is not a known species')),
  badTimeZone: (pointer: string, value: string) => new AppError(400, 'fishinglog.invalid_time_zone', `"${value}" is not an IANA time zone such as America/Chicago.`, field(pointer, 'is not an IANA time zone')),
  endsBeforeStart: () => new AppError(400, 'fishinglog.session_ends_before_start', 'endedAt must not be before startedAt.', field('/endedAt', 'is before startedAt')),
  partialBbox: () =>
    new AppError(400, 'fishinglog.incomplete_bounding_box', 'A bounding box needs all of minLat, maxLat, minLng and maxLng, with min ≤ max.', {
      errors: [{ pointer: '/minLat', in: 'query', detail: 'bounding box incomplete or inverted' }],
    }),
  mineWithOwner: () =>
    new AppError(400, 'fishinglog.conflicting_filters', 'Use either mine=true or ownerId, not both.', { errors: [{ pointer: '/ownerId', in: 'query', detail: 'conflicts with mine' }] }),
};
