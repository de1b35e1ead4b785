import { defineModule } from '../../core/module.js';
import { brandsRoutes } from './brands.routes.js';
import { brandsAdminRoutes } from './brands.admin.routes.js';

/** Brands and their administration. */
export const brandsModule = defineModule('brands', {
  routes: [brandsRoutes, brandsAdminRoutes],
});
