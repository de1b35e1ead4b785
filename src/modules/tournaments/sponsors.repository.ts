import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { tournamentSponsors, type SponsorTier } from './tournaments.tables.js';
import { count } from './tournaments.repository.js';

/** SQL of tournament sponsors; no rules. */

export async function listSponsors(db: DbOrTx, tournamentId: string) {
  return db
    .select()
    .from(tournamentSponsors)
    .where(eq(tournamentSponsors.tournamentId, tournamentId))
    .orderBy(sql`array_position(ARRAY['Title','Gold','Silver','Bronze','Supporter'], ${tournamentSponsors.tier})`, desc(tournamentSponsors.amountCents), asc(tournamentSponsors.name));
}

export async function sponsorTotals(db: DbOrTx, tournamentId: string): Promise<{ byTier: Map<SponsorTier, number>; count: number; amountCents: number }> {
  const rows = await db
    .select({ tier: tournamentSponsors.tier, n: count, amount: sql<number>`coalesce(sum(${tournamentSponsors.amountCents}), 0)::int` })
    .from(tournamentSponsors)
    .where(eq(tournamentSponsors.tournamentId, tournamentId))
    .groupBy(tournamentSponsors.tier);
  return {
    byTier: new Map(rows.map((r) => [r.tier, r.n])),
    count: rows.reduce((s, r) => s + r.n, 0),
    amountCents: rows.reduce((s, r) => s + r.amount, 0),
  };
}

export async function insertSponsor(db: DbOrTx, row: typeof tournamentSponsors.$inferInsert) {
  const [inserted] = await db.insert(tournamentSponsors).values(row).returning();
  return inserted!;
}
