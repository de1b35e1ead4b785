import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { feedHeaders, paginateFeed } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Notification, NOTIFICATION_EXAMPLE, NotificationsQuery, Preference, PreferencesBody, PREFERENCES_EXAMPLE, ReadAllResult, UnreadCount } from './notifications.schemas.js';
import * as service from './notifications.service.js';
import { listenChannel, listenWhileServing } from '../../core/db/listen.js';
import { settingsKey } from '../settings/settings.service.js';
import { deliverWebhook, dispatch, emailNotification, type DeliveryDeps } from './notifications.delivery.js';
import { NOTIFICATION_EMAIL, NOTIFICATIONS_DISPATCH, WEBHOOK_DELIVERY } from './notifications.jobs.js';
import { UnsubscribeQuery, UnsubscribeResult } from './notifications.schemas.js';

/** The shortest time between two wake-ups of the dispatch by committed events. */
const WAKE_MS = 250;

/** /api/notifications: your in-app notifications (the outbox's rows for you). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const key = settingsKey(deps.config);
  const delivery: DeliveryDeps = { ...serviceDeps(deps), jobs: deps.jobs, key, settings: deps.settings, webhooksAllowLocal: deps.config.webhooksAllowLocal };
  deps.jobs.work(NOTIFICATIONS_DISPATCH, () => dispatch(delivery));
  deps.jobs.work<{ notificationId: string }>(NOTIFICATION_EMAIL, (data) => emailNotification(delivery, data.notificationId));
  deps.jobs.work<{ deliveryId: string }>(WEBHOOK_DELIVERY, (data, job) => deliverWebhook(delivery, data.deliveryId, job));
  if (deps.config.jobs.work) {
    // A committed event wakes the dispatch (the minute's sweep catches what this misses): at once,
    // then at most once per WAKE_MS while events keep coming, so a burst is dispatched in batches.
    let lastWake = 0;
    let waking: NodeJS.Timeout | undefined;
    const send = () => {
      lastWake = Date.now();
      waking = undefined;
      void deps.jobs.send(NOTIFICATIONS_DISPATCH).catch((error: unknown) => app.log.warn({ err: error }, 'could not queue the notification dispatch'));
    };
    const wake = () => {
      if (waking) return;
      const wait = lastWake + WAKE_MS - Date.now();
      if (wait <= 0) send();
      else waking = setTimeout(send, wait).unref();
    };
    app.addHook('onClose', async () => clearTimeout(waking));
    listenWhileServing(app, deps.database.pool, (pool, log) => listenChannel(pool, 'fishlog_notifications', { onNotify: wake, onGap: (listening) => listening && wake() }, log));
  }
  app.addSchema(Notification);
  app.addSchema(Preference);
  const tags = ['notifications'];
  const ref = Type.Ref('Notification');

  // A banned user still reads (and marks) their notifications: the ban itself, the appeal's decision.
  const config = { allowBanned: true };

  app.get(
    '/api/notifications',
    {
      config,
      schema: {
        tags,
        operationId: 'listNotifications',
        summary: 'Your notifications',
        description:
          'Newest first; `unread=true` for the ones not read yet. Keyset pages: follow the `next` link of the `Link` header (it carries a `cursor`). ' +
          '`X-Unread-Count` gives your unread total. Each notification says what happened and carries the API `path` of the record.',
        querystring: NotificationsQuery,
        response: {
          200: { ...Type.Array(ref, { maxItems: 100 }), headers: { ...feedHeaders, 'x-unread-count': { type: 'integer', description: 'Your notifications not read yet' } }, examples: [[NOTIFICATION_EXAMPLE]] },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const viewer = principalOf(request);
      const [items, { unread }] = await Promise.all([
        paginateFeed(request, reply, request.query, (page) => service.list(services, viewer, request.query.unread === true, page)),
        service.unreadCount(services, viewer),
      ]);
      reply.header('x-unread-count', String(unread));
      return items;
    },
  );

  app.get(
    '/api/notifications/unread-count',
    { config, schema: { tags, operationId: 'countUnreadNotifications', summary: 'How many of your notifications are unread', response: { 200: UnreadCount } } },
    async (request) => service.unreadCount(services, principalOf(request)),
  );

  app.post(
    '/api/notifications/read-all',
    { config, schema: { tags, operationId: 'markAllNotificationsRead', summary: 'Mark all your notifications read', response: { 200: ReadAllResult } } },
    async (request) => service.markAllRead(services, principalOf(request)),
  );

  const preferences = { ...Type.Array(Type.Ref('NotificationPreference')), examples: [PREFERENCES_EXAMPLE] };
  app.get(
    '/api/notifications/preferences',
    {
      config,
      schema: {
        tags,
        operationId: 'getNotificationPreferences',
        summary: 'Your notification preferences',
        description: 'Every notice type with your choice per channel (in-app, e-mail); on unless you turned it off. Security notices (bans, role and permission changes) are always shown in-app.',
        response: { 200: preferences },
      },
    },
    async (request) => service.preferences(services, principalOf(request).userId),
  );

  app.put(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        operationId: 'setNotificationPreferences',
        summary: 'Change your notification preferences',
        description:
          'Sets the channels named for each type listed; others keep their choice. 400 `notifications.security_in_app` for turning a security notice off in-app, ' +
          '`notifications.email_unavailable` for mailing an in-app-only notice. Every mail also carries a link that turns its type off by e-mail.',
        body: PreferencesBody,
        response: { 200: preferences, ...errorResponses(400) },
      },
    },
    async (request) => service.setPreferences(services, principalOf(request), request.body),
  );

  const unsubscribe = (operationId: string, summary: string) => ({
    config: { access: 'public' as const },
    schema: {
      tags,
      operationId,
      summary,
      description: 'The `ref` of the link at the end of a notification mail: turns that kind of e-mail off for its recipient, no sign-in needed. Idempotent. 400 `notifications.bad_unsubscribe_token` for a token this service did not issue.',
      security: [],
      querystring: UnsubscribeQuery,
      response: { 200: UnsubscribeResult, ...errorResponses(400) },
    },
  });
  app.get('/api/notifications/unsubscribe', unsubscribe('unsubscribeNotificationEmail', 'Stop e-mails of one kind (the link in a mail)'), async (request) => service.unsubscribe(services, key, request.query.ref));
  app.post('/api/notifications/unsubscribe', unsubscribe('unsubscribeNotificationEmailOneClick', 'Stop e-mails of one kind (one-click, RFC 8058)'), async (request) => service.unsubscribe(services, key, request.query.ref));

  app.get(
    '/api/notifications/:id',
    {
      config,
      schema: { tags, operationId: 'getNotification', summary: 'One of your notifications', description: '403 when it was sent to someone else.', params: IdParams, response: { 200: ref, ...errorResponses(403, 404) } },
    },
    async (request) => service.get(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/notifications/:id/read',
    {
      config,
      schema: {
        tags,
        operationId: 'markNotificationRead',
        summary: 'Mark a notification read',
        description: 'Idempotent: a notification read before keeps its first `readAt`. 403 when it was sent to someone else.',
        params: IdParams,
        response: { 200: ref, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.markRead(services, principalOf(request), request.params.id),
  );
};
