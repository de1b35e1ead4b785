import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { eventsPersonalData } from './events.personal-data.js';
import { registerLookupUsage } from '../lookups/index.js';
import { eventsByType } from './events.service.js';
import { eventsRoutes } from './events.routes.js';
import { eventsAdminRoutes } from './events.admin.routes.js';

/** Community events and their administration. */
export const eventsModule = defineModule('events', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, eventsPersonalData);
    registerLookupUsage(deps, 'EventType', eventsByType);
  },
  routes: [eventsRoutes, eventsAdminRoutes],
});
