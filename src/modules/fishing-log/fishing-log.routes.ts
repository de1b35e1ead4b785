import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { serviceDeps } from '../../core/service-deps.js';
import { principalOf } from '../../core/access/access.js';
import { feedHeaders, paginate, paginateFeed, paginationHeaders } from '../../core/http/pagination.js';
import { answerVersioned, ifMatchHeaders, ifNoneMatchHeaders, notModified, preconditionOf, preconditionResponses, versioned } from '../../core/http/conditional.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import * as entries from './entries.service.js';
import {
  CatchCreated,
  CatchCreateInput,
  CatchesQuery,
  CatchIdParams,
  CatchReplaceInput,
  CatchUpdated,
  CatchView,
  EntriesQuery,
  EntryFull,
  EntryCreateInput,
  EntryIdParams,
  EntryReplaceInput,
  EntrySummary,
  SessionCreateInput,
  SessionFull,
  SessionInput,
  SessionsQuery,
  SessionSummary,
} from './fishing-log.schemas.js';
import * as sessions from './sessions.service.js';

const RETRY =
  'With `id` (a UUID made by the client) a retry is safe: the same request again answers 200 with the record as it is now and creates nothing; ' +
  'that id with another body or of another user is a 409 `request.id_conflict`.';
const REPLAYED = 'The record an earlier create with this `id` and this body made (a retry: nothing new was created)';
const ETAG_READ = '`ETag`: its version; `If-None-Match` with it answers 304 (no body) while the record is unchanged.';
const IF_MATCH = 'With `If-Match` (its ETag), only while the record is that version: else 412 `request.precondition_failed`, nothing changed.';

export const fishingLogRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [CatchView, CatchCreated, CatchUpdated, EntrySummary, EntryFull, SessionSummary, SessionFull]) app.addSchema(schema);
  const tags = ['fishing log'];
  const me = (request: Parameters<typeof principalOf>[0]) => principalOf(request).userId;

  app.get(
    '/api/fishinglog/entries',
    {
      schema: {
        tags,
        operationId: 'listEntries',
        summary: 'Log entries you may see, newest first',
        description:
          'Your own entries, Public ones, Friends entries of your friends and Circle entries of users who put you in their circle. ' +
          '`scope=friends`: only your friends\' entries you may see (the "Following" feed: no stranger\'s Public entries, not your own; with `mine` or your own `ownerId`, none). ' +
          'Filters: `mine`, `ownerId`, `speciesId` (entries with a catch of that species), `from`/`to` (occurredAt, inclusive), `visibility`, ' +
          'and a bounding box (`minLat`, `maxLat`, `minLng`, `maxLng`, all four) matched against the coordinates you are shown. ' +
          "Other anglers' coordinates are rounded to 0.01° (about 1 km) unless they share the exact location. " +
          'Paging: the `next` link of the Link header carries a `cursor` (keyset pagination: stable while entries are added); `page` reaches the first 10,000 rows. ' +
          'No X-Total-Count: counting a feed costs more than its page.',
        querystring: EntriesQuery,
        response: { 200: { ...Type.Array(Type.Ref('LogEntrySummary')), headers: feedHeaders } },
      },
    },
    async (request, reply) => paginateFeed(request, reply, request.query, (page) => entries.listEntries(services, me(request), request.query, page)),
  );

  app.post(
    '/api/fishinglog/entries',
    {
      schema: {
        tags,
        operationId: 'createEntry',
        summary: 'Create a log entry',
        description: 'Visibility defaults to Private. `sessionId` must be one of your sessions (400 otherwise). Add catches with POST /api/fishinglog/entries/{entryId}/catches. ' + RETRY,
        body: EntryCreateInput,
        response: { 200: versioned('LogEntry', REPLAYED), 201: versioned('LogEntry'), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, entry } = await entries.createEntry(services, me(request), request.body);
      return answerVersioned(request, reply, entry, created ? 201 : 200);
    },
  );

  app.get(
    '/api/fishinglog/entries/:id',
    {
      schema: {
        tags,
        operationId: 'getEntry',
        summary: 'One log entry with its catches',
        description: '403 when the entry is not shared with you, 404 when it does not exist. ' + ETAG_READ,
        params: IdParams,
        headers: ifNoneMatchHeaders,
        response: { 200: versioned('LogEntry'), ...notModified, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await entries.getEntry(services, me(request), request.params.id)),
  );

  app.put(
    '/api/fishinglog/entries/:id',
    {
      schema: {
        tags,
        operationId: 'replaceEntry',
        summary: 'Replace a log entry (owner only)',
        description:
          'Send the whole entry: `visibility` and `shareExactLocation` are required (a missing field is a 400 naming it, never a silent default); ' +
          'omitted optional fields become null. Catches are kept. To change some fields only, use PATCH. ' + IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        body: EntryReplaceInput,
        response: { 200: versioned('LogEntry'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await entries.updateEntry(services, me(request), request.params.id, { replace: request.body }, preconditionOf(request))),
  );

  app.patch(
    '/api/fishinglog/entries/:id',
    {
      schema: {
        tags,
        operationId: 'updateEntry',
        summary: 'Change some fields of a log entry (owner only)',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change, nested objects ' +
          '(location, weather, water) are merged, `null` clears an optional field and is a 400 naming a required one. The result must be a valid PUT body. ' + IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(EntryReplaceInput, { examples: [{ visibility: 'Friends', notes: null }, { location: { waterBody: 'Mille Lacs Lake' } }] }),
        response: { 200: versioned('LogEntry'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await entries.updateEntry(services, me(request), request.params.id, { patch: request.body }, preconditionOf(request))),
  );

  app.delete(
    '/api/fishinglog/entries/:id',
    {
      schema: {
        tags,
        operationId: 'deleteEntry',
        summary: 'Delete a log entry and its catches (owner only, permanent)',
        description: IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await entries.deleteEntry(services, me(request), request.params.id, preconditionOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/fishinglog/entries/:entryId/catches',
    {
      schema: {
        tags,
        operationId: 'listCatches',
        summary: 'Catches of a log entry',
        description: 'Readable as far as the entry is visible to you. Your own catches carry `masterAngler` (the programs whose minimum each meets); others’ never do.',
        params: EntryIdParams,
        querystring: CatchesQuery,
        response: { 200: { ...Type.Array(Type.Ref('Catch')), headers: paginationHeaders }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => entries.listCatches(services, me(request), request.params.entryId, page)),
  );

  app.post(
    '/api/fishinglog/entries/:entryId/catches',
    {
      schema: {
        tags,
        operationId: 'createCatch',
        summary: 'Add a catch to your log entry',
        description:
          'Units: lengthCm in centimetres (0.5–600), weightKg in kilograms (0.001–1500). caughtAt defaults to the entry time. Owner only. ' +
          'The answer lists the personal bests the catch set (`personalBests`, see /api/personalbest/me/criteria) and the Master Angler programs of the entry’s state ' +
          'or your home state whose minimum it meets (`masterAngler`; submit with POST /api/regulations/master-angler/submissions). ' + RETRY + ' (`personalBests` is then empty.)',
        params: EntryIdParams,
        body: CatchCreateInput,
        response: { 200: versioned('CatchCreated', REPLAYED), 201: versioned('CatchCreated'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { created, catch: caught } = await entries.addCatch(services, me(request), request.params.entryId, request.body);
      return answerVersioned(request, reply, caught, created ? 201 : 200);
    },
  );

  const catchAccess = 'Owner only: another user gets 403 (404 when the catch does not exist or belongs to another entry).';

  app.get(
    '/api/fishinglog/entries/:entryId/catches/:catchId',
    {
      schema: {
        tags,
        operationId: 'getCatch',
        summary: 'One catch of a log entry',
        description:
          'Readable as far as the entry is visible to you (403 otherwise); 404 when the catch does not exist or belongs to another entry. ' +
          'Your own catch carries `masterAngler` (the Master Angler programs whose minimum it meets); another angler’s never does. ' + ETAG_READ,
        params: CatchIdParams,
        headers: ifNoneMatchHeaders,
        response: { 200: versioned('Catch'), ...notModified, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await entries.getCatch(services, me(request), request.params.entryId, request.params.catchId)),
  );

  app.put(
    '/api/fishinglog/entries/:entryId/catches/:catchId',
    {
      schema: {
        tags,
        operationId: 'replaceCatch',
        summary: 'Replace a catch',
        description:
          `Send the whole catch: \`count\` and \`caughtAt\` are required (a missing field is a 400 naming it); omitted optional fields become empty. ${catchAccess} ` +
          'Personal bests are re-evaluated in the same transaction: `personalBests` lists those the change moved; `masterAngler` the programs it is eligible for. ' + IF_MATCH,
        params: CatchIdParams,
        headers: ifMatchHeaders,
        body: CatchReplaceInput,
        response: { 200: versioned('CatchUpdated'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) =>
      answerVersioned(request, reply, await entries.updateCatch(services, me(request), request.params.entryId, request.params.catchId, { replace: request.body }, preconditionOf(request))),
  );

  app.patch(
    '/api/fishinglog/entries/:entryId/catches/:catchId',
    {
      schema: {
        tags,
        operationId: 'updateCatch',
        summary: 'Change some fields of a catch',
        description:
          `JSON Merge Patch (RFC 7396, \`application/merge-patch+json\`; \`application/json\` accepted too): only the fields sent change; \`null\` clears an optional field and is a 400 naming a required one. ${catchAccess} ` +
          'Personal bests are re-evaluated in the same transaction. ' + IF_MATCH,
        params: CatchIdParams,
        headers: ifMatchHeaders,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(CatchReplaceInput, { examples: [{ lengthCm: 61.5, notes: null }, { released: true }] }),
        response: { 200: versioned('CatchUpdated'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) =>
      answerVersioned(request, reply, await entries.updateCatch(services, me(request), request.params.entryId, request.params.catchId, { patch: request.body }, preconditionOf(request))),
  );

  app.delete(
    '/api/fishinglog/entries/:entryId/catches/:catchId',
    {
      schema: {
        tags,
        operationId: 'deleteCatch',
        summary: 'Delete a catch (permanent)',
        description: `${catchAccess} A personal best it held falls back to the next best catch, or is withdrawn when none qualifies, in the same transaction. ${IF_MATCH}`,
        params: CatchIdParams,
        headers: ifMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await entries.deleteCatch(services, me(request), request.params.entryId, request.params.catchId, preconditionOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/fishinglog/sessions',
    {
      schema: {
        tags,
        operationId: 'listSessions',
        summary: 'Your fishing sessions, newest first',
        querystring: SessionsQuery,
        response: { 200: { ...Type.Array(Type.Ref('FishingSessionSummary')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        sessions.listSessions(services, me(request), { ...(request.query.from ? { from: request.query.from } : {}), ...(request.query.to ? { to: request.query.to } : {}) }, page),
      ),
  );

  app.post(
    '/api/fishinglog/sessions',
    {
      schema: {
        tags,
        operationId: 'createSession',
        summary: 'Create a fishing session',
        description: RETRY,
        body: SessionCreateInput,
        response: { 200: versioned('FishingSession', REPLAYED), 201: versioned('FishingSession'), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { created, session } = await sessions.createSession(services, me(request), request.body);
      return answerVersioned(request, reply, session, created ? 201 : 200);
    },
  );

  app.get(
    '/api/fishinglog/sessions/:id',
    {
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'One of your fishing sessions, with its entries',
        description: 'Sessions are private: another user gets 403. ' + ETAG_READ,
        params: IdParams,
        headers: ifNoneMatchHeaders,
        response: { 200: versioned('FishingSession'), ...notModified, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await sessions.getSession(services, me(request), request.params.id)),
  );

  app.put(
    '/api/fishinglog/sessions/:id',
    {
      schema: {
        tags,
        operationId: 'replaceSession',
        summary: 'Replace one of your fishing sessions',
        description: 'Send the whole session (`startedAt` required); omitted optional fields become empty. Owner only: another user gets 403. Its entries stay linked. ' + IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        body: SessionInput,
        response: { 200: versioned('FishingSession'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await sessions.updateSession(services, me(request), request.params.id, { replace: request.body }, preconditionOf(request))),
  );

  app.patch(
    '/api/fishinglog/sessions/:id',
    {
      schema: {
        tags,
        operationId: 'updateSession',
        summary: 'Change some fields of one of your fishing sessions',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change; `null` clears an optional field and is a 400 naming a required one. Owner only. ' + IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(SessionInput, { examples: [{ endedAt: '2026-06-01T11:00:00.000Z', notes: null }] }),
        response: { 200: versioned('FishingSession'), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => answerVersioned(request, reply, await sessions.updateSession(services, me(request), request.params.id, { patch: request.body }, preconditionOf(request))),
  );

  app.delete(
    '/api/fishinglog/sessions/:id',
    {
      schema: {
        tags,
        operationId: 'deleteSession',
        summary: 'Delete one of your fishing sessions',
        description: 'Owner only. Its log entries are kept, detached from the session (their `sessionId` becomes null). ' + IF_MATCH,
        params: IdParams,
        headers: ifMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(403, 404), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await sessions.deleteSession(services, me(request), request.params.id, preconditionOf(request));
      return reply.code(204).send(null);
    },
  );
};
