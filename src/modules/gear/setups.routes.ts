import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { answerVersioned, ifMatchHeaders, ifNoneMatchHeaders, notModified, preconditionOf, preconditionResponses, versioned } from '../../core/http/conditional.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { catalogSchemas } from './gear.schemas.js';
import { Setup, SetupBody, SetupCreateBody, SetupsQuery } from './setups.schemas.js';
import * as service from './setups.service.js';

/** /api/gear/setups: the caller's gear setups, with their catalog items. */
export const setupsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of catalogSchemas) app.addSchema(schema);
  app.addSchema(Setup);
  const tags = ['gear: setups'];
  const owner = (request: Parameters<typeof principalOf>[0]) => principalOf(request).userId;
  const references =
    'rodId, reelId, lineId and lureIds must name catalog items of that kind whose item and brand are active: else a 400 naming the field ' +
    '(an item the setup already has may stay after its deactivation).';

  app.get(
    '/api/gear/setups',
    {
      schema: {
        tags,
        operationId: 'listGearSetups',
        summary: 'Your gear setups',
        description: 'By name, each with its rod, reel, line and lures from the catalog.',
        querystring: SetupsQuery,
        response: { 200: { ...Type.Array(Type.Ref('GearSetup')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listSetups(services, owner(request), page)),
  );

  app.get(
    '/api/gear/setups/:id',
    {
      schema: {
        tags,
        operationId: 'getGearSetup',
        summary: 'One of your gear setups',
        description: "With its catalog items. Another angler's setup is a 403. `ETag`: its version; `If-None-Match` with it answers 304 while the setup is unchanged.",
        params: IdParams,
        headers: ifNoneMatchHeaders,
        response: { 200: versioned('GearSetup'), ...notModified, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.getSetup(services, owner(request), request.params.id)),
  );

  app.post(
    '/api/gear/setups',
    {
      schema: {
        tags,
        operationId: 'createGearSetup',
        summary: 'Create a gear setup',
        description: `${references} With \`id\` (a UUID made by the client), a retry is safe: the same body again answers 200 with the setup; that id with another body or of another user is a 409 \`request.id_conflict\`.`,
        body: SetupCreateBody,
        response: { 200: versioned('GearSetup', 'The setup an earlier create with this `id` and this body made (a retry: nothing new was created)'), 201: versioned('GearSetup'), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, setup } = await service.createSetup(services, owner(request), request.body);
      return answerVersioned(request, reply, setup, created ? 201 : 200);
    },
  );

  app.put(
    '/api/gear/setups/:id',
    {
      schema: {
        tags,
        operationId: 'replaceGearSetup',
        summary: 'Replace one of your gear setups',
        description: `Sets every field (omitted optional fields become null, omitted lureIds none). Owner only. ${references} With \`If-Match\`, only while the setup is that version (412 otherwise).`,
        params: IdParams,
        headers: ifMatchHeaders,
        body: SetupBody,
        response: { 200: versioned('GearSetup'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.updateSetup(services, owner(request), request.params.id, { replace: request.body }, preconditionOf(request))),
  );

  app.patch(
    '/api/gear/setups/:id',
    {
      schema: {
        tags,
        operationId: 'updateGearSetup',
        summary: 'Change some fields of one of your gear setups',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change (`lureIds`, an array, is replaced whole); ' +
          `\`null\` clears an optional field and is a 400 naming a required one (\`name\`). Owner only. ${references} With \`If-Match\`, only while the setup is that version (412 otherwise).`,
        params: IdParams,
        headers: ifMatchHeaders,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(SetupBody, { examples: [{ technique: 'Ned rig', notes: null }] }),
        response: { 200: versioned('GearSetup'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await service.updateSetup(services, owner(request), request.params.id, { patch: request.body }, preconditionOf(request))),
  );

  app.delete(
    '/api/gear/setups/:id',
    {
      schema: {
        tags,
        operationId: 'deleteGearSetup',
        summary: 'Delete one of your gear setups',
        description: 'Owner only. Catches logged with the setup keep their data and lose the link. With `If-Match`, only while the setup is that version (412 otherwise).',
        params: IdParams,
        headers: ifMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await service.deleteSetup(services, owner(request), request.params.id, preconditionOf(request));
      return reply.code(204).send(null);
    },
  );
};
