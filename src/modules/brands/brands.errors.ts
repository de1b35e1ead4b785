import { AppError } from '../../core/http/problem.js';

export const BrandErrors = {
  notFound: (id: string) => new AppError(404, 'brands.not_found', `No brand has id ${id}. Search the list at GET /api/brands.`),
  duplicate: (name: string, id: string) => new AppError(409, 'brands.duplicate', `A brand named ${name} already exists (id ${id}); update that brand instead.`),
  unknownCountry: (code: string) =>
    new AppError(400, 'brands.unknown_country', `${code} is not an ISO 3166-1 alpha-2 country code; use e.g. US, JP, SE.`, {
      errors: [{ pointer: '/country', in: 'body', detail: 'is not an ISO 3166-1 alpha-2 country code' }],
    }),
  alreadyInactive: (id: string) => new AppError(409, 'brands.already_inactive', `Brand ${id} is already deactivated; reactivate it with POST /api/admin/brands/${id}/reactivate.`),
  alreadyActive: (id: string) => new AppError(409, 'brands.already_active', `Brand ${id} is active; nothing to reactivate.`),
  /** A brand id given in another resource's body that does not exist or is deactivated. */
  badReference: (pointer: string, id: string, inactive: boolean) =>
    new AppError(400, 'brands.invalid_reference', inactive ? `Brand ${id} is deactivated; reactivate it first or pick another brand.` : `No brand has id ${id}.`, {
      errors: [{ pointer, in: 'body', detail: inactive ? 'refers to a deactivated brand' : 'refers to no brand' }],
    }),
};
