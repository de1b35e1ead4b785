import { defineModule } from '../../core/module.js';
import { speciesRoutes } from './species.routes.js';
import { speciesAdminRoutes } from './species.admin.routes.js';

/** The species catalogue and its administration. */
export const speciesModule = defineModule('species', {
  routes: [speciesRoutes, speciesAdminRoutes],
});
