import { defineModule } from '../../core/module.js';
import { syncRoutes } from './sync.routes.js';

/** Offline sync for mobile apps: WatermelonDB's pull and push over the owners' records (issue 45). */
export const syncModule = defineModule('sync', { routes: [syncRoutes] });
