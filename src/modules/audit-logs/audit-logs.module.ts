import { defineModule } from '../../core/module.js';
import { auditLogsAdminRoutes } from './audit-logs.admin.routes.js';

/** Administration: the audit log (search, export, verification). */
export const auditLogsModule = defineModule('audit-logs', {
  routes: [auditLogsAdminRoutes],
});
