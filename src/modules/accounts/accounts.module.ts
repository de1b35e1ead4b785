import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { accountsPersonalData } from './accounts.personal-data.js';
import { authRoutes } from './accounts.routes.js';
import { deletionRoutes } from './deletion.routes.js';
import { exportRoutes } from './export.routes.js';

/** Sign-up and sign-in with the embedded identity provider; deleting one's account (erasure: core/personal-data.ts); a copy of one's data (export.service.ts). */
export const accountsModule = defineModule('accounts', {
  providers: (deps) => registerPersonalData(deps, accountsPersonalData({ db: deps.database.db, dataDir: deps.config.dataDir })),
  routes: [authRoutes, deletionRoutes, exportRoutes],
});
