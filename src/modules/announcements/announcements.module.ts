import { defineModule } from '../../core/module.js';
import { announcementsRoutes } from './announcements.routes.js';
import { announcementsAdminRoutes } from './announcements.admin.routes.js';

/** Announcements and their administration. */
export const announcementsModule = defineModule('announcements', {
  routes: [announcementsRoutes, announcementsAdminRoutes],
});
