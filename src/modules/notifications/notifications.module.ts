import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { notificationsPersonalData } from './notifications.personal-data.js';
import { notificationsRoutes } from './notifications.routes.js';
import { webhooksAdminRoutes } from './webhooks.admin.routes.js';

/** Notifications (in-app, mail), preferences and webhooks. */
export const notificationsModule = defineModule('notifications', {
  providers: (deps) => registerPersonalData(deps, notificationsPersonalData),
  routes: [notificationsRoutes, webhooksAdminRoutes],
});
