import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { randomInt } from 'node:crypto';
import { uuidv7 } from '../../core/db/ids.js';
import { PUBLISHED_STATUSES, tournamentPolicy, type TournamentAccessRecord } from '../../core/access/policies/tournaments.js';
import { authorize, type Viewer } from '../../core/access/policy.js';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import { assertReferenceableSpecies } from '../species/species.service.js';
import { TournamentErrors } from './tournaments.errors.js';
import { TIE_BREAKS } from './tournaments.tables.js';
import type { DivisionRow, Measure, TournamentRow } from './tournaments.tables.js';
import { type CreateTournamentInput, type DivisionInputType, MeasureEnum, TieBreakEnum, type TournamentsQueryType, type UpdateTournamentInput } from './tournaments.schemas.js';
import * as organizersRepo from './organizers.repository.js';
import * as repo from './tournaments.repository.js';
import * as registrationsRepo from './registrations.repository.js';
import { verifiedOrganizer } from './organizers.service.js';

/**
 * Tournaments and their divisions, their views and access, for organizers and anglers; the other
 * areas (organizers, registrations, judging, results, sponsors) have their own services. Who may
 * see or do what is the tournaments policy's answer (core/access/policies/tournaments.ts).
 */

export const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const unitOf = (measure: Measure) => (measure === 'length' ? 'in' : 'lb') as 'in' | 'lb';
/** A stored measure (quarter inches or hundredths of a pound) in the division's unit. */
export const fromScore = (measure: Measure, score: number) => (measure === 'length' ? score / 4 : score / 100);
/** Inches rounded down to the ¼ inch, as quarter inches (the epsilon absorbs binary noise: 18.75 stays 75). */
export const toQuarterInches = (inches: number) => Math.floor(inches * 4 + 1e-9);
export const toHundredthsLb = (pounds: number) => Math.floor(pounds * 100 + 1e-9);

// ---------- views ----------

function divisionView(row: DivisionRow) {
  return {
    id: row.id,
    name: row.name,
    speciesIds: row.speciesIds,
    measure: MeasureEnum.toApi(row.measure),
    unit: unitOf(row.measure),
    bestN: row.bestN,
    minLengthInches: row.minLengthQuarterInches === null ? null : row.minLengthQuarterInches / 4,
    penaltyRules: row.penaltyRules,
  };
}

export function registrationsOpen(t: TournamentRow, registrations: number, now: Date): boolean {
  return t.status === 'Approved' && t.registrationsClosedReason === null && now < t.registrationDeadline && (t.capacity === null || registrations < t.capacity);
}

export function tournamentView(row: repo.TournamentWithOrganizer, divisions: DivisionRow[], registrations: number, now: Date) {
  const t = row.t;
  return {
    id: t.id,
    organizer: { id: t.organizerId, name: row.organizerName },
    name: t.name,
    description: t.description,
    waterBody: t.waterBody,
    stateCode: t.stateCode,
    timeZone: t.timeZone,
    startsAt: t.startsAt.toISOString(),
    endsAt: t.endsAt.toISOString(),
    registrationDeadline: t.registrationDeadline.toISOString(),
    capacity: t.capacity,
    entryFeeCents: t.entryFeeCents,
    currency: t.currency,
    visibility: t.visibility,
    format: t.format,
    identifierCode: t.identifierCode,
    refundWindowHours: t.refundWindowHours,
    tieBreaks: t.tieBreaks.map((b) => TieBreakEnum.toApi(b)),
    status: t.status,
    statusReason: t.statusReason,
    registrationsOpen: registrationsOpen(t, registrations, now),
    registrationsCount: registrations,
    resultsPublishedAt: iso(t.resultsPublishedAt),
    divisions: divisions.filter((d) => d.tournamentId === t.id).map(divisionView),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** Views of several tournaments with their divisions and counts (three queries). */
export async function tournamentViews(deps: ServiceDeps<DbOrTx>, rows: repo.TournamentWithOrganizer[], now: Date) {
  const { db } = deps;
  const ids = rows.map((r) => r.t.id);
  const divisions = await repo.divisionsOf(db, ids);
  const counts = await registrationsRepo.activeRegistrationCounts(db, ids);
  return rows.map((r) => tournamentView(r, divisions, counts.get(r.t.id) ?? 0, now));
}

// ---------- access ----------

export function accessRecord(deps: ServiceDeps<DbOrTx>, t: TournamentRow): TournamentAccessRecord {
  const { db } = deps;
  return { ownerId: t.ownerId, status: t.status, isRegistered: (userId) => repo.isRegistered(db, t.id, userId), isJudge: (userId) => repo.isJudge(db, t.id, userId) };
}


/** The tournament (with its organizer's name) when `viewer` may do `action` on it: 404 / 403 otherwise. */
export async function authorizedTournament(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string, action: 'view' | 'manage' | 'judge' | 'register'): Promise<repo.TournamentWithOrganizer> {
  const { db } = deps;
  const row = await repo.findTournament(db, id);
  await authorize(tournamentPolicy, viewer, action, row ? accessRecord(deps, row.t) : undefined, deps, () => TournamentErrors.notFound(id));
  return row!;
}

/** Locks the tournament row (FOR UPDATE) and authorizes `action` on it. */
async function lockAuthorized(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string, action: 'view' | 'manage' | 'judge' | 'register'): Promise<TournamentRow> {
  const { db: tx } = deps;
  const row = await repo.lockTournament(tx, id);
  await authorize(tournamentPolicy, viewer, action, row ? accessRecord(deps, row) : undefined, deps, () => TournamentErrors.notFound(id));
  return row!;
}

export { lockAuthorized as lockAuthorizedTournament };

// ---------- tournaments ----------

export async function listTournaments(deps: ServiceDeps, viewer: Viewer, query: TournamentsQueryType, page: Page, now = new Date()) {
  const { db } = deps;
  const { items, total } = await repo.listVisible(db, viewer.userId, query, PUBLISHED_STATUSES, page);
  return { items: await tournamentViews(deps, items, now), total };
}

export async function getTournament(deps: ServiceDeps, viewer: Viewer, id: string, now = new Date()) {
  const row = await authorizedTournament(deps, viewer, id, 'view');
  return (await tournamentViews(deps, [row], now))[0]!;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function identifierCode(): string {
  let code = 'FL-';
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

function assertTimeZone(value: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw TournamentErrors.badTimeZone(value);
  }
}

interface Schedule {
  startsAt: Date;
  endsAt: Date;
  registrationDeadline: Date;
}

function checkSchedule(input: { startsAt: string; endsAt: string; registrationDeadline: string }, now: Date, startMustBeFuture: boolean): Schedule {
  const s = { startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt), registrationDeadline: new Date(input.registrationDeadline) };
  if (startMustBeFuture && s.startsAt <= now) throw TournamentErrors.badSchedule('/startsAt', 'startsAt must be in the future');
  if (s.endsAt <= s.startsAt) throw TournamentErrors.badSchedule('/endsAt', 'endsAt must be after startsAt');
  if (s.registrationDeadline > s.startsAt) throw TournamentErrors.badSchedule('/registrationDeadline', 'registrationDeadline must be at or before startsAt');
  return s;
}

async function checkDivisions(deps: ServiceDeps<DbOrTx>, format: 'CPR' | 'WeighIn', divisions: DivisionInputType[], kept: ReadonlySet<string> = new Set()) {
  const names = new Set<string>();
  for (const [i, d] of divisions.entries()) {
    const key = d.name.trim().toLowerCase();
    if (names.has(key)) throw TournamentErrors.duplicateDivisionName(d.name);
    names.add(key);
    if (format === 'CPR' && MeasureEnum.fromApi(d.measure) === 'weight') throw TournamentErrors.badDivision(`/divisions/${i}/measure`, 'catch-photo-release divisions are scored by length');
    const codes = new Set((d.penaltyRules ?? []).map((r) => r.code));
    if (codes.size !== (d.penaltyRules ?? []).length) throw TournamentErrors.badDivision(`/divisions/${i}/penaltyRules`, 'penalty codes must differ');
    await assertReferenceableSpecies(deps, d.speciesIds, `/divisions/${i}/speciesIds`, kept);
  }
}

function divisionValues(format: 'CPR' | 'WeighIn', d: DivisionInputType, position: number) {
  return {
    name: d.name.trim(),
    speciesIds: d.speciesIds,
    measure: MeasureEnum.fromApi(d.measure) ?? (format === 'CPR' ? 'length' : 'weight'),
    bestN: d.bestN,
    minLengthQuarterInches: d.minLengthInches == null ? null : toQuarterInches(d.minLengthInches),
    penaltyRules: d.penaltyRules ?? [],
    position,
  } as const;
}

function tournamentValues(input: UpdateTournamentInput, schedule: Schedule) {
  return {
    name: input.name.trim(),
    description: input.description ?? null,
    waterBody: input.waterBody ?? null,
    stateCode: input.stateCode?.toUpperCase() ?? null,
    timeZone: input.timeZone,
    ...schedule,
    capacity: input.capacity ?? null,
    entryFeeCents: input.entryFeeCents ?? 0,
    currency: input.currency ?? 'USD',
    visibility: input.visibility ?? 'Public',
    format: input.format,
    refundWindowHours: input.refundWindowHours ?? 48,
    tieBreaks: input.tieBreaks ? [...new Set(input.tieBreaks.map((b) => TieBreakEnum.fromApi(b)))] : [...TIE_BREAKS],
  };
}

export async function createTournament(deps: ServiceDeps, viewer: Viewer, input: CreateTournamentInput, now = new Date()) {
  const { db } = deps;
  const organizer = await verifiedOrganizer(deps, viewer.userId);
  if ((input.entryFeeCents ?? 0) > 0 && !organizer.paymentsAllowed) throw TournamentErrors.paymentsNotAllowed();
  assertTimeZone(input.timeZone);
  const schedule = checkSchedule(input, now, true);
  await checkDivisions(deps, input.format, input.divisions);
  const id = await db.transaction(async (tx) => {
    const row = await repo.insertTournament(tx, {
      id: uuidv7(),
      organizerId: organizer.id,
      ownerId: viewer.userId,
      identifierCode: identifierCode(),
      status: input.draft ? 'Draft' : 'PendingApproval',
      ...tournamentValues(input, schedule),
    });
    await repo.insertDivisions(
      tx,
      input.divisions.map((d, i) => ({ id: uuidv7(), tournamentId: row.id, ...divisionValues(input.format, d, i) })),
    );
    return row.id;
  });
  return getTournament(deps, viewer, id, now);
}

/** Fields that change outcomes: frozen once the tournament has started. */
function frozenChanges(current: TournamentRow, divisions: DivisionRow[], next: ReturnType<typeof tournamentValues>, input: UpdateTournamentInput): string[] {
  const changed: string[] = [];
  // jsonb reorders object keys: compare with sorted keys.
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v;
  const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  const checks: Array<[string, unknown, unknown]> = [
    ['format', current.format, next.format],
    ['startsAt', current.startsAt.getTime(), next.startsAt.getTime()],
    ['endsAt', current.endsAt.getTime(), next.endsAt.getTime()],
    ['registrationDeadline', current.registrationDeadline.getTime(), next.registrationDeadline.getTime()],
    ['timeZone', current.timeZone, next.timeZone],
    ['capacity', current.capacity, next.capacity],
    ['entryFeeCents', current.entryFeeCents, next.entryFeeCents],
    ['currency', current.currency, next.currency],
    ['refundWindowHours', current.refundWindowHours, next.refundWindowHours],
    ['tieBreaks', current.tieBreaks, next.tieBreaks],
    ['stateCode', current.stateCode, next.stateCode],
  ];
  for (const [name, a, b] of checks) if (!same(a, b)) changed.push(name);
  const before = divisions.map((d) => ({ id: d.id, ...divisionValues(current.format, { name: d.name, speciesIds: d.speciesIds, measure: d.measure, bestN: d.bestN, minLengthInches: divisionView(d).minLengthInches, penaltyRules: d.penaltyRules }, d.position) }));
  const after = input.divisions.map((d, i) => ({ id: d.id, ...divisionValues(next.format, d, i) }));
  if (!same(before, after)) changed.push('divisions');
  return changed;
}

export async function updateTournament(deps: ServiceDeps, viewer: Viewer, id: string, input: UpdateTournamentInput, now = new Date()) {
  const { db } = deps;
  assertTimeZone(input.timeZone);
  await db.transaction(async (tx) => {
    const current = await lockAuthorized(inTx(deps, tx), viewer, id, 'manage');
    if (current.status === 'Completed') throw TournamentErrors.notEditable(current.status);
    const divisions = await repo.divisionsOf(tx, [id]);
    const started = now >= current.startsAt || current.status === 'InProgress';
    const startChanged = new Date(input.startsAt).getTime() !== current.startsAt.getTime();
    const schedule = checkSchedule(input, now, !started && startChanged);
    const next = tournamentValues(input, schedule);
    if (started) {
      const frozen = frozenChanges(current, divisions, next, input);
      if (frozen.length > 0) throw TournamentErrors.rulesFrozen(frozen);
      await repo.updateTournament(tx, id, { name: next.name, description: next.description, waterBody: next.waterBody, visibility: next.visibility });
      return;
    }
    if (next.entryFeeCents > 0 && next.entryFeeCents !== current.entryFeeCents) {
      const organizer = await organizersRepo.findOrganizer(tx, current.organizerId);
      if (!organizer?.paymentsAllowed) throw TournamentErrors.paymentsNotAllowed();
    }
    const existing = new Map(divisions.map((d) => [d.id, d]));
    input.divisions.forEach((d, i) => {
      if (d.id !== undefined && !existing.has(d.id)) throw TournamentErrors.badDivision(`/divisions/${i}/id`, `no division of this tournament has id ${d.id}`);
    });
    await checkDivisions(inTx(deps, tx), input.format, input.divisions, new Set(divisions.flatMap((d) => d.speciesIds)));
    const keptIds = new Set(input.divisions.flatMap((d) => (d.id ? [d.id] : [])));
    const removed = divisions.filter((d) => !keptIds.has(d.id)).map((d) => d.id);
    const inUse = await repo.divisionsWithRegistrations(tx, removed);
    if (inUse.length > 0) throw TournamentErrors.divisionInUse(inUse[0]!);
    await repo.deleteDivisions(tx, removed);
    await repo.updateTournament(tx, id, next);
    // Renaming divisions could collide with a name being freed in the same request: park the names first.
    for (const d of input.divisions) if (d.id) await repo.updateDivision(tx, d.id, { name: `~${d.id}` });
    for (const [i, d] of input.divisions.entries()) {
      if (d.id) await repo.updateDivision(tx, d.id, divisionValues(input.format, d, i));
      else await repo.insertDivisions(tx, [{ id: uuidv7(), tournamentId: id, ...divisionValues(input.format, d, i) }]);
    }
  });
  return getTournament(deps, viewer, id, now);
}

export async function submitForApproval(deps: ServiceDeps, viewer: Viewer, id: string, now = new Date()) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const current = await lockAuthorized(inTx(deps, tx), viewer, id, 'manage');
    if (current.status !== 'Draft' && current.status !== 'Rejected') throw TournamentErrors.cannotSubmit(current.status);
    if (current.startsAt <= now) throw TournamentErrors.badSchedule('/startsAt', 'the start has passed: move startsAt to the future with PUT first');
    await verifiedOrganizer(inTx(deps, tx), viewer.userId);
    await repo.updateTournament(tx, id, { status: 'PendingApproval', statusReason: null });
  });
  return getTournament(deps, viewer, id, now);
}
// ---------- job ----------

/** Starts and completes tournaments by the clock; the server runs it every minute. */
export async function advanceTournamentStatuses(deps: ServiceDeps, now: () => Date = () => new Date()) {
  const { db } = deps;
  return repo.advanceStatuses(db, now());
}
