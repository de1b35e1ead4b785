import { defineModule } from '../../core/module.js';
import { employeesRoutes } from './employees.routes.js';

/** Staff: the Owner appoints Admins and Moderators and grants permissions. */
export const employeesModule = defineModule('employees', {
  routes: [employeesRoutes],
});
