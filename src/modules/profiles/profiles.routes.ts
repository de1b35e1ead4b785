import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { listenWhileServing } from '../../core/db/listen.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { OwnProfile, ReplaceProfileBody, UserIdParams, UserProfile } from './profiles.schemas.js';
import * as service from './profiles.service.js';

export const profilesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  // Own views stay cached while this server hears their changes (NOTIFY from triggers).
  listenWhileServing(app, deps.database.pool, service.ownProfilesOf(deps).listen);
  app.addSchema(UserProfile);
  app.addSchema(OwnProfile);
  const tags = ['profiles'];

  app.get(
    '/api/userprofile/me',
    {
      // Also while the account's deletion is pending: `pendingDeletion` says when it will be erased.
      config: { allowPendingDeletion: true },
      schema: {
        tags,
        operationId: 'getMyProfile',
        summary: 'Your profile',
        description:
          'With your email, role, units preference and research consent, which only you see, and your avatar. A profile you never edited has the defaults (Public, imperial). ' +
          'Each server process keeps this answer in memory: your own changes (this profile, your research consent) show at once, a new or deleted avatar and a change made elsewhere within moments.',
        response: { 200: Type.Ref('OwnProfile') },
      },
    },
    async (request) => service.getMyProfile(services, principalOf(request)),
  );

  const consentNote =
    '`researchConsent` sets the research consent the fishing log applies to DNR research (one source of truth). An unknown species is a 400 naming `favouriteSpeciesId`.';

  app.put(
    '/api/userprofile/me',
    {
      schema: {
        tags,
        operationId: 'replaceMyProfile',
        summary: 'Replace your profile',
        description:
          'Send the whole profile: `visibility` and `unitsPreference` are required (a missing field is a 400 naming it); omitted optional fields become null (an omitted `researchConsent` stays). ' +
          consentNote,
        body: ReplaceProfileBody,
        response: { 200: Type.Ref('OwnProfile') },
      },
    },
    async (request) => service.updateOwnProfile(services, principalOf(request).userId, { replace: request.body }),
  );

  app.patch(
    '/api/userprofile/me',
    {
      schema: {
        tags,
        operationId: 'updateMyProfile',
        summary: 'Change some fields of your profile',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change; `null` clears an optional field and is a 400 naming a required one. ' +
          consentNote,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(ReplaceProfileBody, { examples: [{ bio: 'Walleye nut from Duluth', homeRegion: null }, { visibility: 'Friends' }] }),
        response: { 200: Type.Ref('OwnProfile') },
      },
    },
    async (request) => service.updateOwnProfile(services, principalOf(request).userId, { patch: request.body }),
  );

  app.get(
    '/api/userprofile/:userId',
    {
      schema: {
        tags,
        operationId: 'getProfile',
        summary: 'A user’s profile, privacy respected',
        description:
          'Public profiles are visible to every signed-in user, Friends profiles to mutual friends, Circle profiles to the owner’s circle, Private profiles to the owner only (403 otherwise). ' +
          'Never shows email, role, units preference or research consent.',
        params: UserIdParams,
        response: { 200: Type.Ref('UserProfile'), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getProfile(services, principalOf(request).userId, request.params.userId),
  );
};
