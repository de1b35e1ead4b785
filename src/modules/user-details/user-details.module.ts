import { defineModule } from '../../core/module.js';
import { userDetailsAdminRoutes } from './user-details.admin.routes.js';

/** Administration: a user's details, role change and activity timeline. */
export const userDetailsModule = defineModule('user-details', {
  routes: [userDetailsAdminRoutes],
});
