import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { Viewer } from '../../core/access/policy.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { TournamentErrors } from './tournaments.errors.js';
import { notifyResultsPublished } from './tournaments.notifications.js';
import type { RegistrationRow, TournamentRow } from './tournaments.tables.js';
import { TieBreakEnum } from './tournaments.schemas.js';
import type { AddResultInput } from './results.schemas.js';
import * as tournamentsRepo from './tournaments.repository.js';
import * as registrationsRepo from './registrations.repository.js';
import * as judgingRepo from './judging.repository.js';
import * as repo from './results.repository.js';
import { authorizedTournament, fromScore, iso, lockAuthorizedTournament, unitOf } from './tournaments.service.js';
import { assertAcceptsCatches, catchValues, divisionOf, insertCatch } from './judging.service.js';

/** The leaderboard, the official results and the CSV exports. */

async function resultsView(deps: ServiceDeps<DbOrTx>, t: TournamentRow) {
  const { db } = deps;
  // One after the other: `db` may be a transaction (one connection).
  const divisions = await tournamentsRepo.divisionsOf(db, [t.id]);
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

export async function getResults(deps: ServiceDeps, viewer: Viewer, tournamentId: string) {
  const { t } = await authorizedTournament(deps, viewer, tournamentId, 'view');
  return resultsView(deps, t);
}

async function activeRegistration(deps: ServiceDeps<DbOrTx>, tournamentId: string, registrationId: string): Promise<RegistrationRow> {
  const { db: tx } = deps;
  const registration = await registrationsRepo.findRegistration(tx, tournamentId, registrationId);
  if (!registration || registration.status !== 'Active') {
    throw TournamentErrors.badDivision('/registrationId', `no active registration of this tournament has id ${registrationId}`);
  }
  return registration;
}

/** POST /results: a catch judged at the scale, a penalty, one placing, or publishing every placing from the leaderboard. */
export async function addResult(deps: ServiceDeps, viewer: Viewer, context: AuditContext, tournamentId: string, input: AddResultInput, now = new Date()) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const t = await lockAuthorizedTournament(inTx(deps, tx), viewer, tournamentId, 'manage');
    switch (input.kind) {
      case 'Catch':
      case 'catch': {
        assertAcceptsCatches(t);
        const registration = await activeRegistration(inTx(deps, tx), tournamentId, input.registrationId);
        const division = await divisionOf(inTx(deps, tx), tournamentId, registration.divisionId);
        const row = await insertCatch(inTx(deps, tx), {
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
        await recordAudit(inTx(deps, tx), context, { action: 'tournaments.catch_recorded', targetType: 'tournament_catch', targetId: row.id, after: { tournamentId, score: row.score } });
        break;
      }
      case 'Penalty':
      case 'penalty': {
        if (t.resultsPublishedAt) throw TournamentErrors.resultsPublished();
        const registration = await activeRegistration(inTx(deps, tx), tournamentId, input.registrationId);
        const division = await divisionOf(inTx(deps, tx), tournamentId, registration.divisionId);
        const rule = division.penaltyRules.find((r) => r.code === input.code);
        if (!rule) throw TournamentErrors.badDivision('/code', `the division has no penalty rule ${input.code}; its rules: ${division.penaltyRules.map((r) => r.code).join(', ') || 'none'}`);
        await judgingRepo.insertPenalty(tx, { id: uuidv7(), tournamentId, registrationId: registration.id, code: rule.code, points: rule.points, reason: input.reason, createdBy: viewer.userId });
        await recordAudit(inTx(deps, tx), context, {
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
        const division = await divisionOf(inTx(deps, tx), tournamentId, input.divisionId);
        const registration = await activeRegistration(inTx(deps, tx), tournamentId, input.registrationId);
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
        await recordAudit(inTx(deps, tx), context, {
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
        await tournamentsRepo.updateTournament(tx, tournamentId, { resultsPublishedAt: now, status: t.status === 'Suspended' ? t.status : 'Completed' });
        await recordAudit(inTx(deps, tx), context, {
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
    return resultsView(inTx(deps, tx), (await tournamentsRepo.lockTournament(tx, tournamentId))!);
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

export async function exportRegistrations(deps: ServiceDeps, viewer: Viewer, tournamentId: string): Promise<string> {
  const { db } = deps;
  const { t } = await authorizedTournament(deps, viewer, tournamentId, 'manage');
  const divisions = new Map((await tournamentsRepo.divisionsOf(db, [t.id])).map((d) => [d.id, d.name]));
  const { items } = await registrationsRepo.listRegistrations(db, tournamentId, {}, null);
  const fees = await registrationsRepo.feesOf(db, items.map((r) => r.id));
  return toCsv(
    ['registrationId', 'division', 'anglerName', 'userId', 'status', 'registeredAt', 'cancelledAt', 'feeCents', 'currency', 'feeStatus'],
    items.map((r) => {
      const fee = fees.get(r.id);
      return [r.id, divisions.get(r.divisionId), r.anglerName, r.userId, r.status, r.createdAt.toISOString(), iso(r.cancelledAt), fee?.amountCents ?? 0, fee?.currency ?? t.currency, fee?.status ?? ''];
    }),
  );
}

export async function exportResults(deps: ServiceDeps, viewer: Viewer, tournamentId: string): Promise<string> {
  const { t } = await authorizedTournament(deps, viewer, tournamentId, 'manage');
  const view = await resultsView(deps, t);
  const rows = view.divisions.flatMap((d) => {
    const placings = new Map(d.placings.map((p) => [p.registrationId, p]));
    return d.leaderboard.map((r) => {
      const p = placings.get(r.registrationId);
      return [d.name, r.rank, p?.place ?? '', r.anglerName, r.total, d.unit, r.biggest, r.penalties, r.countedCatches.length, p?.payoutCents ?? 0];
    });
  });
  return toCsv(['division', 'rank', 'place', 'anglerName', 'total', 'unit', 'biggest', 'penalties', 'countedCatches', 'payoutCents'], rows);
}
