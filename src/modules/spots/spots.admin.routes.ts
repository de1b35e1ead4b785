import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { Latitude, legacyPoint, legacyPointNote, Longitude } from '../../core/http/coordinates.js';
import { auditContextOf } from '../../core/audit/context.js';
import { FeatureBody } from '../../core/db/featured.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams, Nullable } from '../../core/http/schemas.js';
import { AdminSpot, AdminSpotsQuery, Spot } from './spots.schemas.js';
import * as admin from './spots.admin.service.js';
import * as service from './spots.service.js';

/** /api/admin/spots: the list of every spot, and verify, correct, deactivate, reactivate and feature (Admin and Owner); the actions audit-logged. */
export const spotsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Spot);
  app.addSchema(AdminSpot);
  const tags = ['admin: spots'];
  const config = { access: 'admin' as const };
  const response = { 200: Type.Ref('Spot'), ...errorResponses(400, 401, 403, 404, 409) };

  app.get(
    '/api/admin/spots',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListSpots',
        summary: 'List spots with usage statistics',
        description:
          'Every spot, newest first: deactivated ones (`status` Active, Inactive or All, the default), those of deactivated accounts, reference spots (`reference`); ' +
          'filters `q` (name, water body or county), `kind`, `verification`, `state`, `featured`. Each with its usage (ratings, average, confirmations, photos), ' +
          'its deactivation and its featuring window. The location is the one the spot’s privacy lets administrators see.',
        querystring: AdminSpotsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminSpot'), { maxItems: 100 }), headers: paginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.adminListSpots(services, principalOf(request), request.query, page)),
  );

  app.post(
    '/api/admin/spots/:id/verify',
    {
      config,
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        operationId: 'adminVerifySpot',
        summary: 'Verify a spot',
        description: '409 when verified already. Audit-logged.',
        params: IdParams,
        body: Type.Object({ reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }, { additionalProperties: false, examples: [{ reason: 'Matches the state ramp directory' }] }),
        response,
      },
    },
    async (request) => service.verifySpot(services, auditContextOf(request), principalOf(request), request.params.id, request.body.reason ?? null),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/spots',
    access: config.access,
    tags,
    noun: 'spot',
    response: Type.Ref('Spot'),
    deactivationEffect: 'The spot leaves searches; its creator still sees it.',
    handler: (request, id, active, reason) => service.setSpotActive(services, auditContextOf(request), principalOf(request), id, active, reason),
  });

  app.post(
    '/api/admin/spots/:id/correct',
    {
      config,
      preValidation: legacyPoint('lat', 'lon'),
      schema: {
        tags,
        operationId: 'adminCorrectSpot',
        summary: 'Correct a spot’s facts (e.g. a seeded boat ramp’s name, position or water body)',
        description:
          'Only the fields sent change; the location everyone is shown follows the spot’s privacy. Reference spots (seeded agency records) keep the correction: the seed never changes a ramp it seeded before. ' +
          'Reason required; audit-logged with the values before and after.',
        params: IdParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            location: Type.Optional(
              Type.Object(
                { latitude: Type.Optional(Latitude), longitude: Type.Optional(Longitude) },
                { additionalProperties: false, minProperties: 1, description: `The position (either coordinate may be sent alone). ${legacyPointNote('lat', 'lon')}` },
              ),
            ),
            waterBody: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
            county: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
            description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
            sourceUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
            reason: Type.String({ minLength: 1, maxLength: 500 }),
          },
          {
            additionalProperties: false,
            minProperties: 2,
            examples: [{ waterBody: 'Mille Lacs Lake', location: { latitude: 46.1485, longitude: -93.485 }, reason: 'The source spells it MIlle Lacs Lake; position surveyed at the ramp' }],
          },
        ),
        response,
      },
    },
    async (request) => service.correctSpot(services, auditContextOf(request), principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/spots/:id/feature',
    { config, schema: { tags, operationId: 'adminFeatureSpot', summary: 'Feature a spot for a time window', params: IdParams, body: FeatureBody, response } },
    async (request) => service.featureSpot(services, auditContextOf(request), principalOf(request), request.params.id, request.body),
  );
};
