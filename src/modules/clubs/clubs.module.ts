import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { clubsPersonalData } from './clubs.personal-data.js';
import { clubsRoutes } from './clubs.routes.js';
import { clubsAdminRoutes } from './clubs.admin.routes.js';

/** Fishing clubs and their administration. */
export const clubsModule = defineModule('clubs', {
  providers: (deps) => registerPersonalData(deps, clubsPersonalData),
  routes: [clubsRoutes, clubsAdminRoutes],
});
