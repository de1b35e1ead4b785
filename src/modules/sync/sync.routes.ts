import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { serviceDeps } from '../../core/service-deps.js';
import { PullQuery, PullResult, PushBody, PushQuery, PushResult } from './sync.schemas.js';
import { DEFAULT_TOMBSTONE_RETENTION_DAYS, pull, purgeTombstones, push, type Changes } from './sync.service.js';
import { SYNC_TOMBSTONE_PURGE } from './sync.jobs.js';

const PROTOCOL =
  'WatermelonDB’s sync protocol (`synchronize()` of `@nozbe/watermelondb/sync`): call it from `pullChanges` and `pushChanges` (docs/guide/offline-sync.md). ';

/** /api/sync: offline apps pull their changes and push the device's. */
export const syncRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const tags = ['offline sync'];
  deps.jobs.work(SYNC_TOMBSTONE_PURGE, () => purgeTombstones(services, deps.settings.get<number>('SyncTombstoneRetentionDays') ?? DEFAULT_TOMBSTONE_RETENTION_DAYS));

  app.get(
    '/api/sync/pull',
    {
      schema: {
        tags,
        operationId: 'syncPull',
        summary: 'Your records changed since your last pull (offline sync)',
        description:
          PROTOCOL +
          'Your sessions, entries, catches, boats, gear setups, personal-best criteria, photos of catches and entries, your profile, your friends, and the ' +
          'species, lookup values, gear items and brands, changed since `lastPulledAt` (all of them when absent or null: then in `created`, else in `updated`), ' +
          'with the ids deleted since in `deleted`. Send the answer’s `timestamp` as the next `lastPulledAt`. A `lastPulledAt` older than the deletions kept ' +
          '(90 days by default) answers everything with `experimentalStrategy: "replacement"`. ' +
          'A big first sync in pages: `limit` (records an answer holds at most); while an answer says `hasMore`, synchronize again passing its `next` ' +
          '(the pages end with the cursor of the first one; a page’s own `timestamp` keeps the cursor the pull started from, so an interrupted paging starts again).',
        querystring: PullQuery,
        response: { 200: PullResult, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const since = request.query.lastPulledAt;
      return reply.send(await pull(services, principalOf(request).userId, since === undefined || since === 'null' ? null : Number(since), { limit: request.query.limit, next: request.query.next }));
    },
  );

  app.post(
    '/api/sync/push',
    {
      schema: {
        tags,
        operationId: 'syncPush',
        summary: 'Apply the changes made on a device (offline sync)',
        description:
          PROTOCOL +
          'One transaction: every record goes through the same rules as the REST API, and one refused record refuses the whole push (its problem names ' +
          '`/changes/<table>/<created|updated|deleted>/<index>/<column>` and the record id in `detail`). A created record with an id that exists already is the ' +
          'same create again (nothing happens) or, for your record, its update. An updated record whose `version` is not the server’s (changed since your pull) ' +
          'is a 409 `sync.conflict`: pull, then push again (WatermelonDB keeps your changed columns over the pulled ones). Deleting wins over a change.',
        querystring: PushQuery,
        body: PushBody,
        response: { 200: PushResult, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => push(services, principalOf(request).userId, request.body.changes as Changes),
  );
};
