import { AppError } from '../../core/http/problem.js';
import type { FieldError } from '../../core/http/problem.js';

export const LookupErrors = {
  notFound: (id: string) => new AppError(404, 'lookups.not_found', `No lookup value ${id}. List them with GET /api/admin/lookups/values.`),
  unknownCategory: (category: string) =>
    new AppError(404, 'lookups.unknown_category', `No lookup category ${category} has values. GET /api/admin/lookups/categories lists them (administrators add values to a new category with POST /api/admin/lookups/values).`),
  duplicateCode: (category: string, code: string) =>
    new AppError(409, 'lookups.duplicate_code', `${category} already has a value ${code} (codes are unique within a category; reactivate it if it is deactivated).`, {
      errors: [{ pointer: '/code', in: 'body', detail: 'is already used in this category' }],
    }),
  immutable: (fields: readonly string[]) =>
    new AppError(400, 'lookups.immutable', `A value's ${fields.join(' and ')} never change (records keep the code): deactivate this value and create another instead.`, {
      errors: fields.map((f) => ({ pointer: `/${f}`, in: 'body' as const, detail: 'cannot be changed' })),
    }),
  alreadyActive: (id: string) => new AppError(409, 'lookups.already_active', `Lookup value ${id} is active; nothing to reactivate.`),
  alreadyInactive: (id: string) => new AppError(409, 'lookups.already_inactive', `Lookup value ${id} is already deactivated.`),
  /** A record's field holds a code that is not an active value of its category. */
  unknownValues: (errors: FieldError[]) =>
    new AppError(400, 'lookups.unknown_value', `${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`, { errors }),
};
