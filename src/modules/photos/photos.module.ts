import { defineModule } from '../../core/module.js';
import { PROFILE_DEFAULTS, requireVisibleProfile } from '../profiles/profiles.service.js';
import { registerAvatarSource } from '../profiles/avatars.service.js';
import { photoViews, registerPhotoRecord } from './photos.service.js';
import { photosRoutes } from './photos.routes.js';

/** Photos of records (uploads, sizes, the review queue) and avatars. */
export const photosModule = defineModule('photos', {
  providers: (deps) => {
    // The avatar is the Avatar record's one photo, seen as the profile is; profiles shows it through its registry.
    registerPhotoRecord(deps, 'Avatar', {
      read: async (services, viewer, userId) => {
        const row = await requireVisibleProfile(services, viewer.userId, userId);
        return { ownerId: userId, isPublic: row.user.isActive && (row.profile?.visibility ?? PROFILE_DEFAULTS.visibility) === 'Public' };
      },
    });
    registerAvatarSource(deps, async (services, viewerId, userIds) => new Map([...(await photoViews(services, viewerId, userIds))].map(([userId, list]) => [userId, list[0] ?? null])));
  },
  routes: [photosRoutes],
});
