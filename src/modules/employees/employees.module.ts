import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { employeesPersonalData } from './employees.personal-data.js';
import { employeesMeRoutes } from './employees.me.routes.js';
import { employeesRoutes } from './employees.routes.js';

/** Staff: the Owner appoints Admins and Moderators and grants permissions. */
export const employeesModule = defineModule('employees', {
  providers: (deps) => registerPersonalData(deps, employeesPersonalData),
  routes: [employeesRoutes, employeesMeRoutes],
});
