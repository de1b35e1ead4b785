import { registerRelationships } from './core/access/visibility.js';
import { relationships } from './modules/social/friends.service.js';
import { registerMasterAnglerDetection } from './modules/fishing-log/master-angler.port.js';
import { homeStateOf } from './modules/profiles/profiles.service.js';
import { masterAnglerEligibility } from './modules/regulations/master-angler.service.js';
import { onPaymentSettled, registerPaymentRecordPath } from './modules/payments/payments.service.js';
import { registerLookupUsage } from './modules/lookups/index.js';
import { reportsByClarity, reportsBySky } from './modules/fishing-reports/fishing-reports.service.js';
import { eventsByType } from './modules/events/events.service.js';
import { registrationPathById, settleEntryFee } from './modules/tournaments/tournaments.service.js';
import { bookingPath } from './modules/charters/charters.service.js';

/**
 * Composition root of what the core needs from the modules, registered once at start-up (the
 * core never imports a module): who is whose friend (visibility). The user directory of
 * authentication is handed to the Authenticator in src/app.ts.
 */
export function registerModuleProviders(): void {
  registerRelationships(relationships);
  // The regulations module reads the fishing log; the fishing log learns of Master Angler programs through this port.
  registerMasterAnglerDetection(async (db, ownerId, catches) => {
    let home: Promise<string | null> | undefined;
    const homeState = () => (home ??= homeStateOf(db, ownerId)); // read once, and only when a program lists a species
    const found = [];
    for (const item of catches) found.push(await masterAnglerEligibility(db, { ...item, homeState }));
    return found;
  });
  // Entry fees the payment provider settles later (webhooks) reach the tournament registration they pay for.
  onPaymentSettled('tournament_registration', settleEntryFee);
  // Where a payer reads what a refunded payment was for (the refund's notification links it).
  registerPaymentRecordPath('charter_booking', (_db, id) => bookingPath(id));
  registerPaymentRecordPath('tournament_registration', registrationPathById);
  // The lookups' usage statistics: the modules whose fields use a vocabulary count their records.
  registerLookupUsage('WaterClarity', reportsByClarity);
  registerLookupUsage('Sky', reportsBySky);
  registerLookupUsage('EventType', eventsByType);
}
