import { randomInt } from 'node:crypto';
import { notifyRegistrationConfirmed } from './tournaments.notifications.js';
import { uuidv7 } from '../../core/db/ids.js';
import { PUBLISHED_STATUSES, registrationPolicy, tournamentPolicy, type TournamentAccessRecord } from '../../core/access/policies/tournaments.js';
import { authorize, isOwner, type PolicyContext, type Viewer } from '../../core/access/policy.js';
import type { AuditContext } from '../../core/audit/audit.js';
import type { Db, DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import type { PaymentSettlement, PaymentsService } from '../payments/payments.service.js';
import { getOwnProfile } from '../profiles/profiles.service.js';
import { assertReferenceableSpecies } from '../species/species.service.js';
import { foreignKeyViolation, TournamentErrors, uniqueViolation } from './tournaments.errors.js';
import * as repo from './tournaments.repository.js';
import type {
  ApplyOrganizerInput,
  CreateTournamentInput,
  DivisionInputType,
  RegisterInput,
  SponsorInput,
  TournamentsQueryType,
  UpdateTournamentInput,
} from './tournaments.schemas.js';
import { TIE_BREAKS } from './tournaments.tables.js';
import type { DivisionRow, FeePaymentRow, Measure, OrganizerRow, RegistrationRow, SponsorRow, SponsorTier, TournamentRow } from './tournaments.tables.js';
import { MeasureEnum, TieBreakEnum } from './tournaments.schemas.js';

/**
 * Tournaments for organizers and anglers: organizer applications, tournaments and their
 * divisions, registrations with the entry fee, and sponsors. Who may see or do what is the
 * tournaments policy's answer (core/access/policies/tournaments.ts).
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const unitOf = (measure: Measure) => (measure === 'length' ? 'in' : 'lb') as 'in' | 'lb';
/** A stored measure (quarter inches or hundredths of a pound) in the division's unit. */
export const fromScore = (measure: Measure, score: number) => (measure === 'length' ? score / 4 : score / 100);
/** Inches rounded down to the ¼ inch, as quarter inches (the epsilon absorbs binary noise: 18.75 stays 75). */
export const toQuarterInches = (inches: number) => Math.floor(inches * 4 + 1e-9);
export const toHundredthsLb = (pounds: number) => Math.floor(pounds * 100 + 1e-9);

// ---------- views ----------

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
export async function tournamentViews(db: DbOrTx, rows: repo.TournamentWithOrganizer[], now: Date) {
  const ids = rows.map((r) => r.t.id);
  const divisions = await repo.divisionsOf(db, ids);
  const counts = await repo.activeRegistrationCounts(db, ids);
  return rows.map((r) => tournamentView(r, divisions, counts.get(r.t.id) ?? 0, now));
}

function feeView(fee: FeePaymentRow | undefined) {
  return fee ? { amountCents: fee.amountCents, currency: fee.currency, status: fee.status, paymentId: fee.externalPaymentId } : null;
}

export function registrationView(row: RegistrationRow, fee: FeePaymentRow | undefined) {
  return {
    id: row.id,
    tournamentId: row.tournamentId,
    divisionId: row.divisionId,
    userId: row.userId,
    anglerName: row.anglerName,
    status: row.status,
    fee: feeView(fee),
    cancelledAt: iso(row.cancelledAt),
    createdAt: row.createdAt.toISOString(),
  };
}

function sponsorView(row: SponsorRow) {
  return { id: row.id, name: row.name, tier: row.tier, amountCents: row.amountCents, website: row.website, logoUrl: row.logoUrl, createdAt: row.createdAt.toISOString() };
}

// ---------- access ----------

export function accessRecord(db: DbOrTx, t: TournamentRow): TournamentAccessRecord {
  return { ownerId: t.ownerId, status: t.status, isRegistered: (userId) => repo.isRegistered(db, t.id, userId), isJudge: (userId) => repo.isJudge(db, t.id, userId) };
}

const ctx = (db: DbOrTx): PolicyContext => ({ db });

/** The tournament (with its organizer's name) when `viewer` may do `action` on it: 404 / 403 otherwise. */
export async function authorizedTournament(db: DbOrTx, viewer: Viewer, id: string, action: 'view' | 'manage' | 'judge' | 'register'): Promise<repo.TournamentWithOrganizer> {
  const row = await repo.findTournament(db, id);
  await authorize(tournamentPolicy, viewer, action, row ? accessRecord(db, row.t) : undefined, ctx(db), () => TournamentErrors.notFound(id));
  return row!;
}

/** Locks the tournament row (FOR UPDATE) and authorizes `action` on it. */
async function lockAuthorized(tx: DbOrTx, viewer: Viewer, id: string, action: 'view' | 'manage' | 'judge' | 'register'): Promise<TournamentRow> {
  const row = await repo.lockTournament(tx, id);
  await authorize(tournamentPolicy, viewer, action, row ? accessRecord(tx, row) : undefined, ctx(tx), () => TournamentErrors.notFound(id));
  return row!;
}

export { lockAuthorized as lockAuthorizedTournament };

// ---------- organizers ----------

export async function applyAsOrganizer(db: Db, userId: string, input: ApplyOrganizerInput) {
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

export async function ownOrganizer(db: DbOrTx, userId: string) {
  const row = await repo.findOrganizerByUser(db, userId);
  if (!row) throw TournamentErrors.noOrganizerProfile();
  return organizerView(row);
}

// ---------- tournaments ----------

export async function listTournaments(db: Db, viewer: Viewer, query: TournamentsQueryType, page: Page, now = new Date()) {
  const { items, total } = await repo.listVisible(db, viewer.userId, query, PUBLISHED_STATUSES, page);
  return { items: await tournamentViews(db, items, now), total };
}

export async function getTournament(db: Db, viewer: Viewer, id: string, now = new Date()) {
  const row = await authorizedTournament(db, viewer, id, 'view');
  return (await tournamentViews(db, [row], now))[0]!;
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

async function checkDivisions(db: DbOrTx, format: 'CPR' | 'WeighIn', divisions: DivisionInputType[], kept: ReadonlySet<string> = new Set()) {
  const names = new Set<string>();
  for (const [i, d] of divisions.entries()) {
    const key = d.name.trim().toLowerCase();
    if (names.has(key)) throw TournamentErrors.duplicateDivisionName(d.name);
    names.add(key);
    if (format === 'CPR' && MeasureEnum.fromApi(d.measure) === 'weight') throw TournamentErrors.badDivision(`/divisions/${i}/measure`, 'catch-photo-release divisions are scored by length');
    const codes = new Set((d.penaltyRules ?? []).map((r) => r.code));
    if (codes.size !== (d.penaltyRules ?? []).length) throw TournamentErrors.badDivision(`/divisions/${i}/penaltyRules`, 'penalty codes must differ');
    await assertReferenceableSpecies(db, d.speciesIds, `/divisions/${i}/speciesIds`, kept);
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

async function verifiedOrganizer(db: DbOrTx, userId: string): Promise<OrganizerRow> {
  const organizer = await repo.findOrganizerByUser(db, userId);
  if (!organizer || organizer.status !== 'Verified') throw TournamentErrors.notVerifiedOrganizer(organizer?.status ?? null);
  return organizer;
}

export async function createTournament(db: Db, viewer: Viewer, input: CreateTournamentInput, now = new Date()) {
  const organizer = await verifiedOrganizer(db, viewer.userId);
  if ((input.entryFeeCents ?? 0) > 0 && !organizer.paymentsAllowed) throw TournamentErrors.paymentsNotAllowed();
  assertTimeZone(input.timeZone);
  const schedule = checkSchedule(input, now, true);
  await checkDivisions(db, input.format, input.divisions);
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
  return getTournament(db, viewer, id, now);
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

export async function updateTournament(db: Db, viewer: Viewer, id: string, input: UpdateTournamentInput, now = new Date()) {
  assertTimeZone(input.timeZone);
  await db.transaction(async (tx) => {
    const current = await lockAuthorized(tx, viewer, id, 'manage');
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
      const organizer = await repo.findOrganizer(tx, current.organizerId);
      if (!organizer?.paymentsAllowed) throw TournamentErrors.paymentsNotAllowed();
    }
    const existing = new Map(divisions.map((d) => [d.id, d]));
    input.divisions.forEach((d, i) => {
      if (d.id !== undefined && !existing.has(d.id)) throw TournamentErrors.badDivision(`/divisions/${i}/id`, `no division of this tournament has id ${d.id}`);
    });
    await checkDivisions(tx, input.format, input.divisions, new Set(divisions.flatMap((d) => d.speciesIds)));
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
  return getTournament(db, viewer, id, now);
}

export async function submitForApproval(db: Db, viewer: Viewer, id: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const current = await lockAuthorized(tx, viewer, id, 'manage');
    if (current.status !== 'Draft' && current.status !== 'Rejected') throw TournamentErrors.cannotSubmit(current.status);
    if (current.startsAt <= now) throw TournamentErrors.badSchedule('/startsAt', 'the start has passed: move startsAt to the future with PUT first');
    await verifiedOrganizer(tx, viewer.userId);
    await repo.updateTournament(tx, id, { status: 'PendingApproval', statusReason: null });
  });
  return getTournament(db, viewer, id, now);
}

// ---------- registrations and fees ----------

export interface FeeRequest {
  registrationId: string;
  tournamentId: string;
  userId: string;
  amountCents: number;
  currency: string;
}

/** What the tournament module needs of the app: its database and the payments service. */
export interface TournamentsDeps {
  db: Db;
  payments: PaymentsService;
}

/**
 * Charges the entry fee of a registration just committed (the capacity and one-per-person rules
 * hold under the tournament's lock; the charge is outside it). A declined card cancels the
 * registration (402); a retried request cannot charge twice (the key is the registration's).
 */
async function chargeFee(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, fee: FeeRequest & { tournamentName: string }, paymentMethod: string, now: Date) {
  const payment = await deps.payments.createPayment(
    {
      kind: 'TournamentFee',
      payerId: viewer.userId,
      related: { type: 'tournament_registration', id: fee.registrationId },
      amountCents: fee.amountCents,
      currency: fee.currency,
      paymentMethod,
      description: `Entry fee: ${fee.tournamentName}`,
      idempotencyKey: `tournament-registration-${fee.registrationId}`,
    },
    context,
  );
  if (payment.status === 'Failed') {
    await deps.db.transaction(async (tx) => {
      await repo.updateRegistration(tx, fee.registrationId, { status: 'Cancelled', cancelledAt: now });
      await repo.setFee(tx, fee.registrationId, { status: 'Declined', externalPaymentId: payment.id });
    });
    throw TournamentErrors.paymentDeclined(payment.id, payment.failureReason ?? 'declined');
  }
  // A payment still Pending is settled later by the provider's webhook (settleEntryFee), which may even come first.
  const settled = await deps.db.transaction(async (tx) => {
    const paid = await repo.setFee(tx, fee.registrationId, { status: payment.status === 'Pending' ? 'Pending' : 'Paid', externalPaymentId: payment.id }, 'Pending');
    if (paid?.status === 'Paid') await notifyRegistrationConfirmed(tx, fee.registrationId);
    return paid;
  });
  return settled ?? (await repo.feesOf(deps.db, [fee.registrationId])).get(fee.registrationId);
}

/**
 * The payments service reports the outcome of an entry fee that was still Pending at the provider
 * (a Stripe webhook), in its transaction: paid, or declined — then the registration is cancelled,
 * which gives its place back. A fee no longer Pending is left as it is.
 */
export async function settleEntryFee(tx: DbOrTx, settlement: PaymentSettlement): Promise<void> {
  const registrationId = settlement.relatedId;
  if (settlement.status === 'Succeeded') {
    if (await repo.setFee(tx, registrationId, { status: 'Paid', externalPaymentId: settlement.paymentId }, 'Pending')) await notifyRegistrationConfirmed(tx, registrationId);
    return;
  }
  const declined = await repo.setFee(tx, registrationId, { status: 'Declined', externalPaymentId: settlement.paymentId }, 'Pending');
  if (declined) await repo.updateRegistration(tx, registrationId, { status: 'Cancelled', cancelledAt: new Date() });
}

async function displayName(db: Db, viewer: Viewer, given: string | undefined): Promise<string> {
  if (given) return given.trim();
  const profile = await getOwnProfile(db, viewer.userId);
  return profile.displayName ?? profile.username;
}

export async function register(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, tournamentId: string, input: RegisterInput, now = new Date()) {
  const { db } = deps;
  const anglerName = await displayName(db, viewer, input.anglerName);
  const registered = await db.transaction(async (tx) => {
    // The row lock serialises registrations of one tournament: the capacity count below is exact.
    const t = await lockAuthorized(tx, viewer, tournamentId, 'register');
    if (t.registrationsClosedReason) throw TournamentErrors.registrationClosed(`Registrations are closed: ${t.registrationsClosedReason}.`);
    if (now >= t.registrationDeadline) throw TournamentErrors.registrationClosed(`The registration deadline (${t.registrationDeadline.toISOString()}) has passed.`);
    if (t.entryFeeCents > 0 && !input.paymentMethod) throw TournamentErrors.paymentMethodRequired();
    const division = (await repo.divisionsOf(tx, [tournamentId])).find((d) => d.id === input.divisionId);
    if (!division) throw TournamentErrors.unknownDivision(input.divisionId);
    if (await repo.findActiveRegistration(tx, division.id, viewer.userId)) throw TournamentErrors.alreadyRegistered();
    const active = (await repo.activeRegistrationCounts(tx, [tournamentId])).get(tournamentId) ?? 0;
    if (t.capacity !== null && active >= t.capacity) throw TournamentErrors.full(t.capacity);
    let row: RegistrationRow;
    try {
      row = await repo.insertRegistration(tx, { id: uuidv7(), tournamentId, divisionId: division.id, userId: viewer.userId, anglerName });
    } catch (error) {
      if (uniqueViolation(error) !== undefined) throw TournamentErrors.alreadyRegistered();
      throw error;
    }
    const fee =
      t.entryFeeCents > 0
        ? await repo.insertFee(tx, { id: uuidv7(), registrationId: row.id, tournamentId, userId: viewer.userId, amountCents: t.entryFeeCents, currency: t.currency, status: 'Pending' })
        : undefined;
    if (!fee) await notifyRegistrationConfirmed(tx, row.id);
    return { row, fee, tournamentName: t.name };
  });
  const { row, fee, tournamentName } = registered;
  if (!fee) return registrationView(row, undefined);
  const charged = await chargeFee(deps, viewer, context, { ...fee, tournamentName }, input.paymentMethod!, now);
  return registrationView(row, charged);
}

export async function listRegistrations(
  db: Db,
  viewer: Viewer,
  tournamentId: string,
  filter: { divisionId?: string | undefined; status?: 'Active' | 'Cancelled' | undefined },
  page: Page,
) {
  const row = await authorizedTournament(db, viewer, tournamentId, 'view');
  const organizer = (await tournamentPolicy.can(viewer, 'manage', accessRecord(db, row.t), ctx(db))) === true;
  // Anyone but the organizer sees their own registrations only.
  const { items, total } = await repo.listRegistrations(db, tournamentId, { ...filter, userId: organizer ? undefined : viewer.userId }, page);
  const fees = await repo.feesOf(db, items.map((r) => r.id));
  return { items: items.map((r) => registrationView(r, fees.get(r.id))), total };
}

async function authorizedRegistration(db: DbOrTx, viewer: Viewer, tournamentId: string, registrationId: string, action: 'view' | 'cancel', lock = false) {
  const t = await repo.findTournament(db, tournamentId);
  if (!t) throw TournamentErrors.notFound(tournamentId);
  const row = await repo.findRegistration(db, tournamentId, registrationId, lock);
  await authorize(registrationPolicy, viewer, action, row ? { ownerId: t.t.ownerId, userId: row.userId } : undefined, ctx(db), () =>
    TournamentErrors.registrationNotFound(registrationId),
  );
  return { tournament: t.t, registration: row! };
}

export async function getRegistration(db: Db, viewer: Viewer, tournamentId: string, registrationId: string) {
  const { registration } = await authorizedRegistration(db, viewer, tournamentId, registrationId, 'view');
  return registrationView(registration, (await repo.feesOf(db, [registration.id])).get(registration.id));
}

/**
 * The registrant cancels: the fee is refunded (through the payments service) up to
 * `refundWindowHours` before the start and forfeited after; impossible once started. A fee never
 * charged is waived.
 */
export async function cancelRegistration(deps: TournamentsDeps, viewer: Viewer, context: AuditContext, tournamentId: string, registrationId: string, now = new Date()) {
  const { row, fee, refund } = await deps.db.transaction(async (tx) => {
    const { tournament, registration } = await authorizedRegistration(tx, viewer, tournamentId, registrationId, 'cancel', true);
    if (registration.status === 'Cancelled') throw TournamentErrors.alreadyCancelled();
    if (now >= tournament.startsAt) throw TournamentErrors.cannotCancel('The tournament has started; registrations can no longer be cancelled.');
    const inWindow = now.getTime() <= tournament.startsAt.getTime() - tournament.refundWindowHours * 3_600_000;
    const row = await repo.updateRegistration(tx, registration.id, { status: 'Cancelled', cancelledAt: now });
    let fee = (await repo.feesOf(tx, [row.id])).get(row.id);
    const refund = inWindow && fee?.status === 'Paid' && fee.externalPaymentId !== null;
    if (fee && !refund) fee = await repo.setFee(tx, row.id, { status: fee.status === 'Paid' ? 'Forfeited' : 'Waived' });
    return { row, fee, refund };
  });
  if (!refund || !fee?.externalPaymentId) return registrationView(row, fee);
  const { refund: done } = await deps.payments.refund({
    paymentId: fee.externalPaymentId,
    reason: 'Tournament registration cancelled inside the refund window',
    actor: context,
    idempotencyKey: `tournament-registration-refund-${row.id}`,
  });
  // A refund the provider refused stays on the payment (admins see it under /api/admin/payments); the fee stays Paid.
  const settled = done.status === 'Succeeded' ? await repo.setFee(deps.db, row.id, { status: 'Refunded' }) : fee;
  return registrationView(row, settled);
}

// ---------- judges ----------

function judgeView(row: { userId: string; createdAt: Date }) {
  return { userId: row.userId, createdAt: row.createdAt.toISOString() };
}

export async function listJudges(db: Db, viewer: Viewer, tournamentId: string) {
  await authorizedTournament(db, viewer, tournamentId, 'judge');
  return (await repo.judgesOf(db, tournamentId)).map(judgeView);
}

/** The organizer names a judge: an existing user who is not registered in the tournament. */
export async function addJudge(db: Db, viewer: Viewer, tournamentId: string, userId: string) {
  return db.transaction(async (tx) => {
    const t = await lockAuthorized(tx, viewer, tournamentId, 'manage');
    if (isOwner(viewer, { ownerId: userId })) throw TournamentErrors.badJudge('the organizer judges anyway');
    if (await repo.isRegistered(tx, t.id, userId)) throw TournamentErrors.judgeIsRegistered();
    try {
      await repo.insertJudge(tx, { tournamentId, userId, createdBy: viewer.userId });
    } catch (error) {
      if (foreignKeyViolation(error)) throw TournamentErrors.badJudge('no user has this id');
      throw error;
    }
    return (await repo.judgesOf(tx, tournamentId)).map(judgeView);
  });
}

// ---------- sponsors ----------

/** Most sponsors per tier and in all, and the most sponsorship money, per tournament. */
export const SPONSOR_LIMITS: { perTier: Record<SponsorTier, number>; total: number; amountCents: number } = {
  perTier: { Title: 1, Gold: 3, Silver: 5, Bronze: 10, Supporter: 25 },
  total: 30,
  amountCents: 10_000_000,
};

export async function listSponsors(db: Db, viewer: Viewer, tournamentId: string) {
  await authorizedTournament(db, viewer, tournamentId, 'view');
  return (await repo.listSponsors(db, tournamentId)).map(sponsorView);
}

export async function addSponsor(db: Db, viewer: Viewer, tournamentId: string, input: SponsorInput) {
  return db.transaction(async (tx) => {
    const t = await lockAuthorized(tx, viewer, tournamentId, 'manage');
    const organizer = await repo.findOrganizer(tx, t.organizerId);
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

// ---------- job ----------

/** Starts and completes tournaments by the clock; the server runs it every minute. */
export async function advanceTournamentStatuses(db: Db, now: () => Date = () => new Date()) {
  return repo.advanceStatuses(db, now());
}

export { registrationPathById } from './tournaments.notifications.js';
