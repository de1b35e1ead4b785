import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { answerVersioned, ifMatchHeaders, ifNoneMatchHeaders, notModified, preconditionOf, preconditionResponses, versioned } from '../../core/http/conditional.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { Boat, BoatBody, BoatCreateBody, BoatsQuery } from './boats.schemas.js';
import * as service from './boats.service.js';

/** /api/gear/boats: the caller's boats. */
export const boatsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Boat);
  const tags = ['gear: boats'];
  const owner = (request: Parameters<typeof principalOf>[0]) => principalOf(request).userId;

  app.get(
    '/api/gear/boats',
    { schema: { tags, operationId: 'listBoats', summary: 'Your boats', description: 'By name.', querystring: BoatsQuery, response: { 200: { ...Type.Array(Type.Ref('Boat')), headers: paginationHeaders } } } },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listBoats(services, owner(request), page)),
  );

  app.get(
    '/api/gear/boats/:id',
    {
      schema: {
        tags,
        operationId: 'getBoat',
        summary: 'One of your boats',
        description: "Another angler's boat is a 403. `ETag`: its version; `If-None-Match` with it answers 304 while the boat is unchanged.",
        params: IdParams,
        headers: ifNoneMatchHeaders,
        response: { 200: versioned('Boat'), ...notModified, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.getBoat(services, owner(request), request.params.id)),
  );

  app.post(
    '/api/gear/boats',
    {
      schema: {
        tags,
        operationId: 'createBoat',
        summary: 'Add a boat',
        description: 'With `id` (a UUID made by the client), a retry is safe: the same body again answers 200 with the boat; that id with another body or of another user is a 409 `request.id_conflict`.',
        body: BoatCreateBody,
        response: { 200: versioned('Boat', 'The boat an earlier create with this `id` and this body made (a retry: nothing new was created)'), 201: versioned('Boat'), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, boat } = await service.createBoat(services, owner(request), request.body);
      return answerVersioned(request, reply, boat, created ? 201 : 200);
    },
  );

  app.put(
    '/api/gear/boats/:id',
    {
      schema: {
        tags,
        operationId: 'replaceBoat',
        summary: 'Replace one of your boats',
        description: 'Sets every field (omitted optional fields become null). Owner only. With `If-Match`, only while the boat is that version (412 otherwise).',
        params: IdParams,
        headers: ifMatchHeaders,
        body: BoatBody,
        response: { 200: versioned('Boat'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.updateBoat(services, owner(request), request.params.id, { replace: request.body }, preconditionOf(request))),
  );

  app.patch(
    '/api/gear/boats/:id',
    {
      schema: {
        tags,
        operationId: 'updateBoat',
        summary: 'Change some fields of one of your boats',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change; `null` clears an optional field and is a 400 naming a required one (`name`). Owner only. With `If-Match`, only while the boat is that version (412 otherwise).',
        params: IdParams,
        headers: ifMatchHeaders,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(BoatBody, { examples: [{ motor: 'Mercury 115 Pro XS', notes: null }] }),
        response: { 200: versioned('Boat'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.updateBoat(services, owner(request), request.params.id, { patch: request.body }, preconditionOf(request))),
  );

  app.delete(
    '/api/gear/boats/:id',
    {
      schema: {
        tags,
        operationId: 'deleteBoat',
        summary: 'Delete one of your boats',
        description: 'Owner only. With `If-Match`, only while the boat is that version (412 otherwise).',
        params: IdParams,
        headers: ifMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await service.deleteBoat(services, owner(request), request.params.id, preconditionOf(request));
      return reply.code(204).send(null);
    },
  );
};
