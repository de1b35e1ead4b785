import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminFishSpecies, AdminSpeciesQuery, CreateSpeciesBody, speciesSchemas, UpdateSpeciesBody } from './species.schemas.js';
import * as admin from './species.admin.service.js';
import { serviceDeps } from '../../core/service-deps.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';

/** /api/admin/species: managing the species catalogue, permission Species.Manage, audit-logged. */
export const speciesAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const adminDeps = serviceDeps(deps);
  for (const schema of speciesSchemas) app.addSchema(schema);
  app.addSchema(AdminFishSpecies);
  const tags = ['admin: species'];
  const config = { access: { permission: 'Species.Manage' as const } };

  app.get(
    '/api/admin/species',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListSpecies',
        summary: 'List species with usage statistics',
        description: 'Active and deactivated species (`status` narrows it), with the same search and filters as GET /api/fish-species.',
        querystring: AdminSpeciesQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminFishSpecies')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.adminListSpecies(adminDeps, { ...request.query, status: ActivityFilterEnum.fromApi(request.query.status) }, page)),
  );

  app.get(
    '/api/admin/species/:id',
    {
      config,
      schema: { tags, operationId: 'adminGetSpecies', summary: 'One species with usage statistics', params: IdParams, response: { 200: Type.Ref('AdminFishSpecies'), ...errorResponses(404) } },
    },
    async (request) => admin.adminGetSpecies(adminDeps, request.params.id),
  );

  app.post(
    '/api/admin/species',
    {
      config,
      schema: {
        tags,
        operationId: 'adminCreateSpecies',
        summary: 'Add a species',
        description:
          'The genus is the first word of the scientific name. A new genus needs its `family`, a new family its `order` (400 naming the field); ' +
          'a family or order that contradicts the catalogue is a 409. A scientific name already present is a 409. Audit-logged.',
        body: CreateSpeciesBody,
        response: { 201: Type.Ref('AdminFishSpecies'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.createSpecies(adminDeps, auditContextOf(request), request.body)),
  );

  app.patch(
    '/api/admin/species/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'adminUpdateSpecies',
        summary: 'Change a species',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): changes the given fields only, `otherNames: null` clears them. A changed scientific name may move the species to another genus (same rules as creation). From then on the seed leaves the species as it is. Audit-logged.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: UpdateSpeciesBody,
        response: { 200: Type.Ref('AdminFishSpecies'), ...errorResponses(404, 409) },
      },
    },
    async (request) => admin.updateSpecies(adminDeps, auditContextOf(request), request.params.id, request.body),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/species',
    access: config.access,
    tags,
    noun: 'species',
    reason: 'optional',
    response: Type.Ref('AdminFishSpecies'),
    deactivationEffect: 'The species leaves the lists and cannot be newly referenced; it stays readable by id and wherever it is referenced.',
    handler: (request, id, active, reason) => admin.setSpeciesActive(adminDeps, auditContextOf(request), id, active, reason),
  });
};
