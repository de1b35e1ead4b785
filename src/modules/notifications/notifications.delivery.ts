import type { ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { JobContext, Jobs } from '../../core/jobs/jobs.js';
import { isInAppOnlyType } from '../../core/notifications/outbox.js';
import { unseal } from '../../core/crypto/keys.js';
import type { SettingsReader } from '../../core/app-deps.js';
import { NOTIFICATION_EMAIL, WEBHOOK_DELIVERY } from './notifications.jobs.js';
import { composeMail, mailSettings, sendMail } from './notifications.mail.js';
import * as repo from './notifications.repository.js';
import * as webhooks from './webhooks.repository.js';
import { postWebhook } from './webhooks.transport.js';

/** The workers of the outbox: dispatch (fan-out), one mail, one webhook delivery. */

export interface DeliveryDeps extends ServiceDeps {
  jobs: Jobs;
  /** The settings key: SMTP password, webhook secrets, unsubscribe tokens. */
  key: Buffer;
  /** The live settings (mail). */
  settings: SettingsReader;
  webhooksAllowLocal: boolean;
}

const BATCH = 100;

/**
 * Claims undispatched events (SKIP LOCKED: dispatchers in several processes share the work) and
 * turns each into its mail jobs and webhook deliveries, then marks it dispatched, in one
 * transaction: the jobs are queued in it too (they exist once the deliveries they name do),
 * and their workers are woken after the commit.
 */
export async function dispatch(deps: DeliveryDeps): Promise<{ events: number }> {
  let events = 0;
  for (;;) {
    const claimed = await deps.db.transaction(async (tx) => {
      const rows = await repo.claimEvents(tx, BATCH);
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      const notes = (await repo.notificationsOfEvents(tx, ids)).filter((note) => !isInAppOnlyType(note.type));
      await deps.jobs.sendMany(
        tx,
        NOTIFICATION_EMAIL,
        notes.map((note) => ({ id: note.id, data: { notificationId: note.id } })),
      );
      const deliveries = [];
      const endpointsOf = new Map<string, Awaited<ReturnType<typeof webhooks.endpointsFor>>>();
      for (const event of rows) {
        if (!endpointsOf.has(event.type)) endpointsOf.set(event.type, await webhooks.endpointsFor(tx, event.type));
        for (const endpoint of endpointsOf.get(event.type)!) {
          deliveries.push({
            id: uuidv7(),
            endpointId: endpoint.id,
            eventId: event.id,
            type: event.type,
            body: { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.payload },
          });
        }
      }
      await webhooks.insertDeliveries(tx, deliveries);
      await deps.jobs.sendMany(
        tx,
        WEBHOOK_DELIVERY,
        deliveries.map((delivery) => ({ id: delivery.id, data: { deliveryId: delivery.id } })),
      );
      await repo.markDispatched(tx, ids);
      return rows.length;
    });
    if (claimed > 0) {
      deps.jobs.wake(NOTIFICATION_EMAIL);
      deps.jobs.wake(WEBHOOK_DELIVERY);
    }
    events += claimed;
    if (claimed < BATCH) return { events };
  }
}

/** Mails one notification, unless its recipient turned that kind off or has no address. */
export async function emailNotification(deps: DeliveryDeps, notificationId: string): Promise<{ sent: boolean }> {
  const target = await repo.mailTarget(deps.db, notificationId);
  if (!target || isInAppOnlyType(target.note.type) || !target.email || target.emailOff) return { sent: false };
  const { note, email } = target;
  const settings = await mailSettings(deps, deps.key, deps.settings);
  await sendMail(deps.db, settings, composeMail(settings, deps.key, { email, userId: note.recipientId }, note), note.id);
  return { sent: true };
}

/**
 * Posts one delivery to its endpoint and records the attempt. A non-2xx answer or a failure
 * throws, so the queue retries it with backoff, until its retries are used up: then it is Failed.
 */
export async function deliverWebhook(deps: DeliveryDeps, deliveryId: string, job: JobContext): Promise<{ status: number | null }> {
  const delivery = await webhooks.findDelivery(deps.db, deliveryId);
  if (!delivery || delivery.status !== 'Pending') return { status: delivery?.responseStatus ?? null };
  const endpoint = (await webhooks.findEndpoint(deps.db, delivery.endpointId))!;
  if (!endpoint.isActive) {
    await webhooks.recordAttempt(deps.db, deliveryId, { status: 'Failed', responseStatus: null, responseBody: null, error: 'the endpoint was deactivated' });
    return { status: null };
  }
  const result = await postWebhook(endpoint.url, unseal(endpoint.secretSealed, deps.key), JSON.stringify(delivery.body), { allowLocal: deps.webhooksAllowLocal });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const last = job.retryCount >= WEBHOOK_DELIVERY.retryLimit;
  const error = ok ? null : (result.error ?? `HTTP ${result.status}`);
  await webhooks.recordAttempt(deps.db, deliveryId, { status: ok ? 'Succeeded' : last ? 'Failed' : 'Pending', responseStatus: result.status, responseBody: result.body, error });
  if (!ok && !last) throw new Error(`webhook delivery ${deliveryId}: ${error}`);
  return { status: result.status };
}
