import type { DbOrTx } from '../../core/db/client.js';
import { notify } from '../../core/notifications/outbox.js';
import * as organizersRepo from './organizers.repository.js';
import * as registrationsRepo from './registrations.repository.js';

/** What organizers and anglers are told of tournaments, in the transaction of the change. */

export const tournamentPath = (id: string) => `/api/tournament/${id}`;
export const registrationPath = (tournamentId: string, registrationId: string) => `/api/tournament/${tournamentId}/registrations/${registrationId}`;

/** The registration's path, for the payments service (refunds of entry fees). */
export async function registrationPathById(db: DbOrTx, registrationId: string): Promise<string | undefined> {
  const row = await registrationsRepo.registrationById(db, registrationId);
  return row && registrationPath(row.tournamentId, registrationId);
}

const DECISIONS = {
  approved: { type: 'tournaments.approved', title: 'Tournament approved', says: 'was approved: it is listed and open for registration' },
  rejected: { type: 'tournaments.rejected', title: 'Tournament rejected', says: 'was rejected' },
  suspended: { type: 'tournaments.suspended', title: 'Tournament suspended', says: 'was suspended' },
} as const;

/** Tells the organizer an administrator's decision on their tournament (approve, reject, suspend). */
export async function notifyTournamentDecision(tx: DbOrTx, tournament: { id: string; name: string; organizerId: string }, verb: string, status: string, reason: string): Promise<void> {
  const decision = DECISIONS[verb as keyof typeof DECISIONS];
  const organizer = decision && (await organizersRepo.findOrganizer(tx, tournament.organizerId));
  if (!decision || !organizer) return;
  await notify(tx, {
    type: decision.type,
    path: tournamentPath(tournament.id),
    payload: { id: tournament.id, name: tournament.name, status },
    recipients: [{ userId: organizer.userId, title: decision.title, body: `Your tournament "${tournament.name}" ${decision.says}${verb === 'approved' ? '.' : `: ${reason}.`}` }],
  });
}

/** Tells an organizer that their organizer profile was verified or suspended. */
export async function notifyOrganizerDecision(tx: DbOrTx, organizer: { id: string; userId: string; name: string }, verb: string, reason: string): Promise<void> {
  if (verb !== 'verified' && verb !== 'suspended') return;
  const verified = verb === 'verified';
  await notify(tx, {
    type: verified ? 'tournaments.organizer_verified' : 'tournaments.organizer_suspended',
    path: '/api/tournament/organizers/me',
    payload: { id: organizer.id, name: organizer.name, status: verified ? 'Verified' : 'Suspended' },
    recipients: [
      {
        userId: organizer.userId,
        title: verified ? 'Organizer verified' : 'Organizer suspended',
        body: verified ? `"${organizer.name}" is verified: you can create tournaments.` : `"${organizer.name}" is suspended: ${reason}. Registrations of your upcoming tournaments are closed.`,
      },
    ],
  });
}

/** Tells an angler their registration is confirmed (free, or its fee paid). */
export async function notifyRegistrationConfirmed(tx: DbOrTx, registrationId: string): Promise<void> {
  const row = await registrationsRepo.registrationById(tx, registrationId);
  if (!row) return;
  await notify(tx, {
    type: 'tournaments.registration_confirmed',
    path: registrationPath(row.tournamentId, registrationId),
    payload: { id: registrationId, tournamentId: row.tournamentId, status: 'Active' },
    recipients: [{ userId: row.userId, title: 'Registration confirmed', body: `You are registered for "${row.tournamentName}".` }],
  });
}

/** Tells every active registrant that the results are out. */
export async function notifyResultsPublished(tx: DbOrTx, tournament: { id: string; name: string }): Promise<void> {
  const registrants = await registrationsRepo.activeRegistrantIds(tx, tournament.id);
  await notify(tx, {
    type: 'tournaments.results_published',
    path: `/api/tournament/${tournament.id}/results`,
    payload: { id: tournament.id, name: tournament.name },
    recipients: registrants.map((userId) => ({ userId, title: 'Results published', body: `The official results of "${tournament.name}" are published.` })),
  });
}
