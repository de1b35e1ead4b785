import { defineModule } from '../../core/module.js';
import { paymentsAdminRoutes } from './payments.admin.routes.js';
import { paymentsWebhookRoutes } from './payments.webhook.routes.js';

/** Payments: the provider's webhooks and the admin view of payments and refunds. */
export const paymentsModule = defineModule('payments', {
  routes: [paymentsAdminRoutes, paymentsWebhookRoutes],
});
