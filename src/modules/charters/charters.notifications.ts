import type { DbOrTx } from '../../core/db/client.js';
import { notify, type NotificationType } from '../../core/notifications/outbox.js';
import type { BookingRow } from './charters.tables.js';
import { formatInZone } from './charters.time.js';

/**
 * What the parties of a booking are told, written in the transaction of the change. Texts carry
 * only what the recipient sees in the booking itself (the listing, the date, the party size,
 * a decision's reason), never the other party's name.
 */

export const bookingPath = (id: string) => `/api/charter/bookings/${id}`;

type BookingNotice = Extract<NotificationType, `charters.booking_${string}`>;

function text(type: BookingNotice, booking: BookingRow, listingTitle: string): { title: string; body: string } {
  const trip = `"${listingTitle}" on ${formatInZone(booking.startsAt, booking.timeZone).slice(0, 16).replace('T', ' ')}`;
  switch (type) {
    case 'charters.booking_requested':
      return booking.state === 'Confirmed'
        ? { title: 'New booking', body: `A party of ${booking.partySize} booked ${trip} (instant book: confirmed).` }
        : { title: 'New booking request', body: `A party of ${booking.partySize} asked to book ${trip}. Accept or decline it within 24 hours.` };
    case 'charters.booking_accepted':
      return { title: 'Booking accepted', body: `Your booking of ${trip} was accepted by the captain.` };
    case 'charters.booking_declined':
      return { title: 'Booking declined', body: `Your booking of ${trip} was declined: ${booking.declineReason}. A deposit paid is refunded in full.` };
    case 'charters.booking_auto_declined':
      return { title: 'Booking not accepted in time', body: `The captain did not accept your booking of ${trip} within 24 hours, so it is declined. A deposit paid is refunded in full.` };
    case 'charters.booking_weather_canceled':
      return { title: 'Trip canceled for the weather', body: `The captain canceled ${trip} for the weather: ${booking.cancelReason}. A deposit paid is refunded in full.` };
    case 'charters.booking_canceled':
      return { title: 'Booking canceled', body: `The booking of ${trip} was canceled by the ${booking.canceledBy}: ${booking.cancelReason}.` };
  }
}

/** Tells `recipient` ('customer' or 'captain') about a booking's change. */
export async function notifyBooking(tx: DbOrTx, type: BookingNotice, booking: BookingRow, listingTitle: string, recipient: 'customer' | 'captain'): Promise<void> {
  await notify(tx, {
    type,
    path: bookingPath(booking.id),
    payload: { id: booking.id, listingId: booking.listingId, state: booking.state, startsAt: booking.startsAt.toISOString(), partySize: booking.partySize },
    recipients: [{ userId: recipient === 'customer' ? booking.customerId : booking.captainId, ...text(type, booking, listingTitle) }],
  });
}

/** Tells an applicant the verdict on their captain application. */
export async function notifyCaptainReview(tx: DbOrTx, userId: string, verdict: 'Verified' | 'Rejected', reason: string | undefined): Promise<void> {
  const verified = verdict === 'Verified';
  await notify(tx, {
    type: verified ? 'charters.captain_verified' : 'charters.captain_rejected',
    path: '/api/charter/captains/me',
    payload: { userId, status: verdict },
    recipients: [
      {
        userId,
        title: verified ? 'Captain application verified' : 'Captain application rejected',
        body: verified ? 'Your captain application was verified: you can publish charter listings.' : `Your captain application was rejected${reason ? `: ${reason}` : ''}. You can apply again.`,
      },
    ],
  });
}
