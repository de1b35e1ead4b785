import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { OwnProfile, UpdateProfileBody, UserIdParams, UserProfile } from './profiles.schemas.js';
import * as service from './profiles.service.js';

export const profilesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = deps.database.db;
  app.addSchema(UserProfile);
  app.addSchema(OwnProfile);
  const tags = ['profiles'];

  app.get(
    '/api/userprofile/me',
    {
      schema: {
        tags,
        operationId: 'getMyProfile',
        summary: 'Your profile',
        description: 'With your email, role, units preference and research consent, which only you see. A profile you never edited has the defaults (Public, imperial).',
        response: { 200: Type.Ref('OwnProfile') },
      },
    },
    async (request) => service.getOwnProfile(db, principalOf(request).userId),
  );

  app.put(
    '/api/userprofile/me',
    {
      schema: {
        tags,
        operationId: 'updateMyProfile',
        summary: 'Update your profile',
        description:
          'Changes only the fields sent (null clears an optional text or the favourite species). `researchConsent` sets the research consent the fishing log applies to DNR research (one source of truth). ' +
          'An unknown species is a 400 naming `favouriteSpeciesId`.',
        body: UpdateProfileBody,
        response: { 200: Type.Ref('OwnProfile') },
      },
    },
    async (request) => service.updateOwnProfile(db, principalOf(request).userId, request.body),
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
    async (request) => service.getProfile(db, principalOf(request).userId, request.params.userId),
  );
};
