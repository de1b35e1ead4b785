import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { spotsPersonalData } from './spots.personal-data.js';
import { registerPhotoRecord } from '../photos/photos.service.js';
import { requireVisibleSpot } from './spots.service.js';
import { spotsRoutes } from './spots.routes.js';
import { spotsAdminRoutes } from './spots.admin.routes.js';

/** Fishing spots, boat ramps and piers, and their administration. */
export const spotsModule = defineModule('spots', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, spotsPersonalData);
    registerPhotoRecord(deps, 'Spot', {
      read: async (services, viewer, id) => {
        const row = await requireVisibleSpot(services, viewer, id);
        return { ownerId: row.ownerId, isPublic: row.isActive };
      },
    });
  },
  routes: [spotsRoutes, spotsAdminRoutes],
});
