import { registerPersonalData } from '../../core/personal-data.js';
import { settingsPersonalData } from './settings.personal-data.js';
import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Role } from '../../core/access/roles.js';
import type { AppDeps } from '../../core/app-deps.js';
import { RequiredReasonBody } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders, PageQuery } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { MAINTENANCE_RETRY_AFTER_SECONDS, openDuringMaintenance } from '../../core/http/maintenance.js';
import { SettingsErrors } from './settings.errors.js';
import { SettingsRuntime } from './settings.runtime.js';
import { CreateSettingBody, SettingHistoryEntry, SettingNameParams, SettingsQuery, SystemSetting, UpdateSettingBody } from './settings.schemas.js';
import * as service from './settings.service.js';

const settingsRoutes: FastifyPluginAsyncTypebox<{ deps: Omit<AppDeps, 'settings'>; key: Buffer; runtime: SettingsRuntime }> = async (app, { deps, key, runtime }) => {
  // This process applies its own change before answering; the others within moments (NOTIFY).
  const applied = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    await runtime.refresh();
    return result;
  };
  const services = serviceDeps(deps);
  app.addSchema(SystemSetting);
  app.addSchema(SettingHistoryEntry);
  const tags = ['admin: system settings'];
  const base = '/api/admin/system-settings';
  const view = { access: { permission: 'Settings.View' as const } };

  app.get(
    base,
    {
      config: view,
      schema: {
        tags,
        operationId: 'adminListSystemSettings',
        summary: 'List system settings',
        description: 'By category and name; sensitive values masked ("••••" plus at most the last 4 characters). `status` Active (default), Inactive or All; `q` searches name and description.',
        querystring: SettingsQuery,
        response: { 200: { ...Type.Array(Type.Ref('SystemSetting'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listSettings(services, key, request.query, page)),
  );

  app.get(
    `${base}/:name`,
    {
      config: view,
      schema: { tags, operationId: 'adminGetSystemSetting', summary: 'One system setting', description: 'Sensitive values masked.', params: SettingNameParams, response: { 200: Type.Ref('SystemSetting'), ...errorResponses(404) } },
    },
    async (request) => service.getSetting(services, key, request.params.name),
  );

  app.get(
    `${base}/:name/history`,
    {
      config: view,
      schema: {
        tags,
        operationId: 'adminSystemSettingHistory',
        summary: 'Change history of a setting',
        description: 'Newest first: every creation, change, deactivation and reactivation with its value, who and why. A sensitive setting’s values show only "••••" (set) or null.',
        params: SettingNameParams,
        querystring: PageQuery,
        response: { 200: { ...Type.Array(Type.Ref('SystemSettingHistoryEntry'), { maxItems: 100 }), headers: paginationHeaders }, ...errorResponses(404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.settingHistory(services, key, request.params.name, page)),
  );

  app.post(
    base,
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'adminCreateSystemSetting',
        summary: 'Add a system setting (Owner)',
        description:
          'Typed (`String`, `Int`, `Bool`, `Json`) and validated against `constraints` (minimum/maximum, maxLength, a JSON Schema). A sensitive setting must be a String; its value is stored encrypted (FISHLOG_SETTINGS_KEY) and never returned nor audit-logged. 409 when the name exists. Audit-logged with the reason.',
        body: CreateSettingBody,
        response: { 201: Type.Ref('SystemSetting'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await applied(service.createSetting(services, key, auditContextOf(request), request.body))),
  );

  app.put(
    `${base}/:name`,
    {
      config: { access: { permission: 'Settings.Modify' as const } },
      schema: {
        tags,
        operationId: 'adminUpdateSystemSetting',
        summary: 'Change a setting’s value',
        description:
          'Settings.Modify: the Owner, or an Admin (or Moderator) explicitly granted it. The value is checked against the setting’s type and constraints (400 naming /value). Takes effect in every server process within moments (LISTEN/NOTIFY, re-read every 30 s as a fallback) unless `requiresRestart`. 409 when deactivated. Audit-logged with the reason (a sensitive value only as "[sensitive]").',
        params: SettingNameParams,
        body: UpdateSettingBody,
        response: { 200: Type.Ref('SystemSetting'), ...errorResponses(404, 409) },
      },
    },
    async (request) => applied(service.updateSetting(services, key, auditContextOf(request), request.params.name, request.body)),
  );

  for (const active of [false, true]) {
    app.post(
      `${base}/:name/${active ? 'reactivate' : 'deactivate'}`,
      {
        config: { access: { permission: 'Settings.Delete' as const } },
        schema: {
          tags,
          operationId: active ? 'adminReactivateSystemSetting' : 'adminDeactivateSystemSetting',
          summary: active ? 'Reactivate a setting (Owner)' : 'Deactivate (delete) a setting (Owner)',
          description: active
            ? 'Settings.Delete (Owner only). Its stored value applies again. 409 when active. Audit-logged with the reason.'
            : 'Settings.Delete (Owner only). Removal is deactivation: the setting stays with its history, and the built-in default applies in its place. 409 when already deactivated. Audit-logged with the reason.',
          params: SettingNameParams,
          body: RequiredReasonBody,
          response: { 200: Type.Ref('SystemSetting'), ...errorResponses(404, 409) },
        },
      },
      async (request) => applied(service.setSettingActive(services, key, auditContextOf(request), request.params.name, active, request.body.reason)),
    );
  }
};

const STAFF: ReadonlySet<number> = new Set([Role.Owner, Role.Admin, Role.Moderator]);

/**
 * System settings: the admin routes, and what the settings do in this process — `MaintenanceMode`
 * (503 for everyone but employees, /health and /api/auth); the modules read the others live
 * (`AppDeps.settings`: e.g. `MaxFileUploadSize` and `PhotoStorageQuota` in the photos module). Registered on the root instance (the maintenance hook applies to every route).
 */
export async function registerSystemSettings(app: FastifyInstance, deps: Omit<AppDeps, 'settings'>): Promise<SettingsRuntime> {
  // The settings module is started before the modules list: its personal data registers here.
  registerPersonalData(deps, settingsPersonalData);
  const runtime = new SettingsRuntime(deps.database.pool, app.log);
  await runtime.start();
  app.addHook('onClose', async () => runtime.close());

  // After authentication (route-level onRequest hooks): a public route authenticates a bearer token here.
  const duringMaintenance = async (request: FastifyRequest) => {
    if (openDuringMaintenance(request.url)) return;
    let principal = request.principal;
    if (!principal && request.headers.authorization) principal = await deps.authenticator.authenticate(request.headers.authorization).catch(() => null);
    if (principal && STAFF.has(principal.role)) return;
    throw SettingsErrors.maintenance(MAINTENANCE_RETRY_AFTER_SECONDS);
  };
  // Out of maintenance (nearly always) the request goes on at once, without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (runtime.get<boolean>('MaintenanceMode') !== true) return done(null, payload);
    duringMaintenance(request).then(() => done(null, payload), (error: Error) => done(error));
  });

  const key = service.settingsKey(deps.config);
  await app.register(settingsRoutes, { deps, key, runtime });
  return runtime;
}
