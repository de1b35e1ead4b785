import { registerRelationships } from './core/access/visibility.js';
import { relationships } from './modules/social/friends.service.js';

/**
 * Composition root of what the core needs from the modules, registered once at start-up (the
 * core never imports a module): who is whose friend (visibility). The user directory of
 * authentication is handed to the Authenticator in src/app.ts.
 */
export function registerModuleProviders(): void {
  registerRelationships(relationships);
}
