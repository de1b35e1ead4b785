import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { Type } from 'typebox';
import { ModerationSettingsBody, ModerationSettingsView } from './moderation-settings.admin.schemas.js';
import * as service from './moderation-settings.admin.service.js';

export const moderationSettingsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(ModerationSettingsView);
  const tags = ['admin: moderation'];

  app.get(
    '/api/admin/moderation-settings',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'getModerationSettings',
        summary: "Moderation settings and this month's figures",
        description: 'Provider, model, base URL, whether an API key is set (never the key), thresholds, budget; dashboard: calls, cost, flag rate this month. Audit-logged.',
        response: { 200: Type.Ref('ModerationSettings') },
      },
    },
    async (request) => service.getSettings(services, auditContextOf(request)),
  );

  app.put(
    '/api/admin/moderation-settings',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'updateModerationSettings',
        summary: 'Change moderation settings',
        description:
          'Partial: omitted fields keep their value, null clears a nullable one. `apiKey` is write-only. Selecting `openai` needs an API key. Changing the provider resets `model` to its default unless one is sent. Changing the provider or `baseUrl` drops the stored API key unless `apiKey` is sent in the same request (a key is only sent to the endpoint it was given for). `baseUrl` must be https (http only when the server sets FISHLOG_MODERATION_ALLOW_HTTP). Audit-logged (without the key).',
        body: ModerationSettingsBody,
        response: { 200: Type.Ref('ModerationSettings') },
      },
    },
    async (request) => service.changeSettings(services, auditContextOf(request), request.body, { allowHttp: deps.config.moderationAllowHttp }),
  );
};
