import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { announcementsPersonalData } from './announcements.personal-data.js';
import { announcementsRoutes } from './announcements.routes.js';
import { announcementsAdminRoutes } from './announcements.admin.routes.js';

/** Announcements and their administration. */
export const announcementsModule = defineModule('announcements', {
  providers: (deps) => registerPersonalData(deps, announcementsPersonalData),
  routes: [announcementsRoutes, announcementsAdminRoutes],
});
