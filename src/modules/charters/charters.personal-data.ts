import { sql } from 'drizzle-orm';
import type { PersonalData } from '../../core/personal-data.js';

/** What the charters module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const chartersPersonalData: PersonalData = {
  module: 'charters',
  columns: [
    { table: 'charter_bookings', column: 'customer_id', action: 'keep', reason: 'Charter bookings: kept for accounting with their payments; the customer shows as a former angler, with no name or e-mail.' },
    { table: 'charter_bookings', column: 'captain_id', action: 'keep', reason: 'Bookings of the captain\'s trips: the customers\' records and payments.' },
    { table: 'charter_captains', column: 'user_id', action: 'keep', reason: 'The captain record of kept bookings. Its licence, vessel registration and insurance numbers are cleared and its listings deactivated.' },
  ],
  async erase(tx, userId) {
    await tx.execute(sql`UPDATE charter_captains SET licence_number = 'erased', vessel_registration = 'erased', insurance_carrier = 'erased', insurance_policy_number = 'erased', updated_at = now() WHERE user_id = ${userId}`);
    await tx.execute(sql`UPDATE charter_listings SET is_active = false, deactivated_at = COALESCE(deactivated_at, now()), deactivation_reason = COALESCE(deactivation_reason, 'The captain''s account was erased'), updated_at = now() WHERE captain_id IN (SELECT id FROM charter_captains WHERE user_id = ${userId}) AND is_active`);
  },
};
