import { conflict, definePolicy, isAdmin, type Rule, type Viewer } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Record-level rules of charter listings and bookings (structural records: no module imports).
 * - A listing: anyone signed in sees an active one; an inactive one, or one whose captain's account
 *   is deactivated (its deletion pending: core/access/visibility.ts), only its captain and admins.
 *   Only its captain changes it, adds slots or (de)activates it. Booking one's own listing or an
 *   inactive one (seen by admins) is a state conflict (409).
 * - A booking: its customer and the listing's captain see it. The captain accepts, declines and
 *   cancels for weather; either of them cancels.
 */

export interface ListingRecord {
  readonly captainId: string;
  readonly isActive: boolean;
}

export interface BookingRecord {
  readonly customerId: string;
  readonly captainId: string;
}

const isCaptainOf = (viewer: Viewer, record: { captainId: string }) => record.captainId === viewer.userId;

const notCaptain = { code: 'charters.not_listing_captain', detail: 'Only the captain of this listing can do this.' };

const view: Rule<ListingRecord> = async (viewer, listing, context) => {
  if (isCaptainOf(viewer, listing) || isAdmin(viewer)) return true;
  if (!listing.isActive) return { code: 'charters.listing_inactive', detail: 'This listing is deactivated; only its captain and admins can see it. Search active listings at GET /api/charter/listings.' };
  return (await ownerShownTo(viewer, listing.captainId, context))
    ? true
    : { code: 'charters.listing_not_visible', detail: 'The account of this listing’s captain is deactivated: the listing is not shown meanwhile.' };
};

export const listingPolicy = definePolicy<ListingRecord, 'view' | 'edit' | 'book'>('charter_listings', {
  view,
  edit: (viewer, listing) => (isCaptainOf(viewer, listing) ? true : notCaptain),
  book: async (viewer, listing, context) => {
    const seen = await view(viewer, listing, context);
    if (seen !== true) return seen;
    if (isCaptainOf(viewer, listing)) return conflict('charters.own_listing', 'You cannot book a trip on your own listing.');
    return listing.isActive ? true : conflict('charters.listing_inactive', 'This listing is deactivated and takes no bookings; search active listings at GET /api/charter/listings.');
  },
});

export const bookingPolicy = definePolicy<BookingRecord, 'view' | 'decide' | 'cancel'>('charter_bookings', {
  view: (viewer, booking) =>
    booking.customerId === viewer.userId || isCaptainOf(viewer, booking)
      ? true
      : { code: 'charters.booking_not_yours', detail: 'Only the customer who booked and the listing\'s captain can see this booking.' },
  decide: (viewer, booking) =>
    isCaptainOf(viewer, booking) ? true : { code: 'charters.not_booking_captain', detail: 'Only the captain of the listing accepts, declines or cancels for weather.' },
  cancel: (viewer, booking) =>
    booking.customerId === viewer.userId || isCaptainOf(viewer, booking)
      ? true
      : { code: 'charters.booking_not_yours', detail: 'Only the customer who booked and the listing\'s captain can cancel this booking.' },
});
