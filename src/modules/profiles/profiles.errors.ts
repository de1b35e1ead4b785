import { AppError } from '../../core/http/problem.js';

export const ProfileErrors = {
  userNotFound: (id: string) => new AppError(404, 'profiles.user_not_found', `No user has id ${id}.`),
  unknownSpecies: (id: string) =>
    new AppError(400, 'profiles.unknown_species', `No active species has id ${id}; pick one from GET /api/fish-species.`, {
      errors: [{ pointer: '/favouriteSpeciesId', in: 'body', detail: 'is not a known species' }],
    }),
};
