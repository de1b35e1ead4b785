import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { fishingLogPersonalData } from './fishing-log.personal-data.js';
import { registerSpeciesUsage } from '../species/index.js';
import { registerPhotoRecord } from '../photos/photos.service.js';
import { catchesBySpecies } from './fishing-log.usage.js';
import { visibleCatch, visibleEntry } from './entries.service.js';
import { fishingLogRoutes } from './fishing-log.routes.js';
import { dnrRoutes } from './dnr.routes.js';
import { personalBestsRoutes } from './personal-bests.routes.js';

/** Log entries, catches, sessions, personal bests and DNR research reads. */
export const fishingLogModule = defineModule('fishing-log', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, fishingLogPersonalData);
    registerSpeciesUsage(deps, 'catches', catchesBySpecies);
    // Photos of catches and entries are seen exactly as their record is (its policy's 404/403).
    registerPhotoRecord(deps, 'Catch', {
      offersLocation: true,
      read: async (services, viewer, id, entryId) => {
        const row = await visibleCatch(services, viewer.userId, id, entryId);
        return { ownerId: row.ownerId, isPublic: row.entry.visibility === 'Public' };
      },
    });
    registerPhotoRecord(deps, 'Entry', {
      offersLocation: true,
      read: async (services, viewer, id) => {
        const row = await visibleEntry(services, viewer.userId, id);
        return { ownerId: row.ownerId, isPublic: row.visibility === 'Public' };
      },
    });
  },
  routes: [fishingLogRoutes, dnrRoutes, personalBestsRoutes],
});
