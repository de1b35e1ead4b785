import { AppError } from '../../core/http/problem.js';
import { KIND_SEGMENTS, type GearKind } from './gear.kinds.js';

const A_KIND: Record<GearKind, string> = { rod: 'a rod', reel: 'a reel', line: 'a line', lure: 'a lure', apparel: 'an apparel item' };

export const SetupErrors = {
  notFound: (id: string) => new AppError(404, 'gear.setup_not_found', `No gear setup has id ${id}. Your setups are at GET /api/gear/setups.`),
  badItem: (pointer: string, id: string, expected: GearKind, problem: { missing: true } | { kind: GearKind } | { inactive: true }) => {
    const detail =
      'missing' in problem
        ? `refers to no catalog item`
        : 'kind' in problem
          ? `refers to ${A_KIND[problem.kind]}, not ${A_KIND[expected]}`
          : 'refers to a deactivated catalog item';
    const what =
      'missing' in problem
        ? `No catalog ${expected} has id ${id}.`
        : 'kind' in problem
          ? `Item ${id} is ${A_KIND[problem.kind]}, not ${A_KIND[expected]}.`
          : `The ${expected} ${id} is deactivated (or its brand is) and cannot be chosen any more.`;
    return new AppError(400, 'gear.invalid_catalog_reference', `${what} Pick one from GET /api/gear/${KIND_SEGMENTS[expected]}.`, {
      errors: [{ pointer, in: 'body', detail }],
    });
  },
  /** For other modules: a setup id in their body that is not one of the caller's setups. */
  notYourSetup: (field: string, id: string) =>
    new AppError(400, 'gear.invalid_setup_reference', `${id} is not one of your gear setups; see GET /api/gear/setups.`, {
      errors: [{ pointer: field.startsWith('/') ? field : `/${field}`, in: 'body', detail: 'is not one of your gear setups' }],
    }),
};
