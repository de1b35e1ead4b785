import { defineModule } from '../../core/module.js';
import { healthRoutes } from './health.routes.js';

/** Liveness and readiness (`/health`). */
export const healthModule = defineModule('health', {
  routes: [healthRoutes],
});
