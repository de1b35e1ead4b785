import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { fishingReportsPersonalData } from './fishing-reports.personal-data.js';
import { registerLookupUsage } from '../lookups/index.js';
import { registerPhotoRecord } from '../photos/photos.service.js';
import { reportsByClarity, reportsBySky, requireVisibleReport } from './fishing-reports.service.js';
import { fishingReportsRoutes } from './fishing-reports.routes.js';
import { fishingReportsAdminRoutes } from './fishing-reports.admin.routes.js';

/** Fishing reports by location, and their administration. */
export const fishingReportsModule = defineModule('fishing-reports', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, fishingReportsPersonalData);
    // The lookups' usage statistics: reports hold water clarity and sky values.
    registerLookupUsage(deps, 'WaterClarity', reportsByClarity);
    registerLookupUsage(deps, 'Sky', reportsBySky);
    registerPhotoRecord(deps, 'FishingReport', {
      moderated: true,
      read: async (services, viewer, id) => {
        const row = await requireVisibleReport(services, viewer, id);
        return { ownerId: row.authorId, isPublic: row.status === 'Published' };
      },
    });
  },
  routes: [fishingReportsRoutes, fishingReportsAdminRoutes],
});
