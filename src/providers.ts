import { registerRelationships } from './core/access/visibility.js';
import { relationships } from './modules/social/friends.service.js';
import { registerMasterAnglerDetection } from './modules/fishing-log/master-angler.port.js';
import { homeStateOf } from './modules/profiles/profiles.service.js';
import { forgetMasterAnglerCatalog, masterAnglerEligibility, programsByJurisdiction } from './modules/master-angler/master-angler.service.js';
import { onJurisdictionActiveChange } from './modules/regulations/regulations.admin.service.js';
import { registerJurisdictionUsage } from './modules/regulations/index.js';
import { onPaymentSettled, registerPaymentRecordPath } from './modules/payments/payments.service.js';
import { registerLookupUsage } from './modules/lookups/index.js';
import { registerSpeciesUsage } from './modules/species/index.js';
import { onBrandRenamed, registerBrandUsage } from './modules/brands/index.js';
import { brandCatalogItems, brandSetups, lureCountsBySpecies, refreshBrandSearchText } from './modules/gear/gear.service.js';
import { catchesBySpecies } from './modules/fishing-log/fishing-log.usage.js';
import { reportsByClarity, reportsBySky } from './modules/fishing-reports/fishing-reports.service.js';
import { eventsByType } from './modules/events/events.service.js';
import { registrationPathById, settleEntryFee } from './modules/tournaments/registrations.service.js';
import { bookingPath } from './modules/charters/charters.service.js';
import { photoViews, registerPhotoRecord } from './modules/photos/photos.service.js';
import { visibleCatch, visibleEntry } from './modules/fishing-log/entries.service.js';
import { moderatedPosts, requireVisiblePost } from './modules/social/posts.service.js';
import { moderatedComments } from './modules/social/comments.service.js';
import { registerModeratedContent } from './modules/moderation/moderated-content.service.js';
import { requireVisibleReport } from './modules/fishing-reports/fishing-reports.service.js';
import { requireVisibleSpot } from './modules/spots/spots.service.js';
import { PROFILE_DEFAULTS, requireVisibleProfile } from './modules/profiles/profiles.service.js';
import { registerAvatarSource } from './modules/profiles/avatars.service.js';

/**
 * Composition root of what the core needs from the modules, registered once at start-up (the
 * core never imports a module): who is whose friend (visibility). The user directory of
 * authentication is handed to the Authenticator in src/app.ts.
 */
export function registerModuleProviders(): void {
  registerRelationships(relationships);
  // The Master Angler module reads the fishing log; the fishing log learns of its programs through this port.
  registerMasterAnglerDetection(async (db, ownerId, catches) => {
    let home: Promise<string | null> | undefined;
    const homeState = () => (home ??= homeStateOf(db, ownerId)); // read once, and only when a program lists a species
    const found = [];
    for (const item of catches) found.push(await masterAnglerEligibility(db, { ...item, homeState }));
    return found;
  });
  // Jurisdictions decide which programs count: this process forgets the cached minimums at once.
  onJurisdictionActiveChange(forgetMasterAnglerCatalog);
  registerJurisdictionUsage('programs', programsByJurisdiction);
  // Entry fees the payment provider settles later (webhooks) reach the tournament registration they pay for.
  onPaymentSettled('tournament_registration', settleEntryFee);
  // Where a payer reads what a refunded payment was for (the refund's notification links it).
  registerPaymentRecordPath('charter_booking', (_db, id) => bookingPath(id));
  registerPaymentRecordPath('tournament_registration', registrationPathById);
  // The lookups' usage statistics: the modules whose fields use a vocabulary count their records.
  registerLookupUsage('WaterClarity', reportsByClarity);
  registerLookupUsage('Sky', reportsBySky);
  registerLookupUsage('EventType', eventsByType);
  // The species' and brands' usage statistics, counted by the modules whose records reference them.
  registerSpeciesUsage('catches', catchesBySpecies);
  registerSpeciesUsage('lures', lureCountsBySpecies);
  registerBrandUsage('catalogItems', brandCatalogItems);
  registerBrandUsage('setups', brandSetups);
  onBrandRenamed(refreshBrandSearchText);
  // The review queue's content types: moderators' decisions read and change them through their module.
  registerModeratedContent('post', moderatedPosts);
  registerModeratedContent('comment', moderatedComments);
  registerPhotoRecords();
}

/**
 * The records that have photos: each is read through its own module's access check (its policy's
 * 404/403), so a photo is seen exactly as its record is. `isPublic`: every signed-in user sees it.
 */
function registerPhotoRecords(): void {
  registerPhotoRecord('Catch', {
    offersLocation: true,
    read: async (db, viewer, id, entryId) => {
      const row = await visibleCatch(db, viewer.userId, id, entryId);
      return { ownerId: row.ownerId, isPublic: row.entry.visibility === 'Public' };
    },
  });
  registerPhotoRecord('Entry', {
    offersLocation: true,
    read: async (db, viewer, id) => {
      const row = await visibleEntry(db, viewer.userId, id);
      return { ownerId: row.ownerId, isPublic: row.visibility === 'Public' };
    },
  });
  registerPhotoRecord('Post', {
    moderated: true,
    read: async (db, viewer, id) => {
      const row = await requireVisiblePost(db, viewer.userId, id);
      return { ownerId: row.authorId, isPublic: row.status === 'Published' && row.visibility === 'Public' };
    },
  });
  registerPhotoRecord('FishingReport', {
    moderated: true,
    read: async (db, viewer, id) => {
      const row = await requireVisibleReport(db, viewer, id);
      return { ownerId: row.authorId, isPublic: row.status === 'Published' };
    },
  });
  registerPhotoRecord('Spot', {
    read: async (db, viewer, id) => {
      const row = await requireVisibleSpot(db, viewer, id);
      return { ownerId: row.ownerId, isPublic: row.isActive };
    },
  });
  registerPhotoRecord('Avatar', {
    read: async (db, viewer, userId) => {
      const row = await requireVisibleProfile(db, viewer.userId, userId);
      return { ownerId: userId, isPublic: row.user.isActive && (row.profile?.visibility ?? PROFILE_DEFAULTS.visibility) === 'Public' };
    },
  });
  // Profile views show the avatar (the Avatar record's one photo) through profiles' registry: profiles does not import photos.
  registerAvatarSource(async (db, viewerId, userIds) => new Map([...(await photoViews(db, viewerId, userIds))].map(([userId, list]) => [userId, list[0] ?? null])));
}
