import { defineModule } from '../../core/module.js';
import { employeesMeRoutes } from './employees.me.routes.js';
import { employeesRoutes } from './employees.routes.js';

/** Staff: the Owner appoints Admins and Moderators and grants permissions. */
export const employeesModule = defineModule('employees', {
  routes: [employeesRoutes, employeesMeRoutes],
});
