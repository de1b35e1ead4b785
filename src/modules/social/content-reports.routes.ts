import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { FiledReport, ReportBody } from './content-reports.schemas.js';
import * as service from './content-reports.service.js';

export const reportsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(FiledReport);
  const tags = ['social: reports'];
  const response = { 201: Type.Ref('FiledReport'), ...errorResponses(403, 404, 409) };

  app.post(
    '/api/social/posts/:id/report',
    {
      schema: {
        tags,
        operationId: 'reportPost',
        summary: 'Report a post to the moderators',
        description: 'The post must be visible to you (403) and not yours (409). One open report per post and reporter (409 while it is open).',
        params: IdParams,
        body: ReportBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(await service.reportPost(services, principalOf(request).userId, request.params.id, request.body)),
  );

  app.post(
    '/api/social/comments/:id/report',
    {
      schema: {
        tags,
        operationId: 'reportComment',
        summary: 'Report a comment to the moderators',
        description: 'The comment must be visible to you (403) and not yours (409). One open report per comment and reporter.',
        params: IdParams,
        body: ReportBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(await service.reportComment(services, principalOf(request).userId, request.params.id, request.body)),
  );

  app.post(
    '/api/social/users/:id/report',
    {
      schema: {
        tags,
        operationId: 'reportUser',
        summary: 'Report a user to the moderators',
        description: 'Not yourself (409). One open report per user and reporter.',
        params: IdParams,
        body: ReportBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(await service.reportUser(services, principalOf(request).userId, request.params.id, request.body)),
  );
};
