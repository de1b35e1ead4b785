import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { gearPersonalData } from './gear.personal-data.js';
import { registerSpeciesUsage } from '../species/index.js';
import { onBrandRenamed, registerBrandUsage } from '../brands/index.js';
import { brandCatalogItems, brandSetups, lureCountsBySpecies, refreshBrandSearchText } from './gear.service.js';
import { gearRoutes } from './gear.routes.js';
import { gearAdminRoutes } from './gear.admin.routes.js';
import { boatsRoutes } from './boats.routes.js';
import { setupsRoutes } from './setups.routes.js';

/** The gear catalog, anglers' boats and setups, and the catalog's administration. */
export const gearModule = defineModule('gear', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, gearPersonalData);
    // The species' and brands' usage statistics count the catalog's lures, items and setups.
    registerSpeciesUsage(deps, 'lures', lureCountsBySpecies);
    registerBrandUsage(deps, 'catalogItems', brandCatalogItems);
    registerBrandUsage(deps, 'setups', brandSetups);
    onBrandRenamed(deps, refreshBrandSearchText);
  },
  routes: [gearRoutes, gearAdminRoutes, boatsRoutes, setupsRoutes],
});
