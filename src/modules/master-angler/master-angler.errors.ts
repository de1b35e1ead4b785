import { AppError, type FieldError } from '../../core/http/problem.js';

/** The Master Angler problems (their codes keep the `regulations.` prefix they were published with). */
export const MasterAnglerErrors = {
  programNotFound: (id: string) => new AppError(404, 'regulations.program_not_found', `No Master Angler program has id ${id}.`),
  submissionNotFound: (id: string) => new AppError(404, 'regulations.submission_not_found', `No Master Angler submission has id ${id}.`),
  notInProgram: (species: string, program: string) =>
    new AppError(422, 'regulations.species_not_in_program', `${species} is not a qualifying species of ${program} (or the program states no minimum for it).`),
  programHasNoMinimums: (name: string, id: string) =>
    new AppError(
      409,
      'regulations.program_minimums_missing',
      `${name} has no qualifying minimums in our data yet, so no entry can be checked. Submissions open once an administrator enters the minimums (PATCH /api/admin/regulations/programs/${id} with its species).`,
    ),
  belowMinimum: (detail: string) => new AppError(422, 'regulations.below_program_minimum', detail),
  measureMissing: (detail: string) => new AppError(422, 'regulations.measure_missing', detail),
  alreadySubmitted: (id: string) =>
    new AppError(409, 'regulations.already_submitted', `You have an entry for this species in this program year already (submission ${id}); one entry per species per program year.`),
  badTransition: (from: string, to: string) => new AppError(409, 'regulations.invalid_transition', `A submission in state ${from} cannot become ${to}.`),
  resubmitUsed: () => new AppError(409, 'regulations.resubmission_used', 'This submission was already resubmitted once after a rejection; no further resubmission is accepted.'),
  programInactive: (id: string) => new AppError(409, 'regulations.program_inactive', `Program ${id} is deactivated and takes no submissions.`),
  invalidProgram: (errors: FieldError[]) =>
    new AppError(400, 'regulations.invalid_program', `The program is not consistent: ${errors.map((e) => `${e.pointer.slice(1)} ${e.detail}`).join('; ')}.`, { errors }),
  duplicateProgram: (name: string) => new AppError(409, 'regulations.duplicate_program', `The jurisdiction has a program named ${name} already.`),
};
