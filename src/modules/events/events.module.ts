import { defineModule } from '../../core/module.js';
import { registerLookupUsage } from '../lookups/index.js';
import { eventsByType } from './events.service.js';
import { eventsRoutes } from './events.routes.js';
import { eventsAdminRoutes } from './events.admin.routes.js';

/** Community events and their administration. */
export const eventsModule = defineModule('events', {
  providers: (deps) => {
    registerLookupUsage(deps, 'EventType', eventsByType);
  },
  routes: [eventsRoutes, eventsAdminRoutes],
});
