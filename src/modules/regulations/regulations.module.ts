import { defineModule } from '../../core/module.js';
import { regulationsRoutes } from './regulations.routes.js';
import { regulationsAdminRoutes } from './regulations.admin.routes.js';

/** Regulations by location, and their administration (jurisdictions, zones, rule sets, emergency orders). */
export const regulationsModule = defineModule('regulations', {
  routes: [regulationsRoutes, regulationsAdminRoutes],
});
