import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { usersPersonalData } from './users.personal-data.js';
import { banIdentityKey, setBanIdentityKey } from './bans-identity.js';
import { bansRoutes } from './bans.routes.js';
import { bansAdminRoutes } from './bans.admin.routes.js';
import { usersAdminRoutes } from './users.admin.routes.js';

/** Users, bans (and appeals) and the admin user list. */
export const usersModule = defineModule('users', {
  providers: (deps) => {
    registerPersonalData(deps, usersPersonalData);
    setBanIdentityKey(deps.registries, banIdentityKey(deps.config));
  },
  routes: [bansRoutes, bansAdminRoutes, usersAdminRoutes],
});
