import type { ServiceDeps } from '../../core/service-deps.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { CaptainRow } from './charters.tables.js';

/** What the charters' services work with: the database, the payments service and the clock. */
export interface ChartersDeps extends ServiceDeps {
  payments: PaymentsService;
  now?: () => Date;
}

export const ACCEPT_WITHIN_MS = 24 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

export const today = (now: Date) => now.toISOString().slice(0, 10);
/** A captain whose licence is in force: verified and not expired (a day of the UTC calendar). */
export const licenceValid = (captain: CaptainRow, now: Date) => captain.status === 'Verified' && captain.licenceExpiresOn >= today(now);
