import { AppError } from '../../core/http/problem.js';

export const SpotErrors = {
  notFound: (id: string) => new AppError(404, 'spots.not_found', `No spot has id ${id}. Search with GET /api/spots/nearby.`),
  facilityIsPublic: (kind: string) =>
    new AppError(400, 'spots.facility_public', `A ${kind} is a public facility: its location is always exact, so privacy must be Public.`, {
      errors: [{ pointer: '/privacy', in: 'body', detail: `must be Public for a ${kind}` }],
    }),
  rampFactsOnlyForRamps: () =>
    new AppError(400, 'spots.ramp_facts_not_ramp', 'Ramp facts (ramp) are only for spots of kind BoatRamp; leave them out or change the kind.', {
      errors: [{ pointer: '/ramp', in: 'body', detail: 'only for kind BoatRamp' }],
    }),
  feeWithoutFlag: () =>
    new AppError(400, 'spots.fee_inconsistent', 'feeCents is given but feeRequired is false; set feeRequired to true or leave feeCents out.', {
      errors: [{ pointer: '/ramp/feeCents', in: 'body', detail: 'requires feeRequired: true' }],
    }),
  alreadyConfirmed: () => new AppError(409, 'spots.already_confirmed', 'You confirmed this spot already; a user confirms a spot once.'),
  alreadyVerified: (id: string) => new AppError(409, 'spots.already_verified', `Spot ${id} is verified already.`),
  alreadyInactive: (id: string) => new AppError(409, 'spots.already_inactive', `Spot ${id} is already deactivated; reactivate it with POST /api/admin/spots/${id}/reactivate.`),
  alreadyActive: (id: string) => new AppError(409, 'spots.already_active', `Spot ${id} is active; nothing to reactivate.`),
};
