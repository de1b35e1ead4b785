import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { AuditContext } from '../../core/audit/audit.js';
import { authorize, isSelf, type Viewer } from '../../core/access/policy.js';
import { listingPolicy } from '../../core/access/policies/charters.js';
import type { DbOrTx } from '../../core/db/client.js';
import { shownLocation } from '../../core/http/coordinates.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { CharterErrors } from './charters.errors.js';
import * as repo from './charters.repository.js';
import { ListingBody, type ListingInput, type ListingsFilter } from './charters.schemas.js';
import { OUPV_MAX_PASSENGERS, type CaptainRow, type ListingRow, type TripType } from './charters.tables.js';
import { formatInZone, isTimeZone, zonedToUtc } from './charters.time.js';
import { DAY_MS, licenceValid, type ChartersDeps } from './charters.deps.js';

/** Charter listings and their availability (slots). */


function listingView(found: repo.ListingWithCaptain, viewer: Viewer, now: Date) {
  const { listing, captain } = found;
  const own = isSelf(viewer, listing.captainId);
  const valid = licenceValid(captain, now);
  const round = (v: number) => Math.round(v * 100) / 100;
  const point = { latitude: listing.latitude, longitude: listing.longitude };
  return {
    id: listing.id,
    title: listing.title,
    description: listing.description,
    boatName: listing.boatName,
    homePort: listing.homePort,
    state: listing.state,
    location: shownLocation(own, point, { latitude: round(point.latitude), longitude: round(point.longitude) }),
    timeZone: listing.timeZone,
    currency: listing.currency,
    tripTypes: listing.tripTypes,
    targetSpecies: listing.targetSpecies,
    included: listing.included,
    freeCancellationDays: listing.freeCancellationDays,
    lateCancellationRefundPercent: listing.lateCancellationRefundPercent,
    depositPercent: listing.depositPercent as 0,
    instantBook: listing.instantBook,
    captain: { userId: captain.userId, username: found.username, licenceType: captain.licenceType, licenceValid: valid },
    bookable: listing.isActive && valid,
    notice: !listing.isActive
      ? 'This listing is deactivated and takes no bookings.'
      : valid
        ? null
        : "The captain's licence has expired or is not verified: new bookings are paused until it is renewed and verified.",
    distanceKm: found.distanceKm === null ? null : Math.round(found.distanceKm * 10) / 10,
    isActive: listing.isActive,
    createdAt: listing.createdAt.toISOString(),
    updatedAt: listing.updatedAt.toISOString(),
  };
}

function checkListing(input: ListingInput, captain: CaptainRow): void {
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw CharterErrors.badTimeZone(input.timeZone);
  if (captain.licenceType === 'OUPV') {
    const index = input.tripTypes.findIndex((t) => t.maxPartySize > OUPV_MAX_PASSENGERS);
    if (index >= 0) throw CharterErrors.oupvLimit(index);
  }
}

function tripTypes(input: ListingInput['tripTypes']): TripType[] {
  return input.map((t) => ({ ...t, id: t.id ?? uuidv7() }));
}

/** The columns of a listing body (a PUT replaces every field: optional ones left out take their defaults). */
function listingValues({ location, ...input }: ListingInput) {
  return {
    ...input,
    latitude: location.latitude,
    longitude: location.longitude,
    state: input.state.toUpperCase(),
    currency: input.currency ?? 'USD',
    tripTypes: tripTypes(input.tripTypes),
    targetSpecies: input.targetSpecies ?? [],
    included: input.included ?? [],
  };
}

const LISTING_FIELDS = Object.keys(ListingBody.properties).filter((field) => field !== 'location') as (keyof ListingInput & keyof ListingRow)[];

/** A listing as a PUT body (for a merge patch): the body's fields of the row. */
function listingAsInput(listing: ListingRow): ListingInput {
  const fields = Object.fromEntries(LISTING_FIELDS.map((field) => [field, listing[field]]));
  return { ...fields, location: { latitude: listing.latitude, longitude: listing.longitude } } as ListingInput;
}

async function verifiedCaptain(deps: ServiceDeps<DbOrTx>, userId: string): Promise<CaptainRow> {
  const { db } = deps;
  const captain = await repo.findCaptain(db, userId);
  if (!captain) throw CharterErrors.notACaptain();
  if (captain.status !== 'Verified') throw CharterErrors.captainNotVerified(captain.status);
  return captain;
}

export async function createListing(deps: ChartersDeps, viewer: Viewer, input: ListingInput) {
  const captain = await verifiedCaptain(deps, viewer.userId);
  checkListing(input, captain);
  const row = await repo.insertListing(deps.db, { id: uuidv7(), captainId: viewer.userId, ...listingValues(input) });
  return getListing(deps, viewer, row.id);
}

export async function getListing(deps: ChartersDeps, viewer: Viewer, id: string) {
  const found = await repo.findListing(deps.db, id);
  await authorize(listingPolicy, viewer, 'view', found?.listing, deps, () => CharterErrors.listingNotFound(id));
  return listingView(found!, viewer, (deps.now ?? (() => new Date()))());
}

export async function searchListings(deps: ChartersDeps, viewer: Viewer, filter: ListingsFilter, page: Page) {
  const now = (deps.now ?? (() => new Date()))();
  const { items, total } = await repo.searchListings(deps.db, filter, page, now);
  return { items: items.map((i) => listingView(i, viewer, now)), total };
}

/** PUT (replace) or PATCH (merge patch) by the listing's captain. */
export async function updateListing(deps: ChartersDeps, viewer: Viewer, id: string, change: Change<ListingInput>) {
  await deps.db.transaction(async (tx) => {
    const found = await repo.findListing(tx, id, true);
    const listing = await authorize(listingPolicy, viewer, 'edit', found?.listing, inTx(deps, tx), () => CharterErrors.listingNotFound(id));
    const input = applyChange(change, ListingBody, () => listingAsInput(listing));
    checkListing(input, found!.captain);
    await repo.updateListing(tx, id, listingValues(input));
  });
  return getListing(deps, viewer, id);
}

/** The captain deactivates (never deletes) or reactivates their listing (core/admin/lifecycle: lock, 409 when already so, audit). */
export async function setListingActive(deps: ChartersDeps, viewer: Viewer, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  await setActive(deps, context, listingLifecycle(deps, viewer), id, active, reason);
  return getListing(deps, viewer, id);
}

const listingLifecycle = (deps: ServiceDeps, viewer: Viewer): Lifecycle<{ isActive: boolean }, void> => ({
  async lock(tx, id) {
    const found = await repo.findListing(tx, id, true);
    await authorize(listingPolicy, viewer, 'edit', found?.listing, inTx(deps, tx), () => CharterErrors.listingNotFound(id));
    return found!.listing;
  },
  update: async (tx, id, values) => {
    await repo.updateListing(tx, id, values);
  },
  view: async () => undefined,
  notFound: CharterErrors.listingNotFound,
  alreadyActive: () => CharterErrors.alreadyInState(true),
  alreadyInactive: () => CharterErrors.alreadyInState(false),
  audit: { targetType: 'charter_listing', deactivated: 'charters.listing_deactivated', reactivated: 'charters.listing_reactivated' },
});

// Availability

export async function addSlots(deps: ChartersDeps, viewer: Viewer, listingId: string, startsAt: string[]) {
  const found = await repo.findListing(deps.db, listingId);
  await authorize(listingPolicy, viewer, 'edit', found?.listing, deps, () => CharterErrors.listingNotFound(listingId));
  const zone = found!.listing.timeZone;
  await repo.insertSlots(deps.db, startsAt.map((local) => ({ id: uuidv7(), listingId, startsAt: zonedToUtc(local, zone) })));
  const instants = startsAt.map((local) => zonedToUtc(local, zone).getTime());
  return listSlots(deps, viewer, listingId, { from: new Date(Math.min(...instants)), to: new Date(Math.max(...instants) + 1) });
}

export async function listSlots(deps: ChartersDeps, viewer: Viewer, listingId: string, range: { from?: Date; to?: Date }) {
  const found = await repo.findListing(deps.db, listingId);
  await authorize(listingPolicy, viewer, 'view', found?.listing, deps, () => CharterErrors.listingNotFound(listingId));
  const now = (deps.now ?? (() => new Date()))();
  const rows = await repo.listSlots(deps.db, listingId, range.from ?? now, range.to ?? new Date(now.getTime() + 366 * DAY_MS));
  return rows.map((r) => ({ id: r.id, startsAt: formatInZone(r.startsAt, found!.listing.timeZone), booked: r.booked }));
}
