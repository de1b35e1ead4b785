import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { listenWhileServing } from '../../core/db/listen.js';
import { errorResponses } from '../../core/http/schemas.js';
import { CategoryParams, LookupValue } from './lookups.schemas.js';
import * as service from './lookups.service.js';

/** /api/lookups/{category}: a vocabulary's active values, for clients to offer. */
export const lookupsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  // The values stay cached while this server hears their changes (every write that uses one checks it).
  listenWhileServing(app, deps.database.pool, service.lookupValuesOf(deps).listen);
  app.addSchema(LookupValue);

  app.get(
    '/api/lookups/:category',
    {
      schema: {
        tags: ['lookups'],
        operationId: 'listLookupValues',
        summary: 'The active values of a vocabulary',
        description:
          'E.g. `WaterClarity`, `Sky`, `EventType`: what the fields that use the category accept, in display order (`sortOrder`, then code). ' +
          'Deactivated values are left out (old records keep them). 404 `lookups.unknown_category` for a category without values.',
        params: CategoryParams,
        response: { 200: Type.Array(Type.Ref('LookupValue'), { maxItems: 1000 }), ...errorResponses(404) },
      },
    },
    async (request) => service.activeValues(services, request.params.category),
  );
};
