import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { feedHeaders, paginateFeed } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Notification, NOTIFICATION_EXAMPLE, NotificationsQuery, ReadAllResult, UnreadCount } from './notifications.schemas.js';
import * as service from './notifications.service.js';

/** /api/notifications: your in-app notifications (the outbox's rows for you). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = deps.database.db;
  app.addSchema(Notification);
  const tags = ['notifications'];
  const ref = Type.Ref('Notification');

  app.get(
    '/api/notifications',
    {
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
        paginateFeed(request, reply, request.query, (page) => service.list(db, viewer, request.query.unread === true, page)),
        service.unreadCount(db, viewer),
      ]);
      reply.header('x-unread-count', String(unread));
      return items;
    },
  );

  app.get(
    '/api/notifications/unread-count',
    { schema: { tags, operationId: 'countUnreadNotifications', summary: 'How many of your notifications are unread', response: { 200: UnreadCount } } },
    async (request) => service.unreadCount(db, principalOf(request)),
  );

  app.post(
    '/api/notifications/read-all',
    { schema: { tags, operationId: 'markAllNotificationsRead', summary: 'Mark all your notifications read', response: { 200: ReadAllResult } } },
    async (request) => service.markAllRead(db, principalOf(request)),
  );

  app.get(
    '/api/notifications/:id',
    {
      schema: { tags, operationId: 'getNotification', summary: 'One of your notifications', description: '403 when it was sent to someone else.', params: IdParams, response: { 200: ref, ...errorResponses(403, 404) } },
    },
    async (request) => service.get(db, principalOf(request), request.params.id),
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        tags,
        operationId: 'markNotificationRead',
        summary: 'Mark a notification read',
        description: 'Idempotent: a notification read before keeps its first `readAt`. 403 when it was sent to someone else.',
        params: IdParams,
        response: { 200: ref, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.markRead(db, principalOf(request), request.params.id),
  );
};
