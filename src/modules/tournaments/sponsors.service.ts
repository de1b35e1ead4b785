import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { Viewer } from '../../core/access/policy.js';
import { TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import type { SponsorRow, SponsorTier } from './tournaments.tables.js';
import type { SponsorInput } from './sponsors.schemas.js';
import * as organizersRepo from './organizers.repository.js';
import * as repo from './sponsors.repository.js';
import { authorizedTournament, lockAuthorizedTournament as lockAuthorized } from './tournaments.service.js';

/** Sponsors of a tournament, within the per-tournament limits. */

function sponsorView(row: SponsorRow) {
  return { id: row.id, name: row.name, tier: row.tier, amountCents: row.amountCents, website: row.website, logoUrl: row.logoUrl, createdAt: row.createdAt.toISOString() };
}

/** Most sponsors per tier and in all, and the most sponsorship money, per tournament. */
export const SPONSOR_LIMITS: { perTier: Record<SponsorTier, number>; total: number; amountCents: number } = {
  perTier: { Title: 1, Gold: 3, Silver: 5, Bronze: 10, Supporter: 25 },
  total: 30,
  amountCents: 10_000_000,
};

export async function listSponsors(deps: ServiceDeps, viewer: Viewer, tournamentId: string) {
  const { db } = deps;
  await authorizedTournament(deps, viewer, tournamentId, 'view');
  return (await repo.listSponsors(db, tournamentId)).map(sponsorView);
}

export async function addSponsor(deps: ServiceDeps, viewer: Viewer, tournamentId: string, input: SponsorInput) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const t = await lockAuthorized(inTx(deps, tx), viewer, tournamentId, 'manage');
    const organizer = await organizersRepo.findOrganizer(tx, t.organizerId);
    if (organizer?.status !== 'Verified') {
      throw TournamentErrors.sponsorNotAllowed(`Sponsors need a verified organizer in good standing; your organizer profile is ${organizer?.status ?? 'missing'}.`);
    }
    if (t.status === 'Rejected' || t.status === 'Suspended' || t.status === 'Completed') {
      throw TournamentErrors.sponsorsClosed(t.status);
    }
    const amount = input.amountCents ?? 0;
    const totals = await repo.sponsorTotals(tx, tournamentId);
    const inTier = totals.byTier.get(input.tier) ?? 0;
    if (inTier >= SPONSOR_LIMITS.perTier[input.tier]) throw TournamentErrors.sponsorLimit(`At most ${SPONSOR_LIMITS.perTier[input.tier]} ${input.tier} sponsor(s) per tournament.`);
    if (totals.count >= SPONSOR_LIMITS.total) throw TournamentErrors.sponsorLimit(`At most ${SPONSOR_LIMITS.total} sponsors per tournament.`);
    if (totals.amountCents + amount > SPONSOR_LIMITS.amountCents) {
      throw TournamentErrors.sponsorLimit(`Sponsorship per tournament is limited to ${SPONSOR_LIMITS.amountCents} cents; ${SPONSOR_LIMITS.amountCents - totals.amountCents} cents remain.`);
    }
    try {
      const row = await repo.insertSponsor(tx, {
        id: uuidv7(),
        tournamentId,
        name: input.name.trim(),
        tier: input.tier,
        amountCents: amount,
        website: input.website ?? null,
        logoUrl: input.logoUrl ?? null,
        createdBy: viewer.userId,
      });
      return sponsorView(row);
    } catch (error) {
      if (uniqueViolation(error) !== undefined) throw TournamentErrors.duplicateSponsor(input.name);
      throw error;
    }
  });
}
