import { AppError } from '../../core/http/problem.js';

const HOW_TO_BECOME = 'Apply as a charter captain at POST /api/charter/captains with your USCG licence (OUPV or Master: number and expiry), vessel and insurance; an admin verifies it, then you can publish listings.';

export const CharterErrors = {
  notACaptain: () => new AppError(403, 'charters.not_a_captain', `Only charter captains can create listings. ${HOW_TO_BECOME}`),
  captainNotVerified: (status: string) =>
    new AppError(403, 'charters.captain_not_verified', `Your captain application is ${status}; listings can be published once an admin has verified it. ${status === 'Rejected' ? HOW_TO_BECOME : 'Wait for the verification.'}`),
  captainNotFound: (id: string) => new AppError(404, 'charters.captain_not_found', `User ${id} has not applied as a charter captain.`),
  noApplication: () => new AppError(404, 'charters.captain_not_found', `You have not applied as a charter captain. ${HOW_TO_BECOME}`),
  licenceExpired: (on: string) =>
    new AppError(409, 'charters.captain_licence_expired', `The captain's licence expired on ${on}; the listing takes no new bookings until the captain renews it.`),
  alreadyReviewed: (status: string) => new AppError(409, 'charters.captain_already_reviewed', `The application is already ${status}; the captain re-applies to have it reviewed again.`),
  listingNotFound: (id: string) => new AppError(404, 'charters.listing_not_found', `No charter listing has id ${id}. Search listings at GET /api/charter/listings.`),
  bookingNotFound: (id: string) => new AppError(404, 'charters.booking_not_found', `No booking has id ${id}. Your bookings are at GET /api/charter/bookings.`),
  slotNotFound: (id: string) => new AppError(404, 'charters.slot_not_found', `The listing has no slot ${id}; see its availability at GET /api/charter/listings/{id}/slots.`),
  tripTypeNotFound: (id: string) =>
    new AppError(400, 'charters.trip_type_not_found', `The listing offers no trip type ${id}.`, { errors: [{ pointer: '/tripTypeId', in: 'body', detail: 'is not a trip type of the listing' }] }),
  slotTaken: () => new AppError(409, 'charters.slot_taken', 'This slot has just been booked by someone else; pick another date or time.'),
  slotPast: () => new AppError(409, 'charters.slot_past', 'This slot has already started; pick a future date or time.'),
  partyTooLarge: (max: number) =>
    new AppError(400, 'charters.party_too_large', `This trip takes at most ${max} passengers.`, { errors: [{ pointer: '/partySize', in: 'body', detail: `must be at most ${max}` }] }),
  oupvLimit: (index: number) =>
    new AppError(400, 'charters.oupv_party_limit', 'An OUPV ("six-pack") licence allows at most 6 passengers; lower maxPartySize or verify a Master licence.', {
      errors: [{ pointer: `/tripTypes/${index}/maxPartySize`, in: 'body', detail: 'must be at most 6 for an OUPV captain' }],
    }),
  badTimeZone: (zone: string) =>
    new AppError(400, 'charters.invalid_time_zone', `${zone} is not an IANA time zone; use e.g. America/New_York.`, { errors: [{ pointer: '/timeZone', in: 'body', detail: 'is not an IANA time zone' }] }),
  paymentDeclined: (paymentId: string, reason: string) =>
    new AppError(402, 'charters.payment_declined', `The deposit payment ${paymentId} was declined (${reason}); the booking was not made. Use another card and book again.`),
  paymentMethodRequired: () =>
    new AppError(400, 'charters.payment_method_required', 'This listing takes a deposit: send paymentMethod (a card number or payment method id).', {
      errors: [{ pointer: '/paymentMethod', in: 'body', detail: 'is required for a listing with a deposit' }],
    }),
  badTransition: (state: string, action: string) => new AppError(409, 'charters.invalid_state', `A ${state} booking cannot be ${action}.`),
  alreadyInState: (active: boolean) => new AppError(409, active ? 'charters.listing_already_active' : 'charters.listing_already_inactive', `The listing is already ${active ? 'active' : 'deactivated'}.`),
};
