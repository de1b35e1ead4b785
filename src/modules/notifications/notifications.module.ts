import { defineModule } from '../../core/module.js';
import { notificationsRoutes } from './notifications.routes.js';
import { webhooksAdminRoutes } from './webhooks.admin.routes.js';

/** Notifications (in-app, mail), preferences and webhooks. */
export const notificationsModule = defineModule('notifications', {
  routes: [notificationsRoutes, webhooksAdminRoutes],
});
