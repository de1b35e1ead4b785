import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { legacyPoint } from '../../core/http/coordinates.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { ByLocationQuery, CreateFishingReportBody, FishingReport, HelpfulResult, NearbyFishingReport } from './fishing-reports.schemas.js';
import * as service from './fishing-reports.service.js';

/** /api/reports: anglers' fishing reports (not to be confused with reports of content at /api/social/…/report). */
export const fishingReportsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [FishingReport, NearbyFishingReport, HelpfulResult]) app.addSchema(schema);
  const tags = ['community: fishing reports'];

  app.post(
    '/api/reports',
    {
      preValidation: legacyPoint('lat', 'lon'),
      schema: {
        tags,
        operationId: 'createFishingReport',
        summary: 'Report how the fishing was',
        description:
          'Location, water body, the day, conditions (water temperature °C, clarity, sky, wind km/h and direction), species with their bite, and text. ' +
          'Moderated like posts: `status` is Published, PendingReview (held for a moderator) or Rejected (with `moderationReason`). ' +
          'Others see the location rounded to ~1 km unless `exactLocation` is true. An unknown or deactivated species is a 400 naming the field.',
        body: CreateFishingReportBody,
        response: { 201: Type.Ref('FishingReport'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createReport(services, principalOf(request), request.body, request.log)),
  );

  app.get(
    '/api/reports/by-location',
    {
      schema: {
        tags,
        operationId: 'listFishingReportsByLocation',
        summary: 'Fishing reports near a point, newest first',
        description: `Published reports whose shown location is within \`radiusKm\` (default 25, at most 100) of \`lat\`/\`lon\`, newest fishing day first, with helpful counts and \`distanceKm\`. Filter \`speciesId\`.`,
        querystring: ByLocationQuery,
        response: { 200: { ...Type.Array(Type.Ref('NearbyFishingReport')), headers: paginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.reportsByLocation(
          services,
          principalOf(request),
          { lat: request.query.lat, lon: request.query.lon, radiusKm: request.query.radiusKm ?? 25 },
          { speciesId: request.query.speciesId },
          page,
        ),
      ),
  );

  app.get(
    '/api/reports/:id',
    {
      schema: {
        tags,
        operationId: 'getFishingReport',
        summary: 'One fishing report',
        description: 'A report held for review or rejected is a 403 for everyone but its author.',
        params: IdParams,
        response: { 200: Type.Ref('FishingReport'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.getReport(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/reports/:id/rate',
    {
      schema: {
        tags,
        operationId: 'markFishingReportHelpful',
        summary: 'Mark a fishing report helpful',
        description: 'Once per angler (409 the second time); not your own report (409 reports.own_report); only a published one (403 reports.not_published for others\' unpublished reports, which you cannot see).',
        params: IdParams,
        response: { 200: Type.Ref('FishingReportHelpful'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.setHelpful(services, principalOf(request), request.params.id, true),
  );

  app.delete(
    '/api/reports/:id/rate',
    {
      schema: {
        tags,
        operationId: 'unmarkFishingReportHelpful',
        summary: 'Undo your helpful mark',
        description: '409 when you had not marked it.',
        params: IdParams,
        response: { 200: Type.Ref('FishingReportHelpful'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.setHelpful(services, principalOf(request), request.params.id, false),
  );
};
