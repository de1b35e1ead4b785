import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { tournamentsPersonalData } from './tournaments.personal-data.js';
import { onPaymentSettled, registerPaymentRecordPath } from '../payments/payments.service.js';
import { registrationPathById, settleEntryFee } from './registrations.service.js';
import { tournamentsRoutes } from './tournaments.routes.js';
import { tournamentsAdminRoutes } from './tournaments.admin.routes.js';

/** Tournaments: organizers, registrations and entry fees, judging, results, sponsors. */
export const tournamentsModule = defineModule('tournaments', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, tournamentsPersonalData);
    // Entry fees the payment provider settles later (webhooks) reach the registration they pay for.
    onPaymentSettled(deps, 'tournament_registration', settleEntryFee);
    registerPaymentRecordPath(deps, 'tournament_registration', registrationPathById);
  },
  routes: [tournamentsRoutes, tournamentsAdminRoutes],
});
