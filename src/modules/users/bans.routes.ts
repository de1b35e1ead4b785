import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../core/access/access.js';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AppealBody, MyBan, MyBans } from './bans.schemas.js';
import * as service from './bans.service.js';
import { banIdentityKeyOf, rekeyLegacyBanHashes } from './bans-identity.js';

/** A user's side of bans: the two routes a banned user may still call (`allowBanned`). */
export const bansRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  // Hashes of banned identities written before they were keyed (migration 0048) are re-keyed once, at start.
  app.addHook('onReady', async () => {
    const changed = await rekeyLegacyBanHashes(deps.database.db, banIdentityKeyOf(deps.registries)).catch((error: unknown) => {
      app.log.warn({ err: error }, 're-keying the identity hashes of bans failed; the next start retries');
      return 0;
    });
    if (changed > 0) app.log.info({ bans: changed }, 're-keyed the identity hashes of bans (HMAC)');
  });
  app.addSchema(MyBan);
  const tags = ['bans'];

  app.get(
    '/api/bans/me',
    {
      config: { access: 'authenticated', allowBanned: true },
      schema: {
        tags,
        operationId: 'getMyBans',
        summary: 'Your ban in force (reason, end) and your latest bans with their appeals',
        description: 'Open to banned users: with `POST /api/bans/{id}/appeal`, the only routes they may call. `current` is null when you are not banned.',
        response: { 200: MyBans },
      },
    },
    async (request) => service.myBans(services, principalOf(request).userId, now()),
  );

  app.post(
    '/api/bans/:id/appeal',
    {
      config: { access: 'authenticated', allowBanned: true },
      schema: {
        tags,
        operationId: 'appealMyBan',
        summary: 'Appeal your ban in force (once per ban)',
        description:
          'One appeal per ban (409 `bans.appeal_exists`, also under concurrent requests); only for a ban in force (409 `bans.ban_not_in_force`) and only your own (403). ' +
          'Someone other than the employee who banned you decides it; the reply shows in `GET /api/bans/me`.',
        params: IdParams,
        body: AppealBody,
        response: { 201: Type.Ref('MyBan'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      return reply.code(201).send(await service.appeal(services, principal, request.params.id, request.body.text, now()));
    },
  );
};
