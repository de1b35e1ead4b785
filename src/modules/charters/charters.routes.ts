import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { auditContextOf } from '../../core/audit/context.js';
import { mergePatchSchema, PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { legacyPoint } from '../../core/http/coordinates.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { paymentsOf } from '../payments/payments.service.js';
import { IdempotencyHeaders } from '../payments/index.js';
import {
  BookBody,
  Booking,
  BookingsQuery,
  Captain,
  CaptainApplication,
  Listing,
  ListingBody,
  ListingIdParams,
  ListingsQuery,
  RequiredReasonBody,
  ReviewBody,
  Slot,
  SlotsBody,
  SlotsQuery,
} from './charters.schemas.js';
import * as service from './charters.service.js';
import { CHARTERS_SWEEP } from './charters.jobs.js';

/** /api/charter: captains, listings, availability and bookings. */
export const chartersRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const ctx: service.ChartersDeps = { ...serviceDeps(deps), payments: paymentsOf(deps) };
  for (const schema of [Captain, Listing, Booking]) app.addSchema(schema);
  const tags = ['charters'];
  const listingRef = Type.Ref('CharterListing');
  const bookingRef = Type.Ref('CharterBooking');

  // The auto-decline/complete sweep, every minute on the job queue (one process per tick).
  deps.jobs.work(CHARTERS_SWEEP, () => service.runChartersJob(ctx));

  app.post(
    '/api/charter/captains',
    {
      schema: {
        tags,
        operationId: 'applyAsCharterCaptain',
        summary: 'Apply as a charter captain',
        description: 'Your USCG licence (OUPV or Master: number, expiry), vessel and insurance. The application is Pending until an admin verifies it; re-applying (e.g. with a renewed licence) sends it back to Pending.',
        body: CaptainApplication,
        response: { 201: Type.Ref('CharterCaptain') },
      },
    },
    async (request, reply) => reply.code(201).send(await service.applyAsCaptain(ctx, auditContextOf(request), principalOf(request).userId, request.body)),
  );

  app.get(
    '/api/charter/captains/me',
    { schema: { tags, operationId: 'getMyCharterCaptain', summary: 'Your captain application and its status', response: { 200: Type.Ref('CharterCaptain'), ...errorResponses(404) } } },
    async (request) => service.myCaptainProfile(ctx, principalOf(request).userId),
  );

  app.get(
    '/api/charter/listings',
    {
      schema: {
        tags,
        operationId: 'searchCharterListings',
        summary: 'Search charter listings',
        description:
          'Active listings only. Filters: `state` (ISO 3166-2), near a point (`lat`, `lon`, `radiusKm`, nearest first with `distanceKm`), `date` (a free slot that local day), `partySize` (a trip type takes it), price range (`minPriceCents`/`maxPriceCents`, the price for `partySize`), `species`, text `q`.',
        querystring: ListingsQuery,
        response: { 200: { ...Type.Array(listingRef), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.searchListings(ctx, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/charter/listings/:id',
    {
      schema: {
        tags,
        operationId: 'getCharterListing',
        summary: 'One charter listing',
        description: 'A deactivated listing only for its captain and admins (403 for others); likewise a listing whose captain\'s account deletion is pending (403 `charters.listing_not_visible`) until they cancel. `bookable` is false with a `notice` while the captain\'s licence has expired.',
        params: IdParams,
        response: { 200: listingRef, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.getListing(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/api/charter/listings',
    {
      preValidation: legacyPoint('latitude', 'longitude'),
      schema: {
        tags,
        operationId: 'createCharterListing',
        summary: 'Publish a charter listing',
        description: 'Verified charter captains only: anyone else gets a 403 saying how to become one. An OUPV captain\'s trips take at most 6 passengers.',
        body: ListingBody,
        response: { 201: listingRef, ...errorResponses(403) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createListing(ctx, principalOf(request), request.body)),
  );

  app.put(
    '/api/charter/listings/:id',
    {
      preValidation: legacyPoint('latitude', 'longitude'),
      schema: { tags, operationId: 'replaceCharterListing', summary: 'Replace a listing', description: 'Its captain only. Sets every field (omitted optional fields take their defaults). Bookings already made keep the price and policy they were made with.', params: IdParams, body: ListingBody, response: { 200: listingRef, ...errorResponses(400, 403, 404) } },
    },
    async (request) => service.updateListing(ctx, principalOf(request), request.params.id, { replace: request.body }),
  );

  app.patch(
    '/api/charter/listings/:id',
    {
      preValidation: legacyPoint('latitude', 'longitude'),
      schema: {
        tags,
        operationId: 'updateCharterListing',
        summary: 'Change some fields of a listing',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): only the fields sent change (`tripTypes`, an array, is replaced whole); `null` clears an optional field (`targetSpecies`, `included`; `currency` returns to USD) and is a 400 naming a required one. ' +
          'Its captain only. Bookings already made keep their price and policy.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: mergePatchSchema(ListingBody, { examples: [{ depositPercent: 25, instantBook: true, included: null }] }),
        response: { 200: listingRef, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.updateListing(ctx, principalOf(request), request.params.id, { patch: request.body }),
  );

  for (const active of [false, true]) {
    app.post(
      `/api/charter/listings/:id/${active ? 'reactivate' : 'deactivate'}`,
      {
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          operationId: active ? 'reactivateCharterListing' : 'deactivateCharterListing',
          summary: active ? 'Reactivate your listing' : 'Deactivate your listing (never deleted)',
          description: 'Its captain only. A deactivated listing leaves the search and takes no bookings; existing bookings stand.',
          params: IdParams,
          body: ReviewBody,
          response: { 200: listingRef, ...errorResponses(403, 404, 409) },
        },
      },
      async (request) => service.setListingActive(ctx, principalOf(request), auditContextOf(request), request.params.id, active, request.body.reason),
    );
  }

  app.post(
    '/api/charter/listings/:id/slots',
    {
      schema: {
        tags,
        operationId: 'addCharterSlots',
        summary: 'Add bookable start times',
        description: "Its captain only. Local date-times in the listing's time zone; a time already there is kept once. Answers the slots in that range.",
        params: IdParams,
        body: SlotsBody,
        response: { 201: Type.Array(Slot), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addSlots(ctx, principalOf(request), request.params.id, request.body.startsAt)),
  );

  app.get(
    '/api/charter/listings/:id/slots',
    {
      schema: {
        tags,
        operationId: 'listCharterSlots',
        summary: 'Availability of a listing',
        description: 'Slots from `from` (default: now) to `to` (default: a year), with their local time and offset; `booked` slots cannot be booked.',
        params: IdParams,
        querystring: SlotsQuery,
        response: { 200: Type.Array(Slot), ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      service.listSlots(ctx, principalOf(request), request.params.id, {
        ...(request.query.from ? { from: new Date(`${request.query.from}T00:00:00Z`) } : {}),
        ...(request.query.to ? { to: new Date(`${request.query.to}T23:59:59Z`) } : {}),
      }),
  );

  app.post(
    '/api/charter/listings/:listingId/book',
    {
      schema: {
        tags,
        operationId: 'bookCharterTrip',
        summary: 'Book a trip',
        description:
          'A free slot, a trip type and the party size. The price and policy in force are copied into the booking. The deposit (if the listing takes one) is charged at once: a declined card answers 402 and frees the slot. ' +
          'Instant-book listings answer Confirmed, others Pending (the captain has 24 h). A slot booked by someone else, your own listing and a deactivated listing are 409s. Send an `Idempotency-Key`.',
        params: ListingIdParams,
        headers: IdempotencyHeaders,
        body: BookBody,
        response: { 201: bookingRef, ...errorResponses(402, 403, 404, 409, 422) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.book(ctx, principalOf(request), auditContextOf(request), request.params.listingId, request.body, request.headers['idempotency-key'] as string | undefined)),
  );

  app.get(
    '/api/charter/bookings',
    {
      schema: {
        tags,
        operationId: 'listCharterBookings',
        summary: 'Your bookings',
        description: '`as=customer` (default): trips you booked; `as=captain`: bookings of your listings. Filters: state, listingId. Soonest trip first.',
        querystring: BookingsQuery,
        response: { 200: { ...Type.Array(bookingRef), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listBookings(ctx, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/charter/bookings/:id',
    {
      schema: { tags, operationId: 'getCharterBooking', summary: 'One booking', description: 'Its customer and the listing\'s captain only.', params: IdParams, response: { 200: bookingRef, ...errorResponses(403, 404) } },
    },
    async (request) => service.getBooking(ctx, principalOf(request), request.params.id),
  );

  const actions = [
    { path: 'accept', operationId: 'acceptCharterBooking', summary: 'Accept a pending booking (captain)', body: undefined, change: () => ({ action: 'accept' as const }) },
    { path: 'decline', operationId: 'declineCharterBooking', summary: 'Decline a pending booking (captain; full refund)', body: RequiredReasonBody, change: (reason: string) => ({ action: 'decline' as const, reason }) },
    {
      path: 'cancel-for-weather',
      operationId: 'cancelCharterBookingForWeather',
      summary: 'Cancel for weather (captain; full refund)',
      body: RequiredReasonBody,
      change: (reason: string) => ({ action: 'cancel' as const, by: 'weather' as const, reason }),
    },
    {
      path: 'cancel',
      operationId: 'cancelCharterBooking',
      summary: 'Cancel a booking (customer or captain)',
      body: RequiredReasonBody,
      change: (reason: string) => ({ action: 'cancel' as const, by: 'customer' as const, reason }),
    },
  ];
  for (const action of actions) {
    app.post(
      `/api/charter/bookings/:id/${action.path}`,
      {
        schema: {
          tags,
          operationId: action.operationId,
          summary: action.summary,
          description:
            action.path === 'cancel'
              ? 'The customer: a full refund of the deposit until the free-cancellation deadline of the policy stored with the booking, then its late-cancellation share. The captain: a full refund. The booking ends Canceled with who and why.'
              : 'The listing\'s captain only. Refunds go through the payments service and are audit-logged.',
          params: IdParams,
          ...(action.body ? { body: action.body } : {}),
          response: { 200: bookingRef, ...errorResponses(403, 404, 409) },
        },
      },
      async (request) => service.transition(ctx, principalOf(request), auditContextOf(request), request.params.id, action.change((request.body as { reason?: string } | undefined)?.reason ?? '')),
    );
  }
};
