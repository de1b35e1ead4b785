import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { FamiliesQuery, SpeciesQuery, speciesSchemas } from './species.schemas.js';
import * as service from './species.service.js';

export const speciesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of speciesSchemas) app.addSchema(schema);
  const tags = ['fish species'];

  app.get(
    '/api/fish-species',
    {
      schema: {
        tags,
        operationId: 'listSpecies',
        summary: 'List fish species',
        description:
          'Active species, by common name, or best match first with `q`. `q` searches common, other and scientific names and tolerates typos ' +
          '("smalmouth", "walley"). Filters: `family`, `genus`, `order` (scientific names, case-insensitive) and `waterType`.',
        querystring: SpeciesQuery,
        response: { 200: { ...Type.Array(Type.Ref('FishSpecies')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listSpecies(services, request.query, page)),
  );

  app.get(
    '/api/fish-species/families',
    {
      schema: {
        tags,
        operationId: 'listSpeciesFamilies',
        summary: 'List fish families',
        description: 'Families of the catalogue with their order and number of active species, by name; filter by `order`.',
        querystring: FamiliesQuery,
        response: { 200: { ...Type.Array(Type.Ref('FishFamily')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listFamilies(services, request.query, page)),
  );

  app.get(
    '/api/fish-species/:id',
    {
      schema: {
        tags,
        operationId: 'getSpecies',
        summary: 'One fish species with its taxonomy and related species',
        description: 'Also a deactivated species (`isActive: false`), since catches and lures may still refer to it.',
        params: IdParams,
        response: { 200: Type.Ref('FishSpeciesDetail'), ...errorResponses(404) },
      },
    },
    async (request) => service.getSpecies(services, request.params.id),
  );
};
