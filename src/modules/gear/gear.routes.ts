import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { GEAR_KINDS, KIND_SEGMENTS } from './gear.kinds.js';
import { catalogQuery, catalogSchemas, SCHEMA_IDS, type CatalogFilter } from './gear.schemas.js';
import * as service from './gear.service.js';

const FILTERS: Record<string, string> = {
  rod: '`rodType`, `power`, `action`, `pieces`, `material`, `minLengthIn`/`maxLengthIn`',
  reel: '`reelType`, `minGearRatio`/`maxGearRatio`, `maxWeightG`, `minDragKg`',
  line: '`lineType`, `minTestLb`/`maxTestLb`, `maxDiameterMm`',
  lure: '`lureType`, `speciesId` (made for that species), `colour`, `minWeightG`/`maxWeightG`',
  apparel: '`apparelType`, `size`, `gender`, `waterproof`',
};

/** GET /api/gear/{rods|reels|lines|lures|apparel}[/{id}]: the read-only catalog. */
export const gearRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of catalogSchemas) app.addSchema(schema);
  const tags = ['gear catalog'];

  for (const kind of GEAR_KINDS) {
    const segment = KIND_SEGMENTS[kind];
    app.get(
      `/api/gear/${segment}`,
      {
        schema: {
          tags,
          operationId: `list${SCHEMA_IDS[kind]}${kind === 'apparel' ? '' : 's'}`,
          summary: `List ${segment === 'apparel' ? 'apparel' : segment}`,
          description:
            `Active catalog items of active brands, by brand and name (\`sort\`: name, price, -price), or best match first with \`q\` (tolerates typos). ` +
            `Filters: \`brandId\`, \`minPriceUsd\`/\`maxPriceUsd\`, ${FILTERS[kind]}. The catalog is read-only.`,
          querystring: catalogQuery(kind),
          response: { 200: { ...Type.Array(Type.Ref(SCHEMA_IDS[kind])), headers: paginationHeaders } },
        },
      },
      async (request, reply) => paginate(request, reply, request.query as { page: number; pageSize: number }, (page) => service.listItems(services, kind, request.query as CatalogFilter, page)),
    );

    app.get(
      `/api/gear/${segment}/:id`,
      {
        schema: {
          tags,
          operationId: `get${SCHEMA_IDS[kind]}${kind === 'apparel' ? 'Item' : ''}`,
          summary: `One ${kind === 'apparel' ? 'apparel item' : kind}`,
          description: 'Also a deactivated item (`isActive: false`), since gear setups may still refer to it.',
          params: IdParams,
          response: { 200: Type.Ref(SCHEMA_IDS[kind]), ...errorResponses(404) },
        },
      },
      async (request) => service.getItem(services, kind, request.params.id),
    );
  }
};
