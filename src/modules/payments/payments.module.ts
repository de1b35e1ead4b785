import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { paymentsPersonalData } from './payments.personal-data.js';
import { paymentsAdminRoutes } from './payments.admin.routes.js';
import { paymentsWebhookRoutes } from './payments.webhook.routes.js';

/** Payments: the provider's webhooks and the admin view of payments and refunds. */
export const paymentsModule = defineModule('payments', {
  providers: (deps) => registerPersonalData(deps, paymentsPersonalData),
  routes: [paymentsAdminRoutes, paymentsWebhookRoutes],
});
