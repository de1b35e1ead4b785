import { AppError } from '../../core/http/problem.js';

export const ProfileErrors = {
  userNotFound: (id: string) => new AppError(404, 'profiles.user_not_found', `No user has id ${id}.`),
  notVisible: (visibility: string) =>
    new AppError(
      403,
      'profiles.not_visible',
      visibility === 'Private'
        ? 'This profile is private: only its owner sees it.'
        : visibility === 'Friends'
          ? 'This profile is visible to the owner’s friends only: both of you must have added each other (POST /api/social/friends/{friendId}).'
          : 'This profile is visible to the owner’s circle only: the owner must put you in their circle.',
    ),
  unknownSpecies: (id: string) =>
    new AppError(400, 'profiles.unknown_species', `No active species has id ${id}; pick one from GET /api/fish-species.`, {
      errors: [{ pointer: '/favouriteSpeciesId', in: 'body', detail: 'is not a known species' }],
    }),
};
