import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { tournamentPolicy } from '../../core/access/policies/tournaments.js';
import { isOwner, type Viewer } from '../../core/access/policy.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { catchRef } from '../fishing-log/entries.service.js';
import { foreignKeyViolation, TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import type { DivisionRow, TournamentCatchRow, TournamentCatchStatus, TournamentRow } from './tournaments.tables.js';
import type { JudgeInput, SubmitCatchInput } from './judging.schemas.js';
import * as tournamentsRepo from './tournaments.repository.js';
import * as registrationsRepo from './registrations.repository.js';
import * as repo from './judging.repository.js';
import { accessRecord, authorizedTournament, iso, lockAuthorizedTournament as lockAuthorized, lockAuthorizedTournament, toHundredthsLb, toQuarterInches } from './tournaments.service.js';

/** Catch submissions and their judging, and the judges the organizer names. */

function submissionView(row: TournamentCatchRow, anglerName: string) {
  return {
    id: row.id,
    tournamentId: row.tournamentId,
    divisionId: row.divisionId,
    registrationId: row.registrationId,
    anglerName,
    speciesId: row.speciesId,
    lengthInches: row.lengthQuarterInches === null ? null : row.lengthQuarterInches / 4,
    weightLb: row.weightHundredthsLb === null ? null : row.weightHundredthsLb / 100,
    photoUrl: row.photoUrl,
    photoHash: row.photoHash,
    capturedAt: row.capturedAt.toISOString(),
    fishingLogCatchId: row.fishingLogCatchId,
    status: row.status,
    rejectionReason: row.rejectionReason,
    judgedAt: iso(row.judgedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

type CatchMeasures = Pick<SubmitCatchInput, 'speciesId' | 'lengthInches' | 'weightLb' | 'photoUrl' | 'photoHash' | 'capturedAt'>;

/** Validates a catch against the tournament and division rules; the stored values. */
export function catchValues(t: TournamentRow, division: DivisionRow, input: CatchMeasures, now: Date, requirePhoto: boolean) {
  if (!division.speciesIds.includes(input.speciesId)) throw TournamentErrors.wrongSpecies();
  const capturedAt = new Date(input.capturedAt);
  if (capturedAt < t.startsAt || capturedAt > t.endsAt || capturedAt > now) throw TournamentErrors.outsideWindow();
  const length = input.lengthInches === undefined ? null : toQuarterInches(input.lengthInches);
  const weight = input.weightLb === undefined ? null : toHundredthsLb(input.weightLb);
  if (division.measure === 'length' && (length === null || length === 0)) throw TournamentErrors.measureMissing('/lengthInches', 'length');
  if (division.measure === 'weight' && (weight === null || weight === 0)) throw TournamentErrors.measureMissing('/weightLb', 'weight');
  if (division.minLengthQuarterInches !== null) {
    if (length === null) throw TournamentErrors.measureMissing('/lengthInches', 'length (the division has a minimum length)');
    if (length < division.minLengthQuarterInches) throw TournamentErrors.belowMinimum(division.minLengthQuarterInches / 4);
  }
  if (requirePhoto && t.format === 'CPR' && (!input.photoUrl || !input.photoHash)) throw TournamentErrors.photoRequired();
  return {
    speciesId: input.speciesId,
    lengthQuarterInches: length,
    weightHundredthsLb: weight,
    score: division.measure === 'length' ? length! : weight!,
    photoUrl: input.photoUrl ?? null,
    photoHash: input.photoHash ?? null,
    capturedAt,
  };
}

export function assertAcceptsCatches(t: TournamentRow): void {
  if (t.resultsPublishedAt) throw TournamentErrors.resultsPublished();
  if (!['Approved', 'InProgress', 'Completed'].includes(t.status)) throw TournamentErrors.badTransition(t.status, 'receive catches');
}

export async function insertCatch(deps: ServiceDeps<DbOrTx>, row: Parameters<typeof repo.insertSubmission>[1]): Promise<TournamentCatchRow> {
  const { db: tx } = deps;
  try {
    return await repo.insertSubmission(tx, row);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'tournament_catches_photo_hash_key') throw TournamentErrors.duplicatePhoto();
    if (constraint === 'tournament_catches_log_catch_key') throw TournamentErrors.duplicateLogCatch();
    throw error;
  }
}

export async function divisionOf(deps: ServiceDeps<DbOrTx>, tournamentId: string, divisionId: string): Promise<DivisionRow> {
  const { db } = deps;
  const division = (await tournamentsRepo.divisionsOf(db, [tournamentId])).find((d) => d.id === divisionId);
  if (!division) throw TournamentErrors.unknownDivision(divisionId);
  return division;
}

export async function submitCatch(deps: ServiceDeps, viewer: Viewer, tournamentId: string, input: SubmitCatchInput, now = new Date()) {
  const { db } = deps;
  const { t } = await authorizedTournament(deps, viewer, tournamentId, 'view');
  assertAcceptsCatches(t);
  const division = await divisionOf(deps, tournamentId, input.divisionId);
  const registration = await registrationsRepo.findActiveRegistration(db, division.id, viewer.userId);
  if (!registration) throw TournamentErrors.notRegistered();
  const values = catchValues(t, division, input, now, true);
  if (input.fishingLogCatchId) {
    const ref = await catchRef(deps, input.fishingLogCatchId);
    if (!ref || !isOwner(viewer, ref)) throw TournamentErrors.badLogCatch();
  }
  const row = await insertCatch(deps, {
    id: uuidv7(),
    tournamentId,
    divisionId: division.id,
    registrationId: registration.id,
    userId: viewer.userId,
    fishingLogCatchId: input.fishingLogCatchId ?? null,
    ...values,
  });
  return submissionView(row, registration.anglerName);
}

async function mayJudge(deps: ServiceDeps<DbOrTx>, viewer: Viewer, t: TournamentRow): Promise<boolean> {
  return (await tournamentPolicy.can(viewer, 'judge', accessRecord(deps, t), deps)) === true;
}

export async function listCatches(
  deps: ServiceDeps,
  viewer: Viewer,
  tournamentId: string,
  filter: { status?: TournamentCatchStatus | undefined; divisionId?: string | undefined },
  page: Page,
) {
  const { db } = deps;
  const { t } = await authorizedTournament(deps, viewer, tournamentId, 'view');
  const all = await mayJudge(deps, viewer, t);
  const { items, total } = await repo.listSubmissions(db, tournamentId, { ...filter, userId: all ? undefined : viewer.userId }, page);
  return { items: items.map((r) => submissionView(r.c, r.anglerName)), total };
}

/** The organizer verifies or rejects a catch; a rejection and a changed decision need a reason. Audit-logged. */
export async function judgeCatch(deps: ServiceDeps, viewer: Viewer, context: AuditContext, tournamentId: string, catchId: string, input: JudgeInput, now = new Date()) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const t = await lockAuthorizedTournament(inTx(deps, tx), viewer, tournamentId, 'judge');
    const current = await repo.findSubmission(tx, tournamentId, catchId, true);
    if (!current) throw TournamentErrors.submissionNotFound(catchId);
    if (t.resultsPublishedAt) throw TournamentErrors.resultsPublished();
    if (current.status !== 'Pending' && !input.reason) throw TournamentErrors.alreadyJudged(current.status);
    if (input.decision === 'Rejected' && !input.reason) throw TournamentErrors.reasonRequired();
    const row = await repo.updateSubmission(tx, catchId, {
      status: input.decision,
      rejectionReason: input.decision === 'Rejected' ? input.reason! : null,
      judgedBy: viewer.userId,
      judgedAt: now,
    });
    await recordAudit(inTx(deps, tx), context, {
      action: 'tournaments.catch_judged',
      targetType: 'tournament_catch',
      targetId: catchId,
      reason: input.reason ?? null,
      before: { status: current.status },
      after: { status: row.status, tournamentId },
    });
    const registration = await registrationsRepo.findRegistration(tx, tournamentId, row.registrationId);
    return submissionView(row, registration!.anglerName);
  });
}
// ---------- judges ----------

function judgeView(row: { userId: string; createdAt: Date }) {
  return { userId: row.userId, createdAt: row.createdAt.toISOString() };
}

export async function listJudges(deps: ServiceDeps, viewer: Viewer, tournamentId: string) {
  const { db } = deps;
  await authorizedTournament(deps, viewer, tournamentId, 'judge');
  return (await repo.judgesOf(db, tournamentId)).map(judgeView);
}

/** The organizer names a judge: an existing user who is not registered in the tournament. */
export async function addJudge(deps: ServiceDeps, viewer: Viewer, tournamentId: string, userId: string) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const t = await lockAuthorized(inTx(deps, tx), viewer, tournamentId, 'manage');
    if (isOwner(viewer, { ownerId: userId })) throw TournamentErrors.badJudge('the organizer judges anyway');
    if (await tournamentsRepo.isRegistered(tx, t.id, userId)) throw TournamentErrors.judgeIsRegistered();
    try {
      await repo.insertJudge(tx, { tournamentId, userId, createdBy: viewer.userId });
    } catch (error) {
      if (foreignKeyViolation(error)) throw TournamentErrors.badJudge('no user has this id');
      throw error;
    }
    return (await repo.judgesOf(tx, tournamentId)).map(judgeView);
  });
}
