import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginationHeaders, setPaginationHeaders, toPage, paginate } from '../../core/http/pagination.js';
import { AnalysisGroup, AnalysisQuery, AnalysisRecord, ResearchAccess, ResearchAccessQuery, ResearchConsentBody, ResearchConsentView } from './dnr.schemas.js';
import * as dnr from './dnr.service.js';
import { getResearchConsent } from '../profiles/research-consent.service.js';

export const dnrRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [ResearchConsentView, AnalysisRecord, AnalysisGroup, ResearchAccess]) app.addSchema(schema);
  const tags = ['fishing log: research'];

  app.get(
    '/api/fishinglog/research-consent',
    { schema: { tags, operationId: 'getResearchConsent', summary: 'Your research consent', response: { 200: Type.Ref('ResearchConsent') } } },
    async (request) => getResearchConsent(services, principalOf(request).userId),
  );

  app.put(
    '/api/fishinglog/research-consent',
    {
      schema: {
        tags,
        operationId: 'setResearchConsent',
        summary: 'Set your research consent',
        description: 'Applies to all your entries whatever their visibility; withdrawing it (None) applies to the next DNR read.',
        body: ResearchConsentBody,
        response: { 200: Type.Ref('ResearchConsent') },
      },
    },
    async (request) => dnr.setOwnResearchConsent(services, principalOf(request).userId, request.body.level),
  );

  app.get(
    '/api/fishinglog/research-access',
    {
      schema: {
        tags,
        operationId: 'listResearchAccess',
        summary: 'DNR reads that included your data, newest first',
        querystring: ResearchAccessQuery,
        response: { 200: { ...Type.Array(Type.Ref('ResearchAccess')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => dnr.researchAccesses(services, principalOf(request).userId, page)),
  );

  app.get(
    '/api/fishinglog/dnr/analysis',
    {
      config: { access: { roles: ['DNR'] } },
      schema: {
        tags,
        operationId: 'getDnrAnalysis',
        summary: 'Catch data of consenting anglers, for research (DNR role only)',
        description:
          'Only anglers whose research consent is Anonymized or Identified are included. Anonymized records carry no user, entry or catch id and no notes, ' +
          'coordinates rounded to 0.1° and times to the hour. `purpose` is required. With `groupBy` (species, state, month) the answer is ' +
          `aggregates; groups with fewer than ${dnr.K_ANONYMITY} distinct anglers are suppressed (their number is in X-Suppressed-Groups). ` +
          'Every call is written to the DNR access log, which the anglers concerned can read (GET /api/fishinglog/research-access).',
        querystring: AnalysisQuery,
        response: {
          200: {
            ...Type.Union([Type.Array(Type.Ref('DnrAnalysisRecord')), Type.Array(Type.Ref('DnrAnalysisGroup'))]),
            headers: { ...paginationHeaders, 'x-suppressed-groups': { type: 'integer', description: 'Aggregate mode: groups suppressed for k-anonymity' } },
          },
        },
      },
    },
    async (request, reply) => {
      const page = toPage(request.query);
      const result = await dnr.analyse(services, { userId: principalOf(request).userId, requestId: String(request.id) }, request.query, page);
      setPaginationHeaders(request, reply, page, result.total);
      if (result.kind === 'aggregate') reply.header('x-suppressed-groups', String(result.suppressed));
      return result.items;
    },
  );
};
