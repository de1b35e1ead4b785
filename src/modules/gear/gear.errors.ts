import { AppError } from '../../core/http/problem.js';
import { KIND_SEGMENTS, type GearKind } from './gear.kinds.js';

export const GearErrors = {
  notFound: (kind: GearKind, id: string) =>
    new AppError(404, 'gear.item_not_found', `No ${kind} has id ${id}. Browse the catalog at GET /api/gear/${KIND_SEGMENTS[kind]}.`),
  wrongKind: (kind: GearKind, id: string, actual: GearKind) =>
    new AppError(404, 'gear.item_not_found', `No ${kind} has id ${id}: that item is a ${actual} (GET /api/gear/${KIND_SEGMENTS[actual]}/${id}).`),
  duplicate: (kind: GearKind, name: string, id: string) =>
    new AppError(409, 'gear.duplicate_item', `The brand already has a ${kind} named "${name}" (id ${id}); update that item instead.`),
  slugTaken: (slug: string) =>
    new AppError(409, 'gear.slug_taken', `The slug "${slug}" is taken by another catalog item; choose another one.`),
  missingField: (field: string, why: string) =>
    new AppError(400, 'gear.field_required', `${field} is required ${why}.`, { errors: [{ pointer: `/${field}`, in: 'body', detail: `is required ${why}` }] }),
  fieldNotAllowed: (field: string, why: string) =>
    new AppError(400, 'gear.field_not_allowed', `${field} does not apply ${why}; leave it out.`, { errors: [{ pointer: `/${field}`, in: 'body', detail: `does not apply ${why}` }] }),
  badRange: (field: string, other: string) =>
    new AppError(400, 'gear.invalid_range', `${field} must not be smaller than ${other}.`, { errors: [{ pointer: `/${field}`, in: 'body', detail: `must not be smaller than ${other}` }] }),
  alreadyInactive: (kind: GearKind, id: string) =>
    new AppError(409, 'gear.already_inactive', `This ${kind} is already deactivated; reactivate it with POST /api/admin/gear/${KIND_SEGMENTS[kind]}/${id}/reactivate.`),
  alreadyActive: (kind: GearKind) => new AppError(409, 'gear.already_active', `This ${kind} is active; nothing to reactivate.`),
};
