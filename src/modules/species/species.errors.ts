import { AppError } from '../../core/http/problem.js';

export const SpeciesErrors = {
  notFound: (id: string) => new AppError(404, 'species.not_found', `No fish species has id ${id}. Search the list at GET /api/fish-species.`),
  duplicate: (scientificName: string, id: string) =>
    new AppError(409, 'species.duplicate', `${scientificName} is already in the catalogue (id ${id}); update that species instead.`),
  familyRequired: (genus: string) =>
    new AppError(400, 'species.family_required', `The genus ${genus} is new to the catalogue: give its family (e.g. "Centrarchidae").`, {
      errors: [{ pointer: '/family', in: 'body', detail: `is required for the new genus ${genus}` }],
    }),
  orderRequired: (family: string) =>
    new AppError(400, 'species.order_required', `The family ${family} is new to the catalogue: give its order (e.g. "Perciformes").`, {
      errors: [{ pointer: '/order', in: 'body', detail: `is required for the new family ${family}` }],
    }),
  taxonomyConflict: (child: string, parent: string, given: string) =>
    new AppError(409, 'species.taxonomy_conflict', `${child} belongs to ${parent} in the catalogue, not to ${given}. Leave the field out or correct it.`),
  alreadyInactive: (id: string) => new AppError(409, 'species.already_inactive', `Species ${id} is already deactivated; reactivate it with POST /api/admin/species/${id}/reactivate.`),
  alreadyActive: (id: string) => new AppError(409, 'species.already_active', `Species ${id} is active; nothing to reactivate.`),
  /** A species id given in another resource's body that does not exist or is deactivated. */
  badReference: (pointer: string, id: string, inactive: boolean) =>
    new AppError(400, 'species.invalid_reference', inactive ? `Species ${id} is deactivated and cannot be referenced any more.` : `No fish species has id ${id}.`, {
      errors: [{ pointer, in: 'body', detail: inactive ? 'refers to a deactivated species' : 'refers to no species' }],
    }),
};
