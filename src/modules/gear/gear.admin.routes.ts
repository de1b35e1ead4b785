import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { createItemBody, updateItemBody } from './gear.admin.schemas.js';
import * as admin from './gear.admin.service.js';
import { GEAR_KINDS, KIND_SEGMENTS } from './gear.kinds.js';
import { adminCatalogQuery, adminItemSchema, catalogFilterFromApi, catalogSchemas, SCHEMA_IDS, type CatalogFilter } from './gear.schemas.js';

/** /api/admin/gear/{rods|reels|lines|lures|apparel}: managing the catalog, permission Brands.Manage, audit-logged. */
export const gearAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of catalogSchemas) app.addSchema(schema);
  const tags = ['admin: gear catalog'];
  const config = { access: { permission: 'Brands.Manage' as const } };

  for (const kind of GEAR_KINDS) {
    const base = `/api/admin/gear/${KIND_SEGMENTS[kind]}`;
    const ref = `Admin${SCHEMA_IDS[kind]}`;
    app.addSchema(adminItemSchema(kind));
    const label = kind === 'apparel' ? 'apparel item' : kind;
    /** operationId stems: adminListRods, adminGetRod … adminListApparel, adminGetApparelItem. */
    const one = `${SCHEMA_IDS[kind]}${kind === 'apparel' ? 'Item' : ''}`;
    const many = `${SCHEMA_IDS[kind]}${kind === 'apparel' ? '' : 's'}`;

    app.get(
      base,
      {
        config,
        schema: {
          tags,
          operationId: `adminList${many}`,
          summary: `List ${KIND_SEGMENTS[kind]} with usage statistics`,
          description: `Active and deactivated items (\`status\` narrows it: inactive = the item or its brand is deactivated), with the filters of GET /api/gear/${KIND_SEGMENTS[kind]}.`,
          querystring: adminCatalogQuery(kind),
          response: { 200: { ...Type.Array(Type.Ref(ref)), headers: paginationHeaders } },
        },
      },
      async (request, reply) =>
        paginate(request, reply, request.query as { page: number; pageSize: number }, (page) => admin.adminListItems(services, kind, catalogFilterFromApi(request.query as CatalogFilter), page)),
    );

    app.get(
      `${base}/:id`,
      { config, schema: { tags, operationId: `adminGet${one}`, summary: `One ${label} with usage statistics`, params: IdParams, response: { 200: Type.Ref(ref), ...errorResponses(404) } } },
      async (request) => admin.adminGetItem(services, kind, request.params.id),
    );

    app.post(
      base,
      {
        config,
        schema: {
          tags,
          operationId: `adminCreate${one}`,
          summary: `Add a ${label}`,
          description:
            'The brand must exist and be active (400 naming `brandId`). A name the brand already uses for this kind, or a taken slug, is a 409. ' +
            (kind === 'rod' ? 'Fly rods need `flyLineWeight`, other rods `power`. ' : '') +
            (kind === 'lure' ? 'Lures other than soft plastics need `weightG`; `targetSpeciesIds` must be active species. ' : '') +
            'Audit-logged.',
          body: createItemBody(kind),
          response: { 201: Type.Ref(ref), ...errorResponses(409) },
        },
      },
      async (request, reply) => reply.code(201).send(await admin.createItem(services, auditContextOf(request), kind, request.body as Record<string, unknown>)),
    );

    app.patch(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          operationId: `adminUpdate${one}`,
          summary: `Change a ${label}`,
          description:
            'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): changes the given fields only (null clears an optional field, a 400 for a required one); the same rules as creation apply to the result. From then on the seed leaves the item as it is. Audit-logged.',
          params: IdParams,
          consumes: PATCH_CONSUMES,
          body: updateItemBody(kind),
          response: { 200: Type.Ref(ref), ...errorResponses(404, 409) },
        },
      },
      async (request) => admin.updateItem(services, auditContextOf(request), kind, request.params.id, request.body as Record<string, unknown>),
    );

    lifecycleRoutes(app, {
      base,
      access: config.access,
      tags,
      noun: label,
      reason: 'optional',
      response: Type.Ref(ref),
      deactivationEffect: 'The item leaves the catalog lists and cannot be newly put in gear setups; it stays readable by id and in the setups that use it.',
      handler: (request, id, active, reason) => admin.setItemActive(services, auditContextOf(request), kind, id, active, reason),
    });
  }
};
