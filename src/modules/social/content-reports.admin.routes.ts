import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UserRef } from '../users/index.js';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminReport, ReportsQuery, ResolveBody } from './content-reports.admin.schemas.js';
import { ReportTargetTypeEnum } from './content-reports.schemas.js';
import * as service from './content-reports.admin.service.js';

export const adminReportsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(UserRef);
  app.addSchema(AdminReport);
  const tags = ['admin: reports'];

  app.get(
    '/api/admin/reports',
    {
      config: { access: { permission: 'Content.Moderate' } },
      schema: {
        tags,
        operationId: 'listReports',
        summary: 'User reports (complaints), oldest first',
        description: 'Filter by `status`, `targetType` and `targetId`. Each report shows what the reporter saw and what the content is now. Audit-logged.',
        querystring: ReportsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminReport')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.listReports(services, auditContextOf(request), { status: request.query.status, targetType: ReportTargetTypeEnum.fromApi(request.query.targetType), targetId: request.query.targetId }, page),
      ),
  );

  app.post(
    '/api/admin/reports/:id/resolve',
    {
      config: { access: { permission: 'Content.Moderate' } },
      schema: {
        tags,
        operationId: 'resolveReport',
        summary: 'Resolve a report',
        description:
          'With a resolution and a note. `ContentRejected` also rejects the reported post or comment (the note is the reason its author sees). 409 when the report is already resolved. Audit-logged.',
        params: IdParams,
        body: ResolveBody,
        response: { 200: Type.Ref('AdminReport'), ...errorResponses(404, 409) },
      },
    },
    async (request) => service.resolveReport(serviceDeps(deps), auditContextOf(request), request.params.id, request.body),
  );
};
