import { defineModule } from '../../core/module.js';
import { dashboardAdminRoutes } from './dashboard.admin.routes.js';

/** Administration: the dashboard's figures. */
export const dashboardModule = defineModule('dashboard', {
  routes: [dashboardAdminRoutes],
});
