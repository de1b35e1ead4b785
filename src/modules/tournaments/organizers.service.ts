import type { ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import { TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import type { OrganizerRow } from './tournaments.tables.js';
import type { ApplyOrganizerInput } from './organizers.schemas.js';
import * as repo from './organizers.repository.js';

/** Organizer applications: an angler applies, an administrator verifies (tournaments.admin.service.ts). */

export function organizerView(row: OrganizerRow) {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    website: row.website,
    takesPayments: row.takesPayments,
    paymentsAllowed: row.paymentsAllowed,
    status: row.status,
    statusReason: row.statusReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function applyAsOrganizer(deps: ServiceDeps, userId: string, input: ApplyOrganizerInput) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await repo.findOrganizerByUser(tx, userId, true);
    const values = {
      name: input.name,
      contactEmail: input.contactEmail,
      contactPhone: input.contactPhone ?? null,
      website: input.website ?? null,
      takesPayments: input.takesPayments ?? false,
      paymentsAllowed: false,
      status: 'Pending' as const,
      statusReason: null,
      reviewedBy: null,
      reviewedAt: null,
    };
    if (current) {
      if (current.status !== 'Rejected') throw TournamentErrors.alreadyApplied(current.status);
      return organizerView(await repo.updateOrganizer(tx, current.id, values));
    }
    try {
      return organizerView(await repo.insertOrganizer(tx, { id: uuidv7(), userId, ...values }));
    } catch (error) {
      if (uniqueViolation(error) !== undefined) throw TournamentErrors.alreadyApplied('Pending');
      throw error;
    }
  });
}

export async function ownOrganizer(deps: ServiceDeps<DbOrTx>, userId: string) {
  const { db } = deps;
  const row = await repo.findOrganizerByUser(db, userId);
  if (!row) throw TournamentErrors.noOrganizerProfile();
  return organizerView(row);
}
export async function verifiedOrganizer(deps: ServiceDeps<DbOrTx>, userId: string): Promise<OrganizerRow> {
  const { db } = deps;
  const organizer = await repo.findOrganizerByUser(db, userId);
  if (!organizer || organizer.status !== 'Verified') throw TournamentErrors.notVerifiedOrganizer(organizer?.status ?? null);
  return organizer;
}
