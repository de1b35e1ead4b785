import { sql } from 'drizzle-orm';
import type { PersonalData } from '../../core/personal-data.js';

/** What the spots module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const spotsPersonalData: PersonalData = {
  module: 'spots',
  columns: [
    { table: 'spot_ratings', column: 'user_id', action: 'delete', reason: 'Ratings given (the spots\' summaries are computed from the rest).' },
    { table: 'spot_confirmations', column: 'user_id', action: 'delete', reason: 'Confirmations given.' },
    { table: 'spots', column: 'owner_id', action: 'delete', reason: 'Spots the person created. Those other anglers rated or confirmed are detached first (owner set to null, kept as community spots like the reference ones: others\' ratings and confirmations are theirs); the others are deleted.' },
  ],
  async erase(tx, userId) {
    await tx.execute(sql`UPDATE spots s SET owner_id = NULL, updated_at = now() WHERE s.owner_id = ${userId} AND (EXISTS (SELECT 1 FROM spot_ratings r WHERE r.spot_id = s.id AND r.user_id <> ${userId}) OR EXISTS (SELECT 1 FROM spot_confirmations c WHERE c.spot_id = s.id AND c.user_id <> ${userId}))`);
  },
};
