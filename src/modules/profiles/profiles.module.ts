import { defineModule } from '../../core/module.js';
import { profilesRoutes } from './profiles.routes.js';

/** Angler profiles (your own and others' as their visibility allows). */
export const profilesModule = defineModule('profiles', {
  routes: [profilesRoutes],
});
