import { AppError } from '../../core/http/problem.js';

const field = (status: number, code: string, detail: string, pointer: string, what: string) =>
  new AppError(status, code, detail, { errors: [{ pointer, in: 'body', detail: what }] });

export const TournamentErrors = {
  notFound: (id: string) => new AppError(404, 'tournaments.not_found', `No tournament has id ${id}. The tournaments you can see are at GET /api/tournament.`),
  registrationNotFound: (id: string) => new AppError(404, 'tournaments.registration_not_found', `This tournament has no registration with id ${id}.`),
  submissionNotFound: (id: string) => new AppError(404, 'tournaments.catch_not_found', `This tournament has no catch submission with id ${id}.`),
  organizerNotFound: (id: string) => new AppError(404, 'tournaments.organizer_not_found', `No organizer profile has id ${id}.`),
  noOrganizerProfile: () =>
    new AppError(404, 'tournaments.organizer_profile_missing', 'You have no organizer profile; apply with POST /api/tournament/organizers/apply.'),
  notVerifiedOrganizer: (status: string | null) =>
    new AppError(
      403,
      'tournaments.organizer_not_verified',
      status === null
        ? 'Only verified organizers create tournaments. Apply with POST /api/tournament/organizers/apply; an administrator reviews the application.'
        : status === 'Pending'
          ? 'Your organizer application is awaiting review by an administrator; you can create tournaments once it is verified.'
          : status === 'Suspended'
            ? 'Your organizer profile is suspended; contact support to have it reinstated.'
            : 'Your organizer application was rejected; update it and apply again with POST /api/tournament/organizers/apply.',
    ),
  paymentsNotAllowed: () =>
    field(
      403,
      'tournaments.payments_not_allowed',
      'Paid tournaments (entryFeeCents > 0) need an organizer verified to take payments. Set entryFeeCents to 0, or apply again with takesPayments: true.',
      '/entryFeeCents',
      'needs an organizer verified to take payments',
    ),
  alreadyApplied: (status: string) =>
    new AppError(409, 'tournaments.organizer_already_applied', `You already have an organizer profile (${status}); only a rejected application can be made again.`),
  badTimeZone: (value: string) => field(400, 'tournaments.bad_time_zone', `${value} is not an IANA time zone; use e.g. America/Chicago.`, '/timeZone', 'is not an IANA time zone'),
  badSchedule: (pointer: string, detail: string) => field(400, 'tournaments.bad_schedule', detail, pointer, detail),
  badDivision: (pointer: string, detail: string) => field(400, 'tournaments.bad_division', detail, pointer, detail),
  duplicateDivisionName: (name: string) => field(400, 'tournaments.duplicate_division', `Two divisions are named ${name}; names must differ.`, '/divisions', 'names must differ'),
  rulesFrozen: (fields: string[]) =>
    new AppError(
      409,
      'tournaments.rules_frozen',
      `The tournament has started: rules that change outcomes are frozen. Frozen fields in this request: ${fields.join(', ')}. Only name and description can still change.`,
    ),
  notEditable: (status: string) => new AppError(409, 'tournaments.not_editable', `A ${status} tournament cannot be changed.`),
  divisionInUse: (id: string) =>
    new AppError(409, 'tournaments.division_in_use', `Division ${id} has registrations and cannot be removed; keep it in the divisions list.`),
  cannotSubmit: (status: string) =>
    new AppError(409, 'tournaments.cannot_submit', `Only a Draft or Rejected tournament can be submitted for approval; this one is ${status}.`),
  unknownDivision: (id: string) => field(400, 'tournaments.unknown_division', `This tournament has no division with id ${id}.`, '/divisionId', 'is not a division of this tournament'),
  registrationClosed: (detail: string) => new AppError(409, 'tournaments.registration_closed', detail),
  full: (capacity: number) => new AppError(409, 'tournaments.full', `The tournament is full (${capacity} anglers).`),
  alreadyRegistered: () => new AppError(409, 'tournaments.already_registered', 'You are already registered in this division; see GET /api/tournament/{id}/registrations.'),
  paymentMethodRequired: () =>
    new AppError(400, 'tournaments.payment_method_required', 'This tournament has an entry fee: send paymentMethod (a card number or payment method id).', {
      errors: [{ pointer: '/paymentMethod', in: 'body', detail: 'is required for a tournament with an entry fee' }],
    }),
  paymentDeclined: (paymentId: string, reason: string) =>
    new AppError(402, 'tournaments.payment_declined', `The entry fee payment ${paymentId} was declined (${reason}); you are not registered. Use another card and register again.`),
  alreadyCancelled: () => new AppError(409, 'tournaments.registration_cancelled', 'This registration is already cancelled.'),
  notRegistered: () =>
    new AppError(403, 'tournaments.not_registered', 'Only anglers registered in this division can submit catches; register first with POST /api/tournament/{id}/register.'),
  wrongSpecies: () => field(400, 'tournaments.species_not_eligible', 'This species does not count in the division; see the division’s speciesIds.', '/speciesId', 'not eligible in the division'),
  measureMissing: (pointer: string, what: string) => field(400, 'tournaments.measure_missing', `The division is scored by ${what}; give ${pointer.slice(1)}.`, pointer, 'is required by the division'),
  belowMinimum: (minInches: number) =>
    field(400, 'tournaments.below_minimum', `The division's minimum length is ${minInches} in; shorter fish do not count.`, '/lengthInches', `below ${minInches} in`),
  outsideWindow: () =>
    field(400, 'tournaments.outside_window', 'The capture time must fall inside the fishing window (startsAt to endsAt).', '/capturedAt', 'outside the fishing window'),
  photoRequired: () => field(400, 'tournaments.photo_required', 'Catch-photo-release catches need photoUrl and photoHash.', '/photoUrl', 'required for CPR'),
  duplicatePhoto: () => new AppError(409, 'tournaments.duplicate_photo', 'This photo (same photoHash) was already submitted in this tournament.'),
  duplicateLogCatch: () => new AppError(409, 'tournaments.duplicate_log_catch', 'This fishing-log catch was already submitted in this tournament.'),
  badLogCatch: () =>
    field(400, 'tournaments.bad_log_catch', 'fishingLogCatchId must be one of your own fishing-log catches.', '/fishingLogCatchId', 'not one of your catches'),
  resultsPublished: () => new AppError(409, 'tournaments.results_published', 'Results are published; catches can no longer be submitted or judged.'),
  alreadyJudged: (status: string) => new AppError(409, 'tournaments.already_judged', `This catch is already ${status}; give a reason to change the decision.`),
  reasonRequired: (pointer = '/reason') => field(400, 'tournaments.reason_required', 'A reason is required for this change; it is kept in the audit log.', pointer, 'is required'),
  badJudge: (why: string) => field(400, 'tournaments.bad_judge', `This user cannot be named judge: ${why}.`, '/userId', why),
  judgeIsRegistered: () => new AppError(409, 'tournaments.judge_is_registered', 'This user is registered in the tournament and cannot judge it.'),
  sponsorNotAllowed: (detail: string) => new AppError(403, 'tournaments.sponsor_not_allowed', detail),
  sponsorsClosed: (status: string) => new AppError(409, 'tournaments.sponsor_not_allowed', `Sponsors cannot be added to a ${status} tournament.`),
  sponsorLimit: (detail: string) => new AppError(409, 'tournaments.sponsor_limit', detail),
  duplicateSponsor: (name: string) => new AppError(409, 'tournaments.duplicate_sponsor', `A sponsor named ${name} is already listed for this tournament.`),
  placeTaken: (place: number) => new AppError(409, 'tournaments.place_taken', `Place ${place} is already given in this division; edit that placing with a reason.`),
  cannotCancel: (detail: string) => new AppError(409, 'tournaments.cannot_cancel', detail),
  badTransition: (from: string, action: string) => new AppError(409, 'tournaments.bad_transition', `A ${from} record cannot be ${action}.`),
};

/** The unique constraint a failed insert violated (drizzle wraps the driver's error in `cause`), or undefined. */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return undefined;
}

/** Whether a failed write violated a foreign key (drizzle wraps the driver's error in `cause`). */
export function foreignKeyViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23503') return true;
  return false;
}
