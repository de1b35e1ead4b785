/**
 * The charters' services, one file per area (captains, listings and availability, bookings); this
 * file is the module's public service file for the routes and for other modules.
 */
export { ACCEPT_WITHIN_MS, type ChartersDeps } from './charters.deps.js';
export * from './captains.service.js';
export * from './listings.service.js';
export * from './bookings.service.js';
export { bookingPath } from './charters.notifications.js';
