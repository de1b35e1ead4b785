import { defineModule } from '../../core/module.js';
import { lookupsRoutes } from './lookups.routes.js';
import { lookupsAdminRoutes } from './lookups.admin.routes.js';

/** Vocabularies (water clarity, sky, event types) and their administration. */
export const lookupsModule = defineModule('lookups', {
  routes: [lookupsRoutes, lookupsAdminRoutes],
});
