import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf, lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { settingsKey } from '../settings/settings.service.js';
import { CreatedWebhook, CreateWebhookBody, DeliveriesQuery, DeliveryParams, RetryDeliveryBody, DELIVERY_EXAMPLE, Webhook, WEBHOOK_EXAMPLE, WebhookDelivery, WebhooksQuery } from './webhooks.schemas.js';
import * as service from './webhooks.service.js';

/**
 * /api/admin/webhooks: endpoints of integrators (a club site, a charter operator's booking
 * system) that receive signed deliveries of the events they subscribe to. Admin and Owner.
 */
export const webhooksAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const webhooks: service.WebhooksDeps = { ...serviceDeps(deps), jobs: deps.jobs, key: settingsKey(deps.config), allowLocal: deps.config.webhooksAllowLocal };
  app.addSchema(Webhook);
  app.addSchema(WebhookDelivery);
  const tags = ['admin: webhooks'];
  const config = { access: 'admin' as const };
  const base = '/api/admin/webhooks';

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        operationId: 'adminCreateWebhook',
        summary: 'Register a webhook endpoint',
        description:
          'The endpoint receives a POST per event of the listed types: JSON `{ id, type, createdAt, data }` (data: the record’s public view), signed in ' +
          '`X-Fishlog-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the secret answered here once. A non-2xx answer is retried ' +
          'with exponential backoff for 24 hours. The URL must be https:// and must not point at a private, loopback or link-local address (400 `webhooks.url_refused`). Audit-logged.',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook, ...errorResponses(400) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createWebhook(webhooks, auditContextOf(request), request.body)),
  );

  app.get(
    base,
    {
      config,
      schema: {
        tags,
        operationId: 'adminListWebhooks',
        summary: 'List webhook endpoints',
        description: 'Newest first; `status` Active (default), Inactive or All. Secrets are never shown again.',
        querystring: WebhooksQuery,
        response: { 200: { ...Type.Array(Type.Ref('Webhook'), { maxItems: 100 }), headers: paginationHeaders, examples: [[WEBHOOK_EXAMPLE]] }, ...errorResponses(400) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listWebhooks(webhooks, request.query.status, page)),
  );

  app.get(
    `${base}/:id`,
    { config, schema: { tags, operationId: 'adminGetWebhook', summary: 'One webhook endpoint', params: IdParams, response: { 200: Type.Ref('Webhook'), ...errorResponses(404) } } },
    async (request) => service.getWebhook(webhooks, request.params.id),
  );

  app.get(
    `${base}/:id/deliveries`,
    {
      config,
      schema: {
        tags,
        operationId: 'adminListWebhookDeliveries',
        summary: 'The delivery log of an endpoint',
        description: 'Newest first: each delivery with its attempts, the status code and the first 1 KB of the last answer, and the last error. Filter `status`.',
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: { ...Type.Array(Type.Ref('WebhookDelivery'), { maxItems: 100 }), headers: paginationHeaders, examples: [[DELIVERY_EXAMPLE]] }, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.deliveries(webhooks, request.params.id, request.query.status, page)),
  );

  app.post(
    `${base}/:id/ping`,
    {
      config,
      schema: {
        tags,
        operationId: 'adminPingWebhook',
        summary: 'Send a test ping',
        description: 'Queues a signed `ping` delivery (`data: { webhookId }`) and answers it Pending; its outcome shows in the delivery log. 409 for a deactivated endpoint. Audit-logged.',
        params: IdParams,
        response: { 202: Type.Ref('WebhookDelivery'), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.ping(webhooks, auditContextOf(request), request.params.id)),
  );

  app.post(
    `${base}/:id/deliveries/:deliveryId/retry`,
    {
      config,
      schema: {
        tags,
        operationId: 'adminRetryWebhookDelivery',
        summary: 'Send a failed delivery again',
        description:
          'A Failed delivery (its retries used up, e.g. while the receiver was down) goes back to Pending and is queued with a fresh round of retries: the same body and ' +
          'event id (a receiver that deduplicates by id is safe), signed anew. Answers it Pending; its outcome shows in the delivery log. 409 `webhooks.delivery_not_failed` ' +
          'for a Pending or Succeeded one, 409 for a deactivated endpoint. Audit-logged with the reason.',
        params: DeliveryParams,
        body: RetryDeliveryBody,
        response: { 202: Type.Ref('WebhookDelivery'), ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.retryDelivery(webhooks, auditContextOf(request), request.params.id, request.params.deliveryId, request.body.reason)),
  );

  lifecycleRoutes(app, {
    base,
    access: 'admin',
    tags,
    noun: 'webhook',
    response: Type.Ref('Webhook'),
    deactivationEffect: 'No further deliveries are sent to it (pending retries end as Failed).',
    handler: (request, id, active, reason) => service.setWebhookActive(webhooks, auditContextOf(request), id, active, reason),
  });
};
