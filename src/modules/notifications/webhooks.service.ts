import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { randomBytes } from 'node:crypto';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { seal } from '../../core/crypto/keys.js';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { Page } from '../../core/http/pagination.js';
import type { Jobs } from '../../core/jobs/jobs.js';
import { NotificationErrors } from './notifications.errors.js';
import { WEBHOOK_DELIVERY } from './notifications.jobs.js';
import * as repo from './webhooks.repository.js';
import type { CreateWebhookBodyType } from './webhooks.schemas.js';
import { refusedUrl } from './webhooks.transport.js';

/** Webhook endpoints of integrators (Admin/Owner): registration, deactivation, the delivery log, a test ping. */

export interface WebhooksDeps extends ServiceDeps {
  jobs: Jobs;
  key: Buffer;
  allowLocal: boolean;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function endpointView(row: repo.EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    isActive: row.isActive,
    deactivatedAt: iso(row.deactivatedAt),
    deactivationReason: row.deactivationReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function deliveryView(row: repo.DeliveryRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    error: row.error,
    lastAttemptAt: iso(row.lastAttemptAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Registers an endpoint; its signing secret is answered this once (stored sealed). */
export async function createWebhook(deps: WebhooksDeps, context: AuditContext, body: CreateWebhookBodyType) {
  const refused = refusedUrl(body.url, deps.allowLocal);
  if (refused) throw NotificationErrors.webhookUrlRefused(refused);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  return deps.db.transaction(async (tx) => {
    const row = await repo.insertEndpoint(tx, {
      id: uuidv7(),
      url: body.url,
      description: body.description ?? null,
      eventTypes: body.eventTypes,
      secretSealed: seal(secret, deps.key),
      createdBy: context.actor.userId ?? null,
    });
    await recordAudit(inTx(deps, tx), context, { action: 'webhooks.created', targetType: 'webhook_endpoint', targetId: row.id, reason: body.reason, after: { url: row.url, eventTypes: row.eventTypes } });
    return { ...endpointView(row), secret };
  });
}

export async function listWebhooks(deps: ServiceDeps, status: 'Active' | 'Inactive' | 'All' | undefined, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listEndpoints(db, { active: status === 'All' ? undefined : status !== 'Inactive' }, page);
  return { items: items.map(endpointView), total };
}

async function found(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  const row = await repo.findEndpoint(db, id);
  if (!row) throw NotificationErrors.webhookNotFound(id);
  return row;
}

export async function getWebhook(deps: ServiceDeps, id: string) {
  return endpointView(await found(deps, id));
}

const lifecycle: Lifecycle<repo.EndpointRow, ReturnType<typeof endpointView>> = {
  lock: (tx, id) => repo.findEndpoint(tx, id, true),
  update: (tx, id, values) => repo.setEndpointActive(tx, id, values),
  view: async (deps, id) => endpointView(await found(deps, id)),
  notFound: NotificationErrors.webhookNotFound,
  alreadyActive: NotificationErrors.webhookActive,
  alreadyInactive: NotificationErrors.webhookInactive,
  audit: { targetType: 'webhook_endpoint', deactivated: 'webhooks.deactivated', reactivated: 'webhooks.reactivated' },
};

export function setWebhookActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  return setActive(deps, context, lifecycle, id, active, reason);
}

export async function deliveries(deps: ServiceDeps, id: string, status: repo.DeliveryRow['status'] | undefined, page: Page) {
  const { db } = deps;
  await found(deps, id);
  const { items, total } = await repo.listDeliveries(db, id, { status }, page);
  return { items: items.map(deliveryView), total };
}

/** Queues a `ping` delivery to an active endpoint (signed like every delivery), logged like the others. */
export async function ping(deps: WebhooksDeps, context: AuditContext, id: string) {
  const endpoint = await found(deps, id);
  if (!endpoint.isActive) throw NotificationErrors.webhookInactive(id);
  const deliveryId = uuidv7();
  const createdAt = new Date().toISOString();
  // The answer is the delivery as queued, read before the commit: once woken, a worker may send it before a later read.
  const queued = await deps.db.transaction(async (tx) => {
    await repo.insertDeliveries(tx, [{ id: deliveryId, endpointId: id, eventId: null, type: 'ping', body: { id: deliveryId, type: 'ping', createdAt, data: { webhookId: id } } }]);
    await recordAudit(inTx(deps, tx), context, { action: 'webhooks.pinged', targetType: 'webhook_endpoint', targetId: id });
    await deps.jobs.sendMany(tx, WEBHOOK_DELIVERY, [{ id: deliveryId, data: { deliveryId } }]);
    return (await repo.findDelivery(tx, deliveryId))!;
  });
  deps.jobs.wake(WEBHOOK_DELIVERY);
  return deliveryView(queued);
}

/**
 * Sends a Failed delivery again (its retries used up, e.g. while the receiver was down): back to
 * Pending and queued as a new job with a fresh round of retries; the same body and event id, so
 * a receiver that deduplicates by id is safe. Audit-logged with the reason.
 */
export async function retryDelivery(deps: WebhooksDeps, context: AuditContext, id: string, deliveryId: string, reason: string) {
  const endpoint = await found(deps, id);
  if (!endpoint.isActive) throw NotificationErrors.webhookInactive(id);
  const queued = await deps.db.transaction(async (tx) => {
    if (!(await repo.requeueFailedDelivery(tx, id, deliveryId))) {
      const delivery = await repo.findDelivery(tx, deliveryId);
      if (!delivery || delivery.endpointId !== id) throw NotificationErrors.deliveryNotFound(id, deliveryId);
      throw NotificationErrors.deliveryNotFailed(deliveryId, delivery.status);
    }
    await recordAudit(inTx(deps, tx), context, { action: 'webhooks.delivery_retried', targetType: 'webhook_endpoint', targetId: id, reason, after: { deliveryId } });
    await deps.jobs.sendMany(tx, WEBHOOK_DELIVERY, [{ data: { deliveryId } }]);
    return (await repo.findDelivery(tx, deliveryId))!;
  });
  deps.jobs.wake(WEBHOOK_DELIVERY);
  return deliveryView(queued);
}
