import { conflict, definePolicy, isAdmin, isOwner, type Viewer } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Spots (fishing spots, boat ramps, piers, shore access).
 * - view: anyone while active; a deactivated spot only its owner and administrators; a spot of a
 *   deactivated account (its deletion pending) only its owner and administrators.
 * - seeExact: the exact point is shown to the owner, and to everyone for a public spot or a
 *   public facility (boat ramp, pier); others see a spot from a private log snapped to ~1 km.
 * - rate: any signed-in user, while the spot is active.
 * - confirm: a user other than the owner, while the spot is active and unverified.
 * The spots service asks `view` first, so a refused `rate` or `confirm` is a state conflict (409):
 * deactivated (seen by its owner and administrators), the caller's own spot, verified already.
 */
export interface SpotRecord {
  /** Null for reference spots (agency data nobody owns). */
  readonly ownerId: string | null;
  readonly kind: string;
  readonly privacy: string;
  readonly status: string;
  readonly isActive: boolean;
}

const FACILITIES = new Set(['BoatRamp', 'Pier']);

/** The spot's owner (never anyone for a reference spot). */
const ownsSpot = (viewer: Viewer, spot: SpotRecord) => spot.ownerId !== null && isOwner(viewer, { ownerId: spot.ownerId });

const deactivated = { code: 'spots.deactivated', detail: 'This spot was deactivated by an administrator; it can no longer be seen or rated.' };
const deactivatedConflict = conflict(deactivated.code, deactivated.detail);
const hidden = { code: 'spots.not_visible', detail: 'The account of the angler who added this spot is deactivated: the spot is not shown meanwhile.' };

export const spotPolicy = definePolicy<SpotRecord, 'view' | 'seeExact' | 'rate' | 'confirm'>('spots', {
  view: async (viewer, spot, context) => {
    if (isAdmin(viewer)) return true;
    if (!spot.isActive && !ownsSpot(viewer, spot)) return deactivated;
    return (await ownerShownTo(viewer, spot.ownerId, context)) ? true : hidden;
  },
  seeExact: (viewer, spot) =>
    ownsSpot(viewer, spot) || spot.privacy === 'Public' || FACILITIES.has(spot.kind)
      ? true
      : { code: 'spots.location_private', detail: 'The spot comes from a private log: its location is shown to the nearest kilometre.' },
  rate: (_viewer, spot) => (spot.isActive ? true : deactivatedConflict),
  confirm: (viewer, spot) => {
    if (!spot.isActive) return deactivatedConflict;
    if (ownsSpot(viewer, spot)) return conflict('spots.own_spot', 'You added this spot; confirmations must come from other anglers.');
    if (spot.status === 'Verified') return conflict('spots.already_verified', 'This spot is verified already; no confirmation is needed.');
    return true;
  },
});
