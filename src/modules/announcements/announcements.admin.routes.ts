import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders, PageQuery } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminAnnouncement, AdminAnnouncementsQuery, AnnouncementVersion, CreateAnnouncementBody, UpdateAnnouncementBody } from './announcements.schemas.js';
import * as service from './announcements.service.js';

/** /api/admin/announcements: writing announcements (Announcements.Create/Edit/Delete), audit-logged with a reason. */
export const announcementsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  app.addSchema(AdminAnnouncement);
  app.addSchema(AnnouncementVersion);
  const tags = ['admin: announcements'];
  const base = '/api/admin/announcements';
  const read = { access: { anyPermission: ['Announcements.Create' as const, 'Announcements.Edit' as const, 'Announcements.Delete' as const] } };

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        operationId: 'adminListAnnouncements',
        summary: 'List announcements with their dismissal counts',
        description: 'Newest first. Filters: `status` (Scheduled, Active, Ended, Inactive; the lower-case spellings are still accepted), `type`, `priority`.',
        querystring: AdminAnnouncementsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminAnnouncement'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listAnnouncements(services, request.query, page, now())),
  );

  app.get(
    `${base}/:id`,
    {
      config: read,
      schema: { tags, operationId: 'adminGetAnnouncement', summary: 'One announcement with its dismissal count', params: IdParams, response: { 200: Type.Ref('AdminAnnouncement'), ...errorResponses(404) } },
    },
    async (request) => service.getAnnouncement(services, request.params.id, now()),
  );

  app.get(
    `${base}/:id/versions`,
    {
      config: read,
      schema: {
        tags,
        operationId: 'adminAnnouncementVersions',
        summary: 'Earlier versions of an announcement',
        description: 'Newest first: the content each edit replaced, with who replaced it, when and why.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: { ...Type.Array(Type.Ref('AnnouncementVersion'), { maxItems: 100 }), headers: paginationHeaders }, ...errorResponses(404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.announcementVersions(services, request.params.id, page)),
  );

  app.post(
    base,
    {
      config: { access: { permission: 'Announcements.Create' } },
      schema: {
        tags,
        operationId: 'adminCreateAnnouncement',
        summary: 'Write an announcement',
        description:
          'The body is plain text, shown as such (no HTML or Markdown rendering, so nothing to sanitise). `startsAt` absent: shown from now; `endsAt` must be later than `startsAt` (400 naming /endsAt) or absent for an open-ended one. `audience` is "All" or a list of roles. Audit-logged with the reason.',
        body: CreateAnnouncementBody,
        response: { 201: Type.Ref('AdminAnnouncement') },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createAnnouncement(services, auditContextOf(request), request.body, now())),
  );

  app.put(
    `${base}/:id`,
    {
      config: { access: { permission: 'Announcements.Edit' } },
      schema: {
        tags,
        operationId: 'adminUpdateAnnouncement',
        summary: 'Replace an announcement’s content',
        description:
          'The full new content; the previous one is kept (GET …/versions) and `version` increases. Same rules as creating (400 naming /endsAt). Dismissals stay. Audit-logged with the reason.',
        params: IdParams,
        body: UpdateAnnouncementBody,
        response: { 200: Type.Ref('AdminAnnouncement'), ...errorResponses(404) },
      },
    },
    async (request) => service.updateAnnouncement(services, auditContextOf(request), request.params.id, request.body, now()),
  );

  lifecycleRoutes(app, {
    base,
    access: { permission: 'Announcements.Delete' },
    tags,
    noun: 'announcement',
    response: Type.Ref('AdminAnnouncement'),
    deactivationEffect: 'Nobody is shown the announcement any more; it stays listed here with its versions and dismissals.',
    handler: (request, id, active, reason) => service.setAnnouncementActive(services, auditContextOf(request), id, active, reason, now()),
  });
};
