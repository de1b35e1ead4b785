import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminBrand, AdminBrandsQuery, brandFilterFromApi, CreateBrandBody, UpdateBrandBody } from './brands.schemas.js';
import * as admin from './brands.admin.service.js';

/** /api/admin/brands: managing brands, permission Brands.Manage, audit-logged. */
export const brandsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(AdminBrand);
  const tags = ['admin: brands'];
  const config = { access: { permission: 'Brands.Manage' as const } };

  app.get(
    '/api/admin/brands',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListBrands',
        summary: 'List brands with usage statistics',
        description: 'Active and deactivated brands (`status` narrows it), with the search and filters of GET /api/brands.',
        querystring: AdminBrandsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminBrand')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.adminListBrands(services, brandFilterFromApi(request.query), page)),
  );

  app.get(
    '/api/admin/brands/:id',
    { config, schema: { tags, operationId: 'adminGetBrand', summary: 'One brand with usage statistics', params: IdParams, response: { 200: Type.Ref('AdminBrand'), ...errorResponses(404) } } },
    async (request) => admin.adminGetBrand(services, request.params.id),
  );

  app.post(
    '/api/admin/brands',
    {
      config,
      schema: {
        tags,
        operationId: 'adminCreateBrand',
        summary: 'Add a brand',
        description: 'A name already taken (case-insensitive) is a 409; an unknown country code a 400. Audit-logged.',
        body: CreateBrandBody,
        response: { 201: Type.Ref('AdminBrand'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.createBrand(services, auditContextOf(request), request.body)),
  );

  app.patch(
    '/api/admin/brands/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'adminUpdateBrand',
        summary: 'Change a brand',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): changes the given fields only, null clears `website`, `description` or `gearKinds`; from then on the seed leaves the brand as it is. Audit-logged.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: UpdateBrandBody,
        response: { 200: Type.Ref('AdminBrand'), ...errorResponses(404, 409) },
      },
    },
    async (request) => admin.updateBrand(services, auditContextOf(request), request.params.id, request.body),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/brands',
    access: config.access,
    tags,
    noun: 'brand',
    reason: 'optional',
    response: Type.Ref('AdminBrand'),
    deactivationEffect:
      'The brand and its catalog items leave the lists, and its items cannot be newly put in setups; all stay readable by id and where referenced.',
    handler: (request, id, active, reason) => admin.setBrandActive(services, auditContextOf(request), id, active, reason),
  });
};
