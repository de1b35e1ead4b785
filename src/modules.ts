import type { FishlogModule } from './core/module.js';
import { accountsModule } from './modules/accounts/accounts.module.js';
import { announcementsModule } from './modules/announcements/announcements.module.js';
import { auditLogsModule } from './modules/audit-logs/audit-logs.module.js';
import { brandsModule } from './modules/brands/brands.module.js';
import { chartersModule } from './modules/charters/charters.module.js';
import { clubsModule } from './modules/clubs/clubs.module.js';
import { dashboardModule } from './modules/dashboard/dashboard.module.js';
import { employeesModule } from './modules/employees/employees.module.js';
import { eventsModule } from './modules/events/events.module.js';
import { fishingLogModule } from './modules/fishing-log/fishing-log.module.js';
import { fishingReportsModule } from './modules/fishing-reports/fishing-reports.module.js';
import { gearModule } from './modules/gear/gear.module.js';
import { healthModule } from './modules/health/health.module.js';
import { jobsModule } from './modules/jobs/jobs.module.js';
import { lookupsModule } from './modules/lookups/lookups.module.js';
import { masterAnglerModule } from './modules/master-angler/master-angler.module.js';
import { moderationModule } from './modules/moderation/moderation.module.js';
import { notificationsModule } from './modules/notifications/notifications.module.js';
import { paymentsModule } from './modules/payments/payments.module.js';
import { photosModule } from './modules/photos/photos.module.js';
import { profilesModule } from './modules/profiles/profiles.module.js';
import { regulationsModule } from './modules/regulations/regulations.module.js';
import { socialModule } from './modules/social/social.module.js';
import { speciesModule } from './modules/species/species.module.js';
import { syncModule } from './modules/sync/sync.module.js';
import { spotsModule } from './modules/spots/spots.module.js';
import { tournamentsModule } from './modules/tournaments/tournaments.module.js';
import { userDetailsModule } from './modules/user-details/user-details.module.js';
import { usersModule } from './modules/users/users.module.js';

/**
 * The modules the app registers (src/app.ts), tier by tier as module-tiers.cjs lists them; each
 * registers its providers and then its routes. The settings module is not in the list: the app
 * starts it first, since every module's dependencies carry the live settings (`deps.settings`).
 */
export const MODULES: readonly FishlogModule[] = [
  // reference
  speciesModule,
  brandsModule,
  gearModule,
  lookupsModule,
  // identity
  usersModule,
  profilesModule,
  accountsModule,
  employeesModule,
  // content
  fishingLogModule,
  socialModule,
  moderationModule,
  photosModule,
  clubsModule,
  eventsModule,
  spotsModule,
  fishingReportsModule,
  tournamentsModule,
  chartersModule,
  paymentsModule,
  regulationsModule,
  masterAnglerModule,
  notificationsModule,
  announcementsModule,
  syncModule,
  // administration
  dashboardModule,
  userDetailsModule,
  auditLogsModule,
  jobsModule,
  healthModule,
];
