import { defineModule } from '../../core/module.js';
import { jobsAdminRoutes } from './jobs.admin.routes.js';

/** Administration: background jobs. */
export const jobsModule = defineModule('jobs', {
  routes: [jobsAdminRoutes],
});
