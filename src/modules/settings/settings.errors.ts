import { AppError } from '../../core/http/problem.js';

export const SettingsErrors = {
  notFound: (name: string) => new AppError(404, 'settings.not_found', `No system setting is named ${name}. List them with GET /api/admin/system-settings.`),
  duplicate: (name: string) => new AppError(409, 'settings.duplicate', `A setting named ${name} exists already; change it with PUT /api/admin/system-settings/${name}.`),
  invalidValue: (name: string, detail: string) =>
    new AppError(400, 'settings.invalid_value', `The value of ${name} ${detail}.`, { errors: [{ pointer: '/value', in: 'body', detail }] }),
  invalidSchema: (detail: string) =>
    new AppError(400, 'settings.invalid_constraints', `constraints.jsonSchema is not a usable JSON Schema: ${detail}.`, {
      errors: [{ pointer: '/constraints/jsonSchema', in: 'body', detail: 'is not a valid JSON Schema' }],
    }),
  inactive: (name: string) =>
    new AppError(409, 'settings.inactive', `${name} is deactivated; reactivate it with POST /api/admin/system-settings/${name}/reactivate before changing it.`),
  alreadyInactive: (name: string) => new AppError(409, 'settings.already_inactive', `${name} is already deactivated.`),
  alreadyActive: (name: string) => new AppError(409, 'settings.already_active', `${name} is active; nothing to reactivate.`),
  maintenance: (retryAfterSeconds: number) =>
    new AppError(503, 'system.maintenance', 'The service is down for maintenance; try again later.', { headers: { 'retry-after': String(retryAfterSeconds) } }),
};
