import { defineModule } from '../../core/module.js';
import { authRoutes } from './accounts.routes.js';

/** Sign-up and sign-in with the embedded identity provider. */
export const accountsModule = defineModule('accounts', {
  routes: [authRoutes],
});
