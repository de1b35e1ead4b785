import { sql } from 'drizzle-orm';
import type { PersonalData } from '../../core/personal-data.js';

/** What the tournaments module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const tournamentsPersonalData: PersonalData = {
  module: 'tournaments',
  columns: [
    { table: 'tournament_catches', column: 'user_id', action: 'keep', reason: 'Tournament catches and results: kept so other people\'s standings and published results do not change; the angler shows as a former angler.' },
    { table: 'tournament_registrations', column: 'user_id', action: 'keep', reason: 'Registrations of kept results (and their fees, for accounting); the angler name they registered under becomes "Former angler".' },
    { table: 'tournament_fee_payments', column: 'user_id', action: 'keep', reason: 'Entry fees paid: financial records kept for accounting, detached from the person.' },
    { table: 'tournament_judges', column: 'user_id', action: 'keep', reason: 'Judging assignments: who judged the kept results.' },
    { table: 'tournament_organizers', column: 'user_id', action: 'keep', reason: 'An organizer profile: its tournaments and their results are others\' too. Its contact e-mail is cleared.' },
    { table: 'tournaments', column: 'owner_id', action: 'keep', reason: 'Tournaments the person created: kept with their results (other anglers\' standings).' },
  ],
  async erase(tx, userId) {
    // Standings name the angler by the name they registered under: a former angler from now on.
    await tx.execute(sql`UPDATE tournament_registrations SET angler_name = 'Former angler' WHERE user_id = ${userId}`);
    await tx.execute(sql`UPDATE tournament_organizers SET contact_email = 'erased@invalid', updated_at = now() WHERE user_id = ${userId}`);
  },
};
