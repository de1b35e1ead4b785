import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Announcement } from './announcements.schemas.js';
import * as service from './announcements.service.js';

/** /api/announcements: the caller's announcements, and dismissing them. */
export const announcementsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  app.addSchema(Announcement);
  const tags = ['announcements'];

  app.get(
    '/api/announcements',
    {
      schema: {
        tags,
        operationId: 'listMyAnnouncements',
        summary: 'Announcements for you now',
        description: `Active now (started, not ended, not deactivated), targeted at your role, not dismissed by you; highest priority first, then newest; at most ${service.USER_LIST_LIMIT}. Bodies are plain text: show them as text.`,
        response: { 200: Type.Array(Type.Ref('Announcement'), { maxItems: service.USER_LIST_LIMIT }) },
      },
    },
    async (request) => service.myAnnouncements(services, principalOf(request), now()),
  );

  app.post(
    '/api/announcements/:id/dismiss',
    {
      schema: {
        tags,
        operationId: 'dismissAnnouncement',
        summary: 'Hide an announcement from your list',
        description:
          'Idempotent: dismissing again is also a 204. A Persistent announcement cannot be dismissed (409 `announcements.not_dismissible`). An announcement not shown to you now (not for your role, not started, ended, deactivated or unknown) is a 404.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Dismissed' }), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await service.dismissAnnouncement(services, principalOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );
};
