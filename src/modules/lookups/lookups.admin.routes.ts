import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminLookupValue, AdminLookupValuesQuery, CreateLookupValueBody, LookupCategorySummary, UpdateLookupValueBody } from './lookups.schemas.js';
import * as service from './lookups.service.js';

/** /api/admin/lookups: the vocabularies' values (Lookups.Manage), every change audit-logged with its reason. */
export const lookupsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(AdminLookupValue);
  app.addSchema(LookupCategorySummary);
  const tags = ['admin: lookups'];
  const base = '/api/admin/lookups/values';
  const config = { access: { permission: 'Lookups.Manage' as const } };

  app.get(
    '/api/admin/lookups/categories',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListLookupCategories',
        summary: 'Lookup categories with their value counts',
        description: 'Every category that has values, with how many are active, and whether a module checks its fields against it.',
        response: { 200: Type.Array(Type.Ref('LookupCategorySummary'), { maxItems: 1000 }) },
      },
    },
    async () => service.listCategories(services),
  );

  app.get(
    base,
    {
      config,
      schema: {
        tags,
        operationId: 'adminListLookupValues',
        summary: 'Lookup values, with how many records use each',
        description: 'By category, then display order. Filters: `category`, `active`, `q` (text in the code or label).',
        querystring: AdminLookupValuesQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminLookupValue'), { maxItems: 100 }), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listValues(services, request.query, page)),
  );

  app.get(
    `${base}/:id`,
    { config, schema: { tags, operationId: 'adminGetLookupValue', summary: 'One lookup value with its usage', params: IdParams, response: { 200: Type.Ref('AdminLookupValue'), ...errorResponses(404) } } },
    async (request) => service.getValue(services, request.params.id),
  );

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        operationId: 'adminCreateLookupValue',
        summary: 'Add a value to a vocabulary (or start a new category)',
        description: 'Codes are PascalCase and unique within their category (409 `lookups.duplicate_code`; a deactivated one is reactivated instead). Takes effect at once in every process. Audit-logged with the reason.',
        body: CreateLookupValueBody,
        response: { 201: Type.Ref('AdminLookupValue'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createValue(services, auditContextOf(request), request.body)),
  );

  app.patch(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        operationId: 'adminUpdateLookupValue',
        summary: 'Change a value’s label, description or order',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): the fields sent change (`description: null` clears it). The category and code never change (records hold the code): 400 `lookups.immutable` — deactivate the value and create another. Audit-logged with the reason.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: UpdateLookupValueBody,
        response: { 200: Type.Ref('AdminLookupValue'), ...errorResponses(404) },
      },
    },
    async (request) => service.updateValue(services, auditContextOf(request), request.params.id, request.body),
  );

  lifecycleRoutes(app, {
    base,
    access: config.access,
    tags,
    noun: 'lookup value',
    response: Type.Ref('AdminLookupValue'),
    deactivationEffect: 'New records can no longer use the value (400 `lookups.unknown_value`); records that have it keep it and still read.',
    handler: (request, id, active, reason) => service.setValueActive(services, auditContextOf(request), id, active, reason),
  });
};
