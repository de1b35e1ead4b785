import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { legacyPoint } from '../../core/http/coordinates.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { CreateSpotBody, NearbyQuery, NearbySpot, RateSpotBody, RatingSummary, Spot, SpotDetail } from './spots.schemas.js';
import * as service from './spots.service.js';

/** /api/spots: fishing spots, boat ramps, piers and shore access. */
export const spotsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [Spot, NearbySpot, RatingSummary, SpotDetail]) app.addSchema(schema);
  const tags = ['community: spots'];

  app.post(
    '/api/spots',
    {
      preValidation: legacyPoint('lat', 'lon'),
      schema: {
        tags,
        operationId: 'createSpot',
        summary: 'Add a spot, boat ramp, pier or shore access',
        description:
          'Any signed-in angler. The spot starts `Unverified`. `privacy: Private` (a spot from your private log) shows it to others snapped to a ~1 km grid; ' +
          'boat ramps and piers are public facilities and always exact (Private is a 400). `ramp` facts are for kind BoatRamp only.',
        body: CreateSpotBody,
        response: { 201: Type.Ref('Spot'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createSpot(services, principalOf(request), request.body)),
  );

  app.get(
    '/api/spots/nearby',
    {
      schema: {
        tags,
        operationId: 'listNearbySpots',
        summary: 'Spots near a point, nearest first',
        description:
          `Active spots within \`radiusKm\` (default 25, at most 100) of \`lat\`/\`lon\`, nearest first, each with \`distanceKm\`. ` +
          'Distances and the search use the location each viewer is shown (a private spot’s ~1 km grid point), so a search never reveals a hidden point. ' +
          'Filter `kind`: Spot, BoatRamp, Pier, Shore.',
        querystring: NearbyQuery,
        response: { 200: { ...Type.Array(Type.Ref('NearbySpot')), headers: paginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.nearby(services, principalOf(request), { lat: request.query.lat, lon: request.query.lon, radiusKm: request.query.radiusKm ?? 25 }, { kind: request.query.kind as never }, page),
      ),
  );

  app.get(
    '/api/spots/:id',
    {
      schema: {
        tags,
        operationId: 'getSpot',
        summary: 'One spot with its rating summary',
        description: 'A deactivated spot is a 403 except for its creator and administrators.',
        params: IdParams,
        response: { 200: Type.Ref('SpotDetail'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.getSpot(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/spots/:id/rate',
    {
      schema: {
        tags,
        operationId: 'rateSpot',
        summary: 'Rate a spot (1–5 stars)',
        description: 'One rating per angler: rating again replaces your rating. Returns the rating summary after it. A deactivated spot is a 403 (409 for its owner and administrators, who still see it).',
        params: IdParams,
        body: RateSpotBody,
        response: { 200: Type.Ref('SpotRatingSummary'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.rateSpot(services, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/spots/:id/confirm',
    {
      schema: {
        tags,
        operationId: 'confirmSpot',
        summary: 'Confirm that a spot exists as described',
        description: `Anglers other than its creator, once each (409 the second time); the ${service.CONFIRMATIONS_TO_VERIFY}th confirmation verifies the spot. 409 for its creator (spots.own_spot) or a verified spot (spots.already_verified).`,
        params: IdParams,
        response: { 200: Type.Ref('Spot'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.confirmSpot(services, principalOf(request), request.params.id),
  );
};
