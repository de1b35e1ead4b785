import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { profilesPersonalData } from './profiles.personal-data.js';
import { profilesRoutes } from './profiles.routes.js';

/** Angler profiles (your own and others' as their visibility allows). */
export const profilesModule = defineModule('profiles', {
  providers: (deps) => registerPersonalData(deps, profilesPersonalData),
  routes: [profilesRoutes],
});
