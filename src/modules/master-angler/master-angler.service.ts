import { registryKey, type Registries } from '../../core/registries.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { and, asc, eq } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import { masterAnglerCatchPolicy, masterAnglerSubmissionPolicy } from '../../core/access/policies/master-angler.js';
import { authorize, type Viewer } from '../../core/access/policy.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notify } from '../../core/notifications/outbox.js';
import type { DbOrTx } from '../../core/db/client.js';
import { channelCache } from '../../core/db/listen.js';
import type { Page } from '../../core/http/pagination.js';
import { speciesRefs } from '../species/species.service.js';
import { cmToInches, localDate, RegulationErrors, type CatchSource, type LoggedCatch } from '../regulations/index.js';
import { activeJurisdiction, jurisdictionCodes, normaliseStateCode } from '../regulations/regulations.service.js';
import { MasterAnglerErrors } from './master-angler.errors.js';
import * as repo from './master-angler.repository.js';
import {
  maPrograms,
  maProgramSpecies,
  maSubmissionEvents,
  maSubmissions,
  type ProgramRow,
  type ProgramSpeciesRow,
  type SubmissionRow,
  type SubmissionStatus,
} from './master-angler.tables.js';
import { CategoryEnum, MeasurementEnum, ProgramDataStatusEnum } from './master-angler.schemas.js';

/** Master Angler programs, eligibility detection, submissions and award progress. */

const KG_PER_LB = 0.45359237;

export async function programsWithSpecies(deps: ServiceDeps<DbOrTx>, programs: ProgramRow[]) {
  const { db } = deps;
  const species = await repo.programSpecies(db, programs.map((p) => p.id));
  const names = await speciesRefs(deps.db, species.map((s) => s.speciesId));
  return programs.map((p) => ({ program: p, species: species.filter((s) => s.programId === p.id), names }));
}

/** The oldest year the minimums are confirmed for, and whether that is this year's (program years are calendar years). */
function dataYearOf(program: ProgramRow, species: ProgramSpeciesRow[], year: number) {
  if (species.length === 0) return { dataYear: null, dataStatus: ProgramDataStatusEnum.toApi('missing') };
  const dataYear = Math.min(...species.map((s) => s.dataYear ?? program.sourceYear));
  return { dataYear, dataStatus: ProgramDataStatusEnum.toApi(dataYear >= year ? 'current' : 'outdated') };
}

export function programView({ program, species, names }: Awaited<ReturnType<typeof programsWithSpecies>>[number], code: string, year = new Date().getUTCFullYear()) {
  return {
    id: program.id,
    state: code,
    name: program.name,
    url: program.url,
    sourceYear: program.sourceYear,
    ...dataYearOf(program, species, year),
    measurement: MeasurementEnum.toApi(program.measurement),
    lengthIncrementIn: program.lengthIncrementIn,
    rules: program.rules,
    awardLevels: program.awardLevels,
    isActive: program.isActive,
    species: species.map((s) => ({
      speciesId: s.speciesId,
      commonName: names.get(s.speciesId)?.commonName ?? '',
      category: CategoryEnum.toApi(s.category),
      minLengthIn: s.minLengthIn,
      minLengthCm: s.minLengthIn === null ? null : Math.round(s.minLengthIn * 25.4) / 10,
      minWeightLb: s.minWeightLb,
      minWeightKg: s.minWeightLb === null ? null : Math.round(s.minWeightLb * KG_PER_LB * 1000) / 1000,
      notes: s.notes,
      dataYear: s.dataYear,
      sourceUrl: s.sourceUrl,
    })),
  };
}

/** The programs of a state: `US-MN` or `MN`. */
export async function programsOfState(deps: ServiceDeps<DbOrTx>, stateId: string, now: Date = new Date()) {
  const { db } = deps;
  const code = normaliseStateCode(stateId);
  const jurisdiction = await activeJurisdiction(deps, code);
  if (!jurisdiction) throw RegulationErrors.unknownState(code);
  const programs = await programsWithSpecies(deps, await repo.programsOf(db, [jurisdiction.id]));
  return { state: code, name: jurisdiction.name, programs: programs.map((p) => programView(p, code, now.getUTCFullYear())) };
}

/** Length counted as the program counts it (Iowa: down to the quarter inch). */
function countedInches(lengthCm: number, program: ProgramRow): number {
  const inches = cmToInches(lengthCm);
  const step = program.lengthIncrementIn;
  return step ? Math.floor(inches / step + 1e-9) * step : inches;
}

/** How a catch meets a minimum, or null. */
function qualifies(program: ProgramRow, minimum: ProgramSpeciesRow, fish: { lengthCm: number | null; weightKg: number | null }): 'length' | 'weight' | null {
  const byLength = program.measurement !== 'weight' && minimum.minLengthIn !== null && fish.lengthCm !== null && countedInches(fish.lengthCm, program) >= minimum.minLengthIn;
  const byWeight = program.measurement !== 'length' && minimum.minWeightLb !== null && fish.weightKg !== null && fish.weightKg / KG_PER_LB >= minimum.minWeightLb;
  return byLength ? 'length' : byWeight ? 'weight' : null;
}

export interface EligibilityInput {
  speciesId: string;
  lengthCm: number | null;
  weightKg: number | null;
  /** The catch's state (ISO 3166-2) and the angler's home state (either form), if known. */
  stateCode?: string | null;
  /** The home state, or how to read it (read only when a program lists the species). */
  homeState?: string | null | (() => Promise<string | null>);
}

/** An active minimum of an active program of an active jurisdiction. */
interface CatalogMinimum {
  program: ProgramRow;
  minimum: ProgramSpeciesRow;
  /** The jurisdiction's code (ISO 3166-2). */
  state: string;
}

/**
 * The Master Angler minimums by species, for the eligibility check of every catch write: read in
 * one query and kept while this process listens on `fishlog_master_angler` (a trigger on programs,
 * minimums and jurisdictions notifies every process at commit; this process's own admin changes
 * also drop it at once, see `forgetMasterAnglerCatalog`). Without a listener (CLI) nothing is kept.
 */
export const MASTER_ANGLER_CHANNEL = 'fishlog_master_angler';

async function loadCatalog(deps: ServiceDeps<DbOrTx>): Promise<Map<string, CatalogMinimum[]>> {
  const { db } = deps;
  const rows = await db
    .select({ program: maPrograms, minimum: maProgramSpecies })
    .from(maProgramSpecies)
    .innerJoin(maPrograms, eq(maPrograms.id, maProgramSpecies.programId))
    .where(and(eq(maProgramSpecies.isActive, true), eq(maPrograms.isActive, true)))
    .orderBy(asc(maPrograms.name), asc(maProgramSpecies.id));
  const states = await jurisdictionCodes(deps, rows.map((r) => r.program.jurisdictionId), true);
  const bySpecies = new Map<string, CatalogMinimum[]>();
  for (const row of rows) {
    const state = states.get(row.program.jurisdictionId);
    if (state) bySpecies.set(row.minimum.speciesId, [...(bySpecies.get(row.minimum.speciesId) ?? []), { ...row, state }]);
  }
  return bySpecies;
}

const catalogKey = registryKey('master-angler.catalog', () => channelCache(MASTER_ANGLER_CHANNEL, loadCatalog));

/** The app's cached minimums; its `listen` keeps them while the server listens for their changes (close() on shutdown). */
export const masterAnglerCatalogOf = (deps: { registries: Registries }) => deps.registries.of(catalogKey);

/** Drops the app's cached minimums (after a change of programs, minimums or jurisdictions). */
export const forgetMasterAnglerCatalog = (deps: { registries: Registries }) => masterAnglerCatalogOf(deps).forget();

/**
 * Programs of the catch's state and the angler's home state whose minimum the catch meets. For the
 * fishing log to call when a catch is logged (the catch response then says it is eligible). No
 * query when no program lists the species (the minimums are cached, see above).
 */
export async function masterAnglerEligibility(deps: ServiceDeps<DbOrTx>, input: EligibilityInput) {
  const minimums = await masterAnglerCatalogOf(deps).get(deps);
  const candidates = minimums.get(input.speciesId) ?? [];
  if (candidates.length === 0) return [];
  const homeState = typeof input.homeState === 'function' ? await input.homeState() : input.homeState;
  const codes = new Set([input.stateCode, homeState].filter((c): c is string => !!c).map(normaliseStateCode));
  const out: Array<{ programId: string; programName: string; state: string; category: string; qualifiesBy: 'Length' | 'Weight'; minLengthIn: number | null; minWeightLb: number | null }> = [];
  for (const { program, minimum, state } of candidates) {
    if (!codes.has(state)) continue;
    const by = qualifies(program, minimum, input);
    if (by) out.push({ programId: program.id, programName: program.name, state, category: CategoryEnum.toApi(minimum.category), qualifiesBy: by === 'length' ? 'Length' : 'Weight', minLengthIn: minimum.minLengthIn, minWeightLb: minimum.minWeightLb });
  }
  return out;
}

export interface SubmitInput {
  programId: string;
  catchId: string;
  category?: 'any' | 'release' | 'harvest' | undefined;
  photoUrl?: string | undefined;
  witness?: string | undefined;
}

type Event = typeof maSubmissionEvents.$inferSelect;

function submissionView(row: SubmissionRow, events: Event[], programName: string, commonName: string) {
  return {
    id: row.id,
    programId: row.programId,
    programName,
    catchId: row.catchId,
    species: { id: row.speciesId, commonName },
    programYear: row.programYear,
    category: CategoryEnum.toApi(row.category),
    lengthCm: row.lengthCm,
    weightKg: row.weightKg,
    caughtAt: row.caughtAt.toISOString(),
    waterBody: row.waterBody,
    stateCode: row.stateCode,
    photoUrl: row.photoUrl,
    witness: row.witness,
    status: row.status,
    rejectionReason: row.rejectionReason,
    attempt: row.attempt,
    canResubmit: row.status === 'Rejected' && row.attempt < 2,
    history: events.map((e) => ({ status: e.status, reason: e.reason, at: e.at.toISOString(), byReviewer: e.actorId !== null && e.actorId !== row.userId })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function submissionViews(deps: ServiceDeps<DbOrTx>, rows: SubmissionRow[]) {
  const { db } = deps;
  const events = await repo.submissionEvents(db, rows.map((r) => r.id));
  const programs = new Map<string, string>();
  for (const id of new Set(rows.map((r) => r.programId))) programs.set(id, (await repo.findProgram(db, id))?.name ?? '');
  const names = await speciesRefs(deps.db, rows.map((r) => r.speciesId));
  return rows.map((r) => submissionView(r, events.filter((e) => e.submissionId === r.id), programs.get(r.programId)!, names.get(r.speciesId)?.commonName ?? ''));
}

function checkMeasure(program: ProgramRow, minimums: ProgramSpeciesRow[], fish: LoggedCatch, category: string | undefined) {
  const candidates = minimums.filter((m) => m.speciesId === fish.speciesId && (category === undefined || m.category === category || m.category === 'any'));
  if (candidates.length === 0) return null;
  for (const m of candidates) if (qualifies(program, m, fish)) return m;
  if (fish.lengthCm === null && fish.weightKg === null) throw MasterAnglerErrors.measureMissing('The catch has neither length nor weight: add the measurement to the catch first.');
  const m = candidates[0]!;
  const needs = [m.minLengthIn !== null ? `${m.minLengthIn}"` : null, m.minWeightLb !== null ? `${m.minWeightLb} lb` : null].filter(Boolean).join(' or ');
  throw MasterAnglerErrors.belowMinimum(`The catch does not reach the ${program.name} minimum (${needs}).`);
}

export async function submit(deps: ServiceDeps, source: CatchSource, viewer: Viewer, input: SubmitInput) {
  const { db } = deps;
  const fish = await source.visibleCatch(deps, viewer.userId, input.catchId);
  await authorize(masterAnglerCatchPolicy, viewer, 'submit', fish, deps, () => RegulationErrors.catchNotFound(input.catchId));
  const program = await repo.findProgram(db, input.programId);
  if (!program) throw RegulationErrors.badReference('/programId', 'refers to no Master Angler program');
  if (!program.isActive) throw MasterAnglerErrors.programInactive(program.id);
  const minimums = await repo.programSpecies(db, [program.id]);
  if (minimums.length === 0) throw MasterAnglerErrors.programHasNoMinimums(program.name, program.id);
  const minimum = checkMeasure(program, minimums, fish, input.category);
  if (!minimum) throw MasterAnglerErrors.notInProgram((await speciesRefs(deps.db, [fish.speciesId])).get(fish.speciesId)?.commonName ?? fish.speciesId, program.name);
  const id = uuidv7();
  const programYear = Number(localDate(fish.caughtAt, fish.timeZone).slice(0, 4));
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: maSubmissions.id })
      .from(maSubmissions)
      .where(and(eq(maSubmissions.userId, viewer.userId), eq(maSubmissions.programId, program.id), eq(maSubmissions.speciesId, fish.speciesId), eq(maSubmissions.programYear, programYear)));
    if (clash) throw MasterAnglerErrors.alreadySubmitted(clash.id);
    const inserted = await tx
      .insert(maSubmissions)
      .values({
        id,
        programId: program.id,
        userId: viewer.userId,
        catchId: fish.id,
        speciesId: fish.speciesId,
        programYear,
        category: input.category ?? minimum.category,
        lengthCm: fish.lengthCm,
        weightKg: fish.weightKg,
        caughtAt: fish.caughtAt,
        waterBody: fish.waterBody,
        stateCode: fish.stateCode,
        photoUrl: input.photoUrl ?? fish.photoUrls[0] ?? null,
        witness: input.witness ?? null,
        status: 'Submitted',
      })
      .onConflictDoNothing()
      .returning();
    // A parallel submission of the same species and year won the unique index.
    if (inserted.length === 0) throw MasterAnglerErrors.alreadySubmitted('submitted at the same time');
    await tx.insert(maSubmissionEvents).values({ id: uuidv7(), submissionId: id, status: 'Submitted', actorId: viewer.userId, evidence: { photoUrl: inserted[0]!.photoUrl, witness: inserted[0]!.witness } });
    return (await submissionViews(inTx(deps, tx), inserted))[0]!;
  });
}

export async function listMine(deps: ServiceDeps<DbOrTx>, userId: string, filter: { status?: SubmissionStatus | undefined; year?: number | undefined }, page: Page) {
  const { db } = deps;
  const where = and(eq(maSubmissions.userId, userId), filter.status ? eq(maSubmissions.status, filter.status) : undefined, filter.year ? eq(maSubmissions.programYear, filter.year) : undefined);
  const { items, total } = await repo.submissionsPage(db, where, page);
  return { items: await submissionViews(deps, items), total };
}

const record = (row: SubmissionRow) => ({ ...row, ownerId: row.userId });

export async function getMine(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string) {
  const { db } = deps;
  const found = await repo.findSubmission(db, id);
  await authorize(masterAnglerSubmissionPolicy, viewer, 'read', found && record(found), deps, () => MasterAnglerErrors.submissionNotFound(id));
  return (await submissionViews(deps, [found!]))[0]!;
}

export async function resubmit(deps: ServiceDeps, viewer: Viewer, id: string, evidence: { photoUrl?: string | undefined; witness?: string | undefined }) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const found = await repo.findSubmission(tx, id, true);
    await authorize(masterAnglerSubmissionPolicy, viewer, 'resubmit', found && record(found), inTx(deps, tx), () => MasterAnglerErrors.submissionNotFound(id));
    const row = found!;
    if (row.status !== 'Rejected') throw MasterAnglerErrors.badTransition(row.status, 'Submitted');
    if (row.attempt >= 2) throw MasterAnglerErrors.resubmitUsed();
    const [updated] = await tx
      .update(maSubmissions)
      .set({ status: 'Submitted', attempt: 2, rejectionReason: null, photoUrl: evidence.photoUrl ?? row.photoUrl, witness: evidence.witness ?? row.witness, updatedAt: new Date() })
      .where(eq(maSubmissions.id, id))
      .returning();
    await tx.insert(maSubmissionEvents).values({ id: uuidv7(), submissionId: id, status: 'Submitted', actorId: viewer.userId, reason: 'Resubmitted with new evidence', evidence });
    return (await submissionViews(inTx(deps, tx), [updated!]))[0]!;
  });
}

const TRANSITIONS: Record<SubmissionStatus, SubmissionStatus[]> = {
  Submitted: ['UnderReview', 'Approved', 'Rejected'],
  UnderReview: ['Approved', 'Rejected'],
  Approved: [],
  Rejected: [],
};

/** A reviewer's decision (admin, Regulations.Edit), audit-logged in the same transaction. */
export async function review(deps: ServiceDeps, context: AuditContext, id: string, to: 'UnderReview' | 'Approved' | 'Rejected', reason: string | undefined) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await repo.findSubmission(tx, id, true);
    if (!row) throw MasterAnglerErrors.submissionNotFound(id);
    if (!TRANSITIONS[row.status].includes(to)) throw MasterAnglerErrors.badTransition(row.status, to);
    const [updated] = await tx
      .update(maSubmissions)
      .set({ status: to, rejectionReason: to === 'Rejected' ? (reason ?? null) : null, updatedAt: new Date() })
      .where(eq(maSubmissions.id, id))
      .returning();
    await tx.insert(maSubmissionEvents).values({ id: uuidv7(), submissionId: id, status: to, reason: reason ?? null, actorId: context.actor.userId ?? null });
    await recordAudit(inTx(deps, tx), context, { action: `regulations.submission_${to === 'UnderReview' ? 'review_started' : to.toLowerCase()}`, targetType: 'master_angler_submission', targetId: id, reason: reason ?? null, before: { status: row.status }, after: { status: to } });
    if (to !== 'UnderReview') {
      const approved = to === 'Approved';
      await notify(tx, {
        type: 'masterangler.submission_decided',
        path: `/api/regulations/master-angler/submissions/${id}`,
        payload: { id, status: to },
        recipients: [{ userId: row.userId, title: approved ? 'Master Angler catch approved' : 'Master Angler catch rejected', body: approved ? 'Your Master Angler submission was approved.' : `Your Master Angler submission was rejected${reason ? `: ${reason}` : ''}. You can resubmit it.` }],
      });
    }
    return (await submissionViews(inTx(deps, tx), [updated!]))[0]!;
  });
}

export async function listForReview(deps: ServiceDeps<DbOrTx>, filter: { status?: SubmissionStatus | undefined; programId?: string | undefined }, page: Page) {
  const { db } = deps;
  const where = and(filter.status ? eq(maSubmissions.status, filter.status) : undefined, filter.programId ? eq(maSubmissions.programId, filter.programId) : undefined);
  const { items, total } = await repo.submissionsPage(db, where, page);
  return { items: (await submissionViews(deps, items)).map((v, i) => ({ ...v, userId: items[i]!.userId })), total };
}

/** The caller's level per program and year, from approved submissions. */
export async function progress(deps: ServiceDeps<DbOrTx>, userId: string, year: number | undefined) {
  const { db } = deps;
  const approved = await repo.approvedOf(db, userId, year);
  const keys = new Map<string, { programId: string; programYear: number; species: Set<string> }>();
  for (const a of approved) {
    const key = `${a.programId}:${a.programYear}`;
    if (!keys.has(key)) keys.set(key, { programId: a.programId, programYear: a.programYear, species: new Set() });
    keys.get(key)!.species.add(a.speciesId);
  }
  const out = [];
  for (const k of keys.values()) {
    const program = (await repo.findProgram(db, k.programId))!;
    const levels = [...program.awardLevels].sort((a, b) => a.speciesCount - b.speciesCount);
    const reached = levels.filter((l) => l.speciesCount <= k.species.size).at(-1) ?? null;
    const next = levels.find((l) => l.speciesCount > k.species.size) ?? null;
    out.push({
      programId: program.id,
      programName: program.name,
      programYear: k.programYear,
      approvedSpecies: k.species.size,
      level: reached?.name ?? null,
      nextLevel: next ? { name: next.name, speciesNeeded: next.speciesCount - k.species.size } : null,
    });
  }
  return out.sort((a, b) => b.programYear - a.programYear || a.programName.localeCompare(b.programName));
}

/** The jurisdictions' admin usage: active programs per jurisdiction (registered in master-angler.module.ts). */
export const programsByJurisdiction = repo.activeProgramsByJurisdiction;
