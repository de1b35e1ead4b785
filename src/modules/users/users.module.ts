import { defineModule } from '../../core/module.js';
import { bansRoutes } from './bans.routes.js';
import { bansAdminRoutes } from './bans.admin.routes.js';
import { usersAdminRoutes } from './users.admin.routes.js';

/** Users, bans (and appeals) and the admin user list. */
export const usersModule = defineModule('users', {
  routes: [bansRoutes, bansAdminRoutes, usersAdminRoutes],
});
