import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Brand, BrandDetail, brandFilterFromApi, BrandsQuery } from './brands.schemas.js';
import * as service from './brands.service.js';

export const brandsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Brand);
  app.addSchema(BrandDetail);
  const tags = ['brands'];

  app.get(
    '/api/brands',
    {
      schema: {
        tags,
        operationId: 'listBrands',
        summary: 'List gear brands',
        description: 'Active brands by name, or best match first with `q` (tolerates typos). Filters: `country` (ISO code), `kind` (a kind of gear the brand makes).',
        querystring: BrandsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Brand')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listBrands(services, brandFilterFromApi(request.query), page)),
  );

  app.get(
    '/api/brands/:id',
    {
      schema: {
        tags,
        operationId: 'getBrand',
        summary: 'One brand with usage statistics',
        description: 'Its active catalog items by kind and the number of gear setups using its items. Also a deactivated brand (`isActive: false`).',
        params: IdParams,
        response: { 200: Type.Ref('BrandDetail'), ...errorResponses(404) },
      },
    },
    async (request) => service.getBrand(services, request.params.id),
  );
};
