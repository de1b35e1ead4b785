import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { masterAnglerPersonalData } from './master-angler.personal-data.js';
import { registerMasterAnglerDetection } from '../fishing-log/index.js';
import { homeStateOf } from '../profiles/profiles.service.js';
import { registerJurisdictionUsage } from '../regulations/index.js';
import { onJurisdictionActiveChange } from '../regulations/regulations.admin.service.js';
import { forgetMasterAnglerCatalog, masterAnglerEligibility, programsByJurisdiction } from './master-angler.service.js';
import { masterAnglerRoutes } from './master-angler.routes.js';
import { masterAnglerAdminRoutes } from './master-angler.admin.routes.js';

/** Master Angler programs, eligibility of logged catches, submissions and their review. */
export const masterAnglerModule = defineModule('master-angler', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, masterAnglerPersonalData);
    // The fishing log learns of the programs through its port (it cannot import this module).
    registerMasterAnglerDetection(deps, async (services, ownerId, catches) => {
      let home: Promise<string | null> | undefined;
      const homeState = () => (home ??= homeStateOf(services, ownerId)); // read once, and only when a program lists a species
      const found = [];
      for (const item of catches) found.push(await masterAnglerEligibility(services, { ...item, homeState }));
      return found;
    });
    // Jurisdictions decide which programs count: this process forgets the cached minimums at once.
    onJurisdictionActiveChange(deps, () => forgetMasterAnglerCatalog(deps));
    registerJurisdictionUsage(deps, 'programs', programsByJurisdiction);
  },
  routes: [masterAnglerRoutes, masterAnglerAdminRoutes],
});
