import { defineModule } from '../../core/module.js';
import { registerSpeciesUsage } from '../species/index.js';
import { onBrandRenamed, registerBrandUsage } from '../brands/index.js';
import { brandCatalogItems, brandSetups, lureCountsBySpecies, refreshBrandSearchText } from './gear.service.js';
import { gearRoutes } from './gear.routes.js';
import { gearAdminRoutes } from './gear.admin.routes.js';
import { boatsRoutes } from './boats.routes.js';
import { setupsRoutes } from './setups.routes.js';

/** The gear catalog, anglers' boats and setups, and the catalog's administration. */
export const gearModule = defineModule('gear', {
  providers: () => {
    // The species' and brands' usage statistics count the catalog's lures, items and setups.
    registerSpeciesUsage('lures', lureCountsBySpecies);
    registerBrandUsage('catalogItems', brandCatalogItems);
    registerBrandUsage('setups', brandSetups);
    onBrandRenamed(refreshBrandSearchText);
  },
  routes: [gearRoutes, gearAdminRoutes, boatsRoutes, setupsRoutes],
});
