import { AppError } from '../../core/http/problem.js';

export const PersonalBestErrors = {
  notFound: (id: string) => new AppError(404, 'personalbests.not_found', `No personal best has id ${id}; GET /api/personalbest/me lists yours.`),
  notCurrent: () =>
    new AppError(409, 'personalbests.not_current', 'This personal best has since been replaced; pick one in force from GET /api/personalbest/me.'),
  ultimateNotSet: () => new AppError(404, 'personalbests.ultimate_not_set', 'This user has not chosen an ultimate personal best.'),
  unknownSpecies: (id: string) =>
    new AppError(400, 'personalbests.unknown_species', `No active species has id ${id}; pick one from GET /api/fish-species.`, {
      errors: [{ pointer: '/speciesId', in: 'body', detail: 'is not a known species' }],
    }),
  duplicateCriterion: (id: string) =>
    new AppError(409, 'personalbests.duplicate_criterion', `You already have this criterion (id ${id}); GET /api/personalbest/me/criteria lists yours.`),
  tooManyCriteria: (max: number) =>
    new AppError(409, 'personalbests.too_many_criteria', `You have reached the limit of ${max} criteria; delete one you no longer need first.`),
  criterionNotFound: (id: string) => new AppError(404, 'personalbests.criterion_not_found', `No personal-best criterion has id ${id}.`),
};
