import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { lookupsPersonalData } from './lookups.personal-data.js';
import { lookupsRoutes } from './lookups.routes.js';
import { lookupsAdminRoutes } from './lookups.admin.routes.js';

/** Vocabularies (water clarity, sky, event types) and their administration. */
export const lookupsModule = defineModule('lookups', {
  providers: (deps) => registerPersonalData(deps, lookupsPersonalData),
  routes: [lookupsRoutes, lookupsAdminRoutes],
});
