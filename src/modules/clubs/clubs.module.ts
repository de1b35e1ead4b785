import { defineModule } from '../../core/module.js';
import { clubsRoutes } from './clubs.routes.js';
import { clubsAdminRoutes } from './clubs.admin.routes.js';

/** Fishing clubs and their administration. */
export const clubsModule = defineModule('clubs', {
  routes: [clubsRoutes, clubsAdminRoutes],
});
