import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import {
  CreateCriterionBody,
  CriteriaQuery,
  Criterion,
  CriterionIdParams,
  MeasureEnum,
  OwnerParams,
  PbIdParams,
  PersonalBest,
  PersonalBestsQuery,
} from './personal-bests.schemas.js';
import * as service from './personal-bests.service.js';

export const personalBestsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(PersonalBest);
  app.addSchema(Criterion);
  const tags = ['personal bests'];
  const filters = (query: { speciesId?: string | undefined; measure?: string | undefined }) => ({ speciesId: query.speciesId, measure: MeasureEnum.fromApi(query.measure) });

  app.get(
    '/api/personalbest/me',
    {
      schema: {
        tags,
        operationId: 'listMyPersonalBests',
        summary: 'Your personal bests',
        description:
          'One per criterion that has a qualifying catch, newest first, with the catch, its date and the previous best it replaced. ' +
          'Detected automatically whenever your catches change: the largest measure wins; a tie goes to the earliest catch.',
        querystring: PersonalBestsQuery,
        response: { 200: { ...Type.Array(Type.Ref('PersonalBest')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listMyPersonalBests(services, principalOf(request).userId, filters(request.query), page)),
  );

  app.get(
    '/api/personalbest/me/criteria',
    {
      schema: {
        tags,
        operationId: 'listPersonalBestCriteria',
        summary: 'Your personal-best criteria',
        description: 'Newest first, each with its best in force (null: no catch qualifies yet).',
        querystring: CriteriaQuery,
        response: { 200: { ...Type.Array(Type.Ref('PersonalBestCriterion')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.listCriteria(services, principalOf(request).userId, filters(request.query), page)),
  );

  app.post(
    '/api/personalbest/me/criteria',
    {
      schema: {
        tags,
        operationId: 'createPersonalBestCriterion',
        summary: 'Create a personal-best criterion',
        description:
          'Names what counts as a best: a species, weight or length, optionally a water body (case-insensitive), a state and released fish only. ' +
          `It is evaluated at once against your existing catches (\`currentBest\`). An unknown species is a 400 naming \`speciesId\`; an identical criterion a 409; at most ${service.MAX_CRITERIA_PER_USER} criteria.`,
        body: CreateCriterionBody,
        response: { 201: Type.Ref('PersonalBestCriterion'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createCriterion(services, principalOf(request).userId, { ...request.body, measure: MeasureEnum.fromApi(request.body.measure) })),
  );

  app.delete(
    '/api/personalbest/me/criteria/:criterionId',
    {
      schema: {
        tags,
        operationId: 'deletePersonalBestCriterion',
        summary: 'Delete a personal-best criterion',
        description: 'Removes the criterion with its personal-best history; if its best was your ultimate one, you have no ultimate personal best until you choose another.',
        params: CriterionIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteCriterion(services, principalOf(request).userId, request.params.criterionId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/personalbest/:pbId/set-ultimate',
    {
      schema: {
        tags,
        operationId: 'setUltimatePersonalBest',
        summary: 'Make a personal best your ultimate one',
        description:
          'Owner only. Exactly one ultimate personal best per user, also under concurrent calls (the previous one stops being ultimate). ' +
          'Only a personal best in force can be chosen (409 for one that has been replaced). It follows its criterion when a better catch takes over.',
        params: PbIdParams,
        response: { 200: Type.Ref('PersonalBest'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.setUltimate(services, principalOf(request).userId, request.params.pbId),
  );

  const profileTags = ['profiles'];

  app.get(
    '/api/userprofile/:userId/personal-bests',
    {
      schema: {
        tags: profileTags,
        operationId: 'listUserPersonalBests',
        summary: 'A user’s personal bests, privacy respected',
        description:
          'Follows the profile’s visibility (403 when it does not admit you). The log entry of each catch is shown only when its own visibility admits you; coordinates never.',
        params: OwnerParams,
        querystring: PersonalBestsQuery,
        response: { 200: { ...Type.Array(Type.Ref('PersonalBest')), headers: paginationHeaders }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.listPersonalBestsOf(services, principalOf(request).userId, request.params.userId, filters(request.query), page),
      ),
  );

  app.get(
    '/api/userprofile/:userId/ultimate-pb',
    {
      schema: {
        tags: profileTags,
        operationId: 'getUserUltimatePersonalBest',
        summary: 'A user’s ultimate personal best, privacy respected',
        description: 'Follows the profile’s visibility (403 when it does not admit you). 404 `personalbests.ultimate_not_set` when the user has not chosen one.',
        params: OwnerParams,
        response: { 200: Type.Ref('PersonalBest'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.ultimateOf(services, principalOf(request).userId, request.params.userId),
  );
};
