import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { chartersPersonalData } from './charters.personal-data.js';
import { registerPaymentRecordPath } from '../payments/payments.service.js';
import { bookingPath } from './charters.service.js';
import { chartersRoutes } from './charters.routes.js';
import { chartersAdminRoutes } from './charters.admin.routes.js';

/** Charter listings, slots and bookings, and their administration. */
export const chartersModule = defineModule('charters', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, chartersPersonalData);
    // Where a payer reads what a refunded payment was for (the refund's notification links it).
    registerPaymentRecordPath(deps, 'charter_booking', (_db, id) => bookingPath(id));
  },
  routes: [chartersRoutes, chartersAdminRoutes],
});
