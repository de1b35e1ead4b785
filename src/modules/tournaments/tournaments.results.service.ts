import { uuidv7 } from '../../core/db/ids.js';
import { tournamentPolicy } from '../../core/access/policies/tournaments.js';
import { isOwner, type Viewer } from '../../core/access/policy.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notifyResultsPublished } from './tournaments.notifications.js';
import type { Db, DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { catchRef } from '../fishing-log/entries.service.js';
import { TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import * as repo from './tournaments.repository.js';
import type { AddResultInput, JudgeInput, SubmitCatchInput } from './tournaments.schemas.js';
import { accessRecord, authorizedTournament, fromScore, lockAuthorizedTournament, toHundredthsLb, toQuarterInches, unitOf } from './tournaments.service.js';
import type { DivisionRow, RegistrationRow, TournamentCatchRow, TournamentCatchStatus, TournamentRow } from './tournaments.tables.js';
import { TieBreakEnum } from './tournaments.schemas.js';

/** Catch submissions and their judging, the leaderboard, the official results and the CSV exports. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
function catchValues(t: TournamentRow, division: DivisionRow, input: CatchMeasures, now: Date, requirePhoto: boolean) {
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

function assertAcceptsCatches(t: TournamentRow): void {
  if (t.resultsPublishedAt) throw TournamentErrors.resultsPublished();
  if (!['Approved', 'InProgress', 'Completed'].includes(t.status)) throw TournamentErrors.badTransition(t.status, 'receive catches');
}

async function insertCatch(tx: DbOrTx, row: Parameters<typeof repo.insertSubmission>[1]): Promise<TournamentCatchRow> {
  try {
    return await repo.insertSubmission(tx, row);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'tournament_catches_photo_hash_key') throw TournamentErrors.duplicatePhoto();
    if (constraint === 'tournament_catches_log_catch_key') throw TournamentErrors.duplicateLogCatch();
    throw error;
  }
}

async function divisionOf(db: DbOrTx, tournamentId: string, divisionId: string): Promise<DivisionRow> {
  const division = (await repo.divisionsOf(db, [tournamentId])).find((d) => d.id === divisionId);
  if (!division) throw TournamentErrors.unknownDivision(divisionId);
  return division;
}

export async function submitCatch(db: Db, viewer: Viewer, tournamentId: string, input: SubmitCatchInput, now = new Date()) {
  const { t } = await authorizedTournament(db, viewer, tournamentId, 'view');
  assertAcceptsCatches(t);
  const division = await divisionOf(db, tournamentId, input.divisionId);
  const registration = await repo.findActiveRegistration(db, division.id, viewer.userId);
  if (!registration) throw TournamentErrors.notRegistered();
  const values = catchValues(t, division, input, now, true);
  if (input.fishingLogCatchId) {
    const ref = await catchRef(db, input.fishingLogCatchId);
    if (!ref || !isOwner(viewer, ref)) throw TournamentErrors.badLogCatch();
  }
  const row = await insertCatch(db, {
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

async function mayJudge(db: DbOrTx, viewer: Viewer, t: TournamentRow): Promise<boolean> {
  return (await tournamentPolicy.can(viewer, 'judge', accessRecord(db, t), { db })) === true;
}

export async function listCatches(
  db: Db,
  viewer: Viewer,
  tournamentId: string,
  filter: { status?: TournamentCatchStatus | undefined; divisionId?: string | undefined },
  page: Page,
) {
  const { t } = await authorizedTournament(db, viewer, tournamentId, 'view');
  const all = await mayJudge(db, viewer, t);
  const { items, total } = await repo.listSubmissions(db, tournamentId, { ...filter, userId: all ? undefined : viewer.userId }, page);
  return { items: items.map((r) => submissionView(r.c, r.anglerName)), total };
}

/** The organizer verifies or rejects a catch; a rejection and a changed decision need a reason. Audit-logged. */
export async function judgeCatch(db: Db, viewer: Viewer, context: AuditContext, tournamentId: string, catchId: string, input: JudgeInput, now = new Date()) {
  return db.transaction(async (tx) => {
    const t = await lockAuthorizedTournament(tx, viewer, tournamentId, 'judge');
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
    await recordAudit(tx, context, {
      action: 'tournaments.catch_judged',
      targetType: 'tournament_catch',
      targetId: catchId,
      reason: input.reason ?? null,
      before: { status: current.status },
      after: { status: row.status, tournamentId },
    });
    const registration = await repo.findRegistration(tx, tournamentId, row.registrationId);
    return submissionView(row, registration!.anglerName);
  });
}

// ---------- leaderboard and results ----------

async function resultsView(db: DbOrTx, t: TournamentRow) {
  // One after the other: `db` may be a transaction (one connection).
  const divisions = await repo.divisionsOf(db, [t.id]);
  const board = await repo.leaderboard(db, t);
  const placings = await repo.resultsOf(db, t.id);
  return {
    tournamentId: t.id,
    status: t.status,
    resultsPublishedAt: iso(t.resultsPublishedAt),
    tieBreaks: t.tieBreaks.map((b) => TieBreakEnum.toApi(b)),
    divisions: divisions.map((d) => ({
      divisionId: d.id,
      name: d.name,
      unit: unitOf(d.measure),
      bestN: d.bestN,
      leaderboard: board
        .filter((r) => r.divisionId === d.id)
        .map((r) => ({
          rank: r.rank,
          registrationId: r.registrationId,
          anglerName: r.anglerName,
          total: fromScore(d.measure, r.total),
          penalties: fromScore(d.measure, r.penalties),
          biggest: fromScore(d.measure, r.biggest),
          lastCountedAt: r.lastCountedAt.toISOString(),
          countedCatches: r.counted.map((c) => ({ id: c.id, speciesId: c.speciesId, measure: fromScore(d.measure, c.score), capturedAt: new Date(c.capturedAt).toISOString() })),
        })),
      placings: placings
        .filter((p) => p.r.divisionId === d.id)
        .map((p) => ({
          id: p.r.id,
          place: p.r.place,
          registrationId: p.r.registrationId,
          anglerName: p.anglerName,
          total: fromScore(d.measure, p.r.totalScore),
          payoutCents: p.r.payoutCents,
          note: p.r.note,
        })),
    })),
  };
}

export async function getResults(db: Db, viewer: Viewer, tournamentId: string) {
  const { t } = await authorizedTournament(db, viewer, tournamentId, 'view');
  return resultsView(db, t);
}

async function activeRegistration(tx: DbOrTx, tournamentId: string, registrationId: string): Promise<RegistrationRow> {
  const registration = await repo.findRegistration(tx, tournamentId, registrationId);
  if (!registration || registration.status !== 'Active') {
    throw TournamentErrors.badDivision('/registrationId', `no active registration of this tournament has id ${registrationId}`);
  }
  return registration;
}

/** POST /results: a catch judged at the scale, a penalty, one placing, or publishing every placing from the leaderboard. */
export async function addResult(db: Db, viewer: Viewer, context: AuditContext, tournamentId: string, input: AddResultInput, now = new Date()) {
  return db.transaction(async (tx) => {
    const t = await lockAuthorizedTournament(tx, viewer, tournamentId, 'manage');
    switch (input.kind) {
      case 'Catch':
      case 'catch': {
        assertAcceptsCatches(t);
        const registration = await activeRegistration(tx, tournamentId, input.registrationId);
        const division = await divisionOf(tx, tournamentId, registration.divisionId);
        const row = await insertCatch(tx, {
          id: uuidv7(),
          tournamentId,
          divisionId: division.id,
          registrationId: registration.id,
          userId: registration.userId,
          ...catchValues(t, division, input, now, false),
          status: 'Verified',
          judgedBy: viewer.userId,
          judgedAt: now,
        });
        await recordAudit(tx, context, { action: 'tournaments.catch_recorded', targetType: 'tournament_catch', targetId: row.id, after: { tournamentId, score: row.score } });
        break;
      }
      case 'Penalty':
      case 'penalty': {
        if (t.resultsPublishedAt) throw TournamentErrors.resultsPublished();
        const registration = await activeRegistration(tx, tournamentId, input.registrationId);
        const division = await divisionOf(tx, tournamentId, registration.divisionId);
        const rule = division.penaltyRules.find((r) => r.code === input.code);
        if (!rule) throw TournamentErrors.badDivision('/code', `the division has no penalty rule ${input.code}; its rules: ${division.penaltyRules.map((r) => r.code).join(', ') || 'none'}`);
        await repo.insertPenalty(tx, { id: uuidv7(), tournamentId, registrationId: registration.id, code: rule.code, points: rule.points, reason: input.reason, createdBy: viewer.userId });
        await recordAudit(tx, context, {
          action: 'tournaments.penalty_applied',
          targetType: 'tournament_registration',
          targetId: registration.id,
          reason: input.reason,
          after: { tournamentId, code: rule.code, points: rule.points },
        });
        break;
      }
      case 'Placing':
      case 'placing': {
        const division = await divisionOf(tx, tournamentId, input.divisionId);
        const registration = await activeRegistration(tx, tournamentId, input.registrationId);
        if (registration.divisionId !== division.id) throw TournamentErrors.badDivision('/registrationId', 'the registration is in another division');
        const board = (await repo.leaderboard(tx, t)).find((r) => r.registrationId === registration.id);
        const existing = await repo.findResultOfRegistration(tx, division.id, registration.id);
        const atPlace = await repo.findResultAtPlace(tx, division.id, input.place);
        if (atPlace && atPlace.registrationId !== registration.id) throw TournamentErrors.placeTaken(input.place);
        const values = { place: input.place, payoutCents: input.payoutCents ?? existing?.payoutCents ?? 0, note: input.note ?? null, totalScore: board?.total ?? 0 };
        if (existing) {
          if (!input.reason) throw TournamentErrors.reasonRequired();
          await repo.updateResult(tx, existing.id, values);
        } else {
          await repo.insertResults(tx, [{ id: uuidv7(), tournamentId, divisionId: division.id, registrationId: registration.id, ...values }]);
        }
        await recordAudit(tx, context, {
          action: existing ? 'tournaments.result_edited' : 'tournaments.result_added',
          targetType: 'tournament_registration',
          targetId: registration.id,
          reason: input.reason ?? null,
          before: existing ? { place: existing.place, payoutCents: existing.payoutCents, note: existing.note } : null,
          after: { tournamentId, ...values },
        });
        break;
      }
      case 'Publish':
      case 'publish': {
        if (now < t.endsAt) throw TournamentErrors.badTransition(t.status, `published before its end (${t.endsAt.toISOString()})`);
        if (t.resultsPublishedAt && !input.reason) throw TournamentErrors.reasonRequired();
        const removed = await repo.deleteResults(tx, tournamentId);
        const board = await repo.leaderboard(tx, t);
        const payouts = input.payoutsCents ?? [];
        const byDivision = new Map<string, repo.LeaderboardDbRow[]>();
        for (const row of board) byDivision.set(row.divisionId, [...(byDivision.get(row.divisionId) ?? []), row]);
        const rows = [...byDivision.values()].flatMap((rows) =>
          rows.map((r, i) => ({ id: uuidv7(), tournamentId, divisionId: r.divisionId, registrationId: r.registrationId, place: i + 1, totalScore: r.total, payoutCents: payouts[i] ?? 0 })),
        );
        await repo.insertResults(tx, rows);
        await repo.updateTournament(tx, tournamentId, { resultsPublishedAt: now, status: t.status === 'Suspended' ? t.status : 'Completed' });
        await recordAudit(tx, context, {
          action: 'tournaments.results_published',
          targetType: 'tournament',
          targetId: tournamentId,
          reason: input.reason ?? null,
          before: { placings: removed, publishedAt: t.resultsPublishedAt },
          after: { placings: rows.length, payoutsCents: payouts },
        });
        await notifyResultsPublished(tx, t);
        break;
      }
    }
    return resultsView(tx, (await repo.lockTournament(tx, tournamentId))!);
  });
}

// ---------- CSV ----------

/** One CSV field: quoted when needed; a leading = + - @ is defused so spreadsheets do not run it. */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export async function exportRegistrations(db: Db, viewer: Viewer, tournamentId: string): Promise<string> {
  const { t } = await authorizedTournament(db, viewer, tournamentId, 'manage');
  const divisions = new Map((await repo.divisionsOf(db, [t.id])).map((d) => [d.id, d.name]));
  const { items } = await repo.listRegistrations(db, tournamentId, {}, null);
  const fees = await repo.feesOf(db, items.map((r) => r.id));
  return toCsv(
    ['registrationId', 'division', 'anglerName', 'userId', 'status', 'registeredAt', 'cancelledAt', 'feeCents', 'currency', 'feeStatus'],
    items.map((r) => {
      const fee = fees.get(r.id);
      return [r.id, divisions.get(r.divisionId), r.anglerName, r.userId, r.status, r.createdAt.toISOString(), iso(r.cancelledAt), fee?.amountCents ?? 0, fee?.currency ?? t.currency, fee?.status ?? ''];
    }),
  );
}

export async function exportResults(db: Db, viewer: Viewer, tournamentId: string): Promise<string> {
  const { t } = await authorizedTournament(db, viewer, tournamentId, 'manage');
  const view = await resultsView(db, t);
  const rows = view.divisions.flatMap((d) => {
    const placings = new Map(d.placings.map((p) => [p.registrationId, p]));
    return d.leaderboard.map((r) => {
      const p = placings.get(r.registrationId);
      return [d.name, r.rank, p?.place ?? '', r.anglerName, r.total, d.unit, r.biggest, r.penalties, r.countedCatches.length, p?.payoutCents ?? 0];
    });
  });
  return toCsv(['division', 'rank', 'place', 'anglerName', 'total', 'unit', 'biggest', 'penalties', 'countedCatches', 'payoutCents'], rows);
}
