import { relationshipsOf } from '../../core/access/visibility.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { isActiveSpecies } from '../species/index.js';
import type { DbOrTx } from '../../core/db/client.js';
import { notify } from '../../core/notifications/outbox.js';
import { authorize, isOwner } from '../../core/access/policy.js';
import { personalBestCriterionPolicy, personalBestPolicy } from '../../core/access/policies/personal-bests.js';
import type { Page } from '../../core/http/pagination.js';
import { requireVisibleProfile } from '../profiles/profiles.service.js';
import { PersonalBestErrors } from './personal-bests.errors.js';
import * as criteriaRepo from './personal-best-criteria.repository.js';
import * as repo from './personal-bests.repository.js';
import { MeasureEnum, UNIT_OF, type Measure } from './personal-bests.schemas.js';

/**
 * Personal bests. Each criterion of a user (species, weight or length, optional water body,
 * state, released only) has at most one best in force: the catch with the largest measure; a
 * tie goes to the earliest catch (by caughtAt, then id), so an equal fish caught later never
 * replaces the record holder. Bests are kept as history (beaten / withdrawn rows with a link
 * to the best they replaced), re-evaluated whenever the owner's catches change.
 */

export const MAX_CRITERIA_PER_USER = 100;

export interface PersonalBestChange {
  criterionId: string;
  personalBestId: string;
  catchId: string;
  /** The catch that was the best until now (null: none, or it was deleted). */
  previousCatchId: string | null;
  /** new_best: a catch beat (or set) the best; fallback: the best was edited down, stopped matching or was deleted. */
  kind: 'NewBest' | 'Fallback';
}

/**
 * Takes the per-user personal-best lock (transaction-scoped, re-entrant). Call it at the start of
 * a transaction that changes or deletes catches, before touching them: a deletion that already
 * holds a catch row while waiting for this lock could otherwise deadlock with a re-evaluation
 * that references that catch. reevaluatePersonalBests takes it too.
 */
export async function lockPersonalBests(deps: ServiceDeps<DbOrTx>, ownerId: string): Promise<void> {
  const { db: tx } = deps;
  await repo.lockOwner(tx, ownerId);
}

/**
 * The same lock taken by a statement of another module on its way (one round trip for both): the
 * SQL expression (void) that takes the lock of the owner given as `owner`, for that statement to
 * evaluate before it touches any row (e.g. an uncorrelated condition, which PostgreSQL checks once
 * before the scan). After the statement, `personalBestsLocked` records that the transaction holds it.
 */
export const personalBestLockSql = repo.ownerLockSql;

/** Records that `tx` took the lock of `ownerId` through `personalBestLockSql` (lockPersonalBests then costs nothing). */
export function personalBestsLocked(deps: ServiceDeps<DbOrTx>, ownerId: string): void {
  const { db: tx } = deps;
  repo.ownerLocked(tx, ownerId);
}

/** Whether catch `a` is a better best than `b`: larger; on a tie, caught earlier (then the smaller id). */
function beats(a: repo.BestCatch, b: repo.BestCatch): boolean {
  if (a.value !== b.value) return a.value > b.value;
  if (a.caughtAt.getTime() !== b.caughtAt.getTime()) return a.caughtAt < b.caughtAt;
  return a.catchId < b.catchId;
}

/**
 * Brings the best in force of each of `criterionIds` to `bests` (the best catch of each; absent:
 * none qualifies), given the rows in force now, and returns the criteria whose best catch changed.
 * The ultimate flag follows its criterion to the new best; it is dropped when no catch qualifies.
 */
async function settle(deps: ServiceDeps<DbOrTx>, ownerId: string, criterionIds: string[], bests: Map<string, repo.BestCatch>, currents: Map<string, repo.CurrentRow>): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  const now = new Date();
  const changes: PersonalBestChange[] = [];
  for (const criterionId of [...new Set(criterionIds)].sort()) {
    const best = bests.get(criterionId);
    const current = currents.get(criterionId);
    if (!best) {
      if (current) await repo.endRow(tx, current.id, 'withdrawn', now);
      continue;
    }
    if (current && current.catchId === best.catchId) {
      if (current.value !== best.value || current.caughtAt.getTime() !== best.caughtAt.getTime()) {
        await repo.refreshSnapshot(tx, current.id, best.value, best.caughtAt);
      }
      continue;
    }
    // A different catch is now the best: the old one was beaten, unless it was itself edited
    // below its record, stopped matching or was deleted (then it is withdrawn: a fallback).
    const beaten = current !== undefined && current.catchValue !== null && current.catchValue >= current.value;
    if (current) await repo.endRow(tx, current.id, beaten ? 'beaten' : 'withdrawn', now);
    const previousId = await repo.previousFor(tx, criterionId, best.catchId, best.value);
    const personalBestId = await repo.insertCurrent(tx, {
      ownerId,
      criterionId,
      catchId: best.catchId,
      value: best.value,
      caughtAt: best.caughtAt,
      previousId,
      isUltimate: current?.isUltimate ?? false,
      at: now,
    });
    changes.push({
      criterionId,
      personalBestId,
      catchId: best.catchId,
      previousCatchId: current?.catchId ?? null,
      kind: current === undefined || beaten || best.value > current.value ? 'NewBest' : 'Fallback',
    });
  }
  const newBests = changes.filter((change) => change.kind === 'NewBest');
  if (newBests.length > 0) {
    // In-app only (never mailed): the owner's own log.
    await notify(tx, {
      type: 'personalbests.new',
      path: '/api/personalbest/me',
      payload: { ownerId, personalBests: newBests.map((change) => ({ id: change.personalBestId, criterionId: change.criterionId })) },
      recipients: [{ userId: ownerId, title: 'New personal best', body: newBests.length === 1 ? 'A catch of yours is a new personal best.' : `Catches of yours set ${newBests.length} new personal bests.` }],
    });
  }
  return changes;
}

/**
 * Re-evaluates the criteria of `ownerId` in `scope` (all of them without one) by a scan of their
 * catches, inside the caller's transaction, and returns the criteria whose best catch changed.
 * For what a new catch cannot decide alone: a best in force changed or deleted, an entry's water
 * or state changed, a new criterion. Takes the per-user transaction-scoped advisory lock, so
 * concurrent changes of one user's catches and ultimate choice are applied one after the other.
 */
export async function reevaluatePersonalBests(deps: ServiceDeps<DbOrTx>, ownerId: string, scope?: repo.EvaluationScope): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  await repo.lockOwner(tx, ownerId);
  const [bests, currents] = await Promise.all([repo.bestCatches(tx, ownerId, scope), repo.currentRows(tx, ownerId, scope)]);
  return settle(deps, ownerId, [...bests.keys(), ...currents.keys()], bests, currents);
}

/**
 * A catch that is not the best in force of any criterion (new, or changed): compared with the best
 * in force of each criterion it counts for, without scanning the owner's log. A best in force whose
 * snapshot no longer matches its catch (not expected: every change re-evaluates) is rescanned.
 */
async function compareWithBests(deps: ServiceDeps<DbOrTx>, ownerId: string, criteria: readonly repo.BestCatch[], skip: readonly string[] = []): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  const candidates = criteria.filter((c) => !skip.includes(c.criterionId));
  if (candidates.length === 0) return [];
  const criterionIds = candidates.map((c) => c.criterionId);
  const currents = await repo.currentRows(tx, ownerId, { criterionIds });
  const stale = criterionIds.filter((id) => {
    const current = currents.get(id);
    return current !== undefined && (current.catchId === null || current.catchValue !== current.value);
  });
  const bests = new Map<string, repo.BestCatch>();
  for (const candidate of candidates) {
    const current = currents.get(candidate.criterionId);
    if (stale.includes(candidate.criterionId)) continue;
    // Several new catches of one criterion (a batch): the best of them and the best in force.
    const held = bests.get(candidate.criterionId) ?? (current && current.catchId ? { criterionId: current.criterionId, catchId: current.catchId, value: current.value, caughtAt: current.caughtAt } : undefined);
    bests.set(candidate.criterionId, held && !beats(candidate, held) ? held : candidate);
  }
  const changes = await settle(deps, ownerId, [...bests.keys()], bests, currents);
  return stale.length === 0 ? changes : [...changes, ...(await reevaluatePersonalBests(deps, ownerId, { criterionIds: stale }))];
}

/** The criteria catches count for, with the measure of each catch for each (what `evaluateNewCatch` compares). */
export type CatchCriteria = readonly repo.BestCatch[];

/**
 * Reads the criteria the catches `catchIds` count for. A caller that adds catches may start this read
 * before the INSERT's answer arrives (pipelined on the transaction's connection, issued right
 * after the statement that inserts the catches): PostgreSQL runs them in order, so the read sees
 * the catches and the bests as they are under the lock.
 */
export function criteriaOfCatches(deps: ServiceDeps<DbOrTx>, catchIds: readonly string[]): Promise<CatchCriteria> {
  const { db: tx } = deps;
  return repo.criteriaOfCatches(tx, catchIds);
}

/**
 * After catches were added (in the caller's transaction, which holds the personal-best lock, see
 * `personalBestLockSql`): the personal bests they set, given their `criteria` (`criteriaOfCatches`).
 * Several new catches of one criterion are compared together: the best of them (and of the best in
 * force) is the best, one change and one notification for the batch.
 */
export async function evaluateNewCatch(deps: ServiceDeps<DbOrTx>, ownerId: string, criteria: CatchCriteria): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  await repo.lockOwner(tx, ownerId);
  return compareWithBests(deps, ownerId, criteria);
}

/**
 * After a catch was changed: the criteria whose best in force it is are rescanned (it may have
 * dropped below the next best or stopped matching); for the others it is compared like a new catch.
 */
export async function evaluateChangedCatch(deps: ServiceDeps<DbOrTx>, ownerId: string, catchId: string): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  await repo.lockOwner(tx, ownerId);
  const held = await repo.criteriaHeldBy(tx, [catchId]);
  const rescanned = held.length === 0 ? [] : await reevaluatePersonalBests(deps, ownerId, { criterionIds: held });
  return [...rescanned, ...(await compareWithBests(deps, ownerId, await repo.criteriaOfCatches(tx, [catchId]), held))];
}

/**
 * Deletes catches through `remove` and re-evaluates the criteria whose best in force was one of
 * them (the next best takes over, or the best is withdrawn), in the caller's transaction.
 */
export async function withCatchesRemoved(deps: ServiceDeps<DbOrTx>, ownerId: string, catchIds: readonly string[], remove: () => Promise<void>): Promise<PersonalBestChange[]> {
  const { db: tx } = deps;
  await repo.lockOwner(tx, ownerId);
  const held = catchIds.length === 0 ? [] : await repo.criteriaHeldBy(tx, catchIds);
  await remove();
  return held.length === 0 ? [] : reevaluatePersonalBests(deps, ownerId, { criterionIds: held });
}

// ---- views ------------------------------------------------------------------------------------

function criterionView(criterion: { id: string; measure: Measure; waterBody: string | null; stateCode: string | null; releasedOnly: boolean }, species: { id: string; commonName: string }) {
  return {
    id: criterion.id,
    species,
    measure: MeasureEnum.toApi(criterion.measure),
    unit: UNIT_OF[criterion.measure],
    waterBody: criterion.waterBody,
    stateCode: criterion.stateCode,
    releasedOnly: criterion.releasedOnly,
  };
}

/** `ownView`: the owner also sees the previous best (which may come from an entry others cannot see). */
function personalBestView(row: repo.PersonalBestView, ownView = true) {
  return {
    id: row.id,
    criterion: criterionView(row.criterion, row.species),
    value: row.value,
    unit: UNIT_OF[row.criterion.measure],
    caughtAt: row.caughtAt.toISOString(),
    achievedAt: row.achievedAt.toISOString(),
    isUltimate: row.isUltimate,
    catch: {
      id: row.catch.id,
      lengthCm: row.catch.lengthCm,
      weightKg: row.catch.weightKg,
      released: row.catch.released,
      caughtAt: row.catch.caughtAt.toISOString(),
      entry: row.entryVisible ? row.entry : null,
    },
    previous: row.previous && ownView
      ? {
          id: row.previous.id,
          catchId: row.previous.catchId,
          value: row.previous.value,
          caughtAt: row.previous.caughtAt.toISOString(),
          achievedAt: row.previous.achievedAt.toISOString(),
        }
      : null,
  };
}

function criterionListView(row: criteriaRepo.CriterionView) {
  return {
    ...criterionView(row, row.species),
    createdAt: row.createdAt.toISOString(),
    currentBest:
      row.best && row.best.catchId
        ? {
            personalBestId: row.best.personalBestId,
            catchId: row.best.catchId,
            value: row.best.value,
            caughtAt: row.best.caughtAt.toISOString(),
            achievedAt: row.best.achievedAt.toISOString(),
          }
        : null,
  };
}

// ---- personal bests ---------------------------------------------------------------------------

export async function listMyPersonalBests(deps: ServiceDeps, ownerId: string, filter: repo.PbFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listCurrent(db, relationshipsOf(deps), ownerId, ownerId, filter, page);
  return { items: items.map((row) => personalBestView(row)), total };
}

/** Another user's personal bests, if their profile's visibility admits the viewer. */
export async function listPersonalBestsOf(deps: ServiceDeps, viewerId: string, ownerId: string, filter: repo.PbFilter, page: Page) {
  const { db } = deps;
  await requireVisibleProfile(deps, viewerId, ownerId);
  const { items, total } = await repo.listCurrent(db, relationshipsOf(deps), viewerId, ownerId, filter, page);
  return { items: items.map((row) => personalBestView(row, isOwner(viewerId, { ownerId }))), total };
}

export async function ultimateOf(deps: ServiceDeps, viewerId: string, ownerId: string) {
  const { db } = deps;
  await requireVisibleProfile(deps, viewerId, ownerId);
  const row = await repo.findUltimateView(db, relationshipsOf(deps), viewerId, ownerId);
  if (!row) throw PersonalBestErrors.ultimateNotSet();
  return personalBestView(row, isOwner(viewerId, { ownerId }));
}

/**
 * Makes one of the caller's personal bests in force their ultimate one. The per-user lock
 * serialises concurrent calls; the partial unique index personal_bests_one_ultimate_per_owner
 * guarantees at most one ultimate per user whatever happens.
 */
export async function setUltimate(deps: ServiceDeps, viewerId: string, pbId: string) {
  const { db } = deps;
  await authorize(personalBestPolicy, viewerId, 'setUltimate', await repo.findById(db, pbId), deps, () => PersonalBestErrors.notFound(pbId));
  return db.transaction(async (tx) => {
    await repo.lockOwner(tx, viewerId);
    const row = await repo.findById(tx, pbId);
    if (!row) throw PersonalBestErrors.notFound(pbId);
    if (row.status !== 'current' || row.catchId === null) throw PersonalBestErrors.notCurrent();
    if (!row.isUltimate) await repo.makeUltimate(tx, viewerId, pbId);
    const view = await repo.findView(tx, relationshipsOf(deps), viewerId, pbId);
    if (!view) throw PersonalBestErrors.notCurrent();
    return personalBestView(view);
  });
}

// ---- criteria ---------------------------------------------------------------------------------

export async function listCriteria(deps: ServiceDeps, ownerId: string, filter: repo.PbFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await criteriaRepo.listCriteria(db, ownerId, filter, page);
  return { items: items.map(criterionListView), total };
}

export interface CriterionInput {
  speciesId: string;
  measure: Measure;
  waterBody?: string | null | undefined;
  stateCode?: string | null | undefined;
  releasedOnly?: boolean | undefined;
}

/** Creates a criterion and evaluates it at once against the existing catches. */
export async function createCriterion(deps: ServiceDeps, ownerId: string, input: CriterionInput) {
  const { db } = deps;
  if (!(await isActiveSpecies(db, input.speciesId))) throw PersonalBestErrors.unknownSpecies(input.speciesId);
  const criterion: criteriaRepo.NewCriterion = {
    ownerId,
    speciesId: input.speciesId,
    measure: input.measure,
    waterBody: input.waterBody?.trim() || null,
    stateCode: input.stateCode ? input.stateCode.toUpperCase() : null,
    releasedOnly: input.releasedOnly ?? false,
  };
  return db.transaction(async (tx) => {
    await repo.lockOwner(tx, ownerId);
    const existing = await criteriaRepo.findIdentical(tx, criterion);
    if (existing) throw PersonalBestErrors.duplicateCriterion(existing);
    if ((await criteriaRepo.countCriteria(tx, ownerId)) >= MAX_CRITERIA_PER_USER) throw PersonalBestErrors.tooManyCriteria(MAX_CRITERIA_PER_USER);
    const id = await criteriaRepo.insertCriterion(tx, criterion);
    if (!id) throw PersonalBestErrors.duplicateCriterion((await criteriaRepo.findIdentical(tx, criterion)) ?? 'unknown');
    await reevaluatePersonalBests(inTx(deps, tx), ownerId);
    return criterionListView((await criteriaRepo.findCriterionView(tx, id))!);
  });
}

/** Deletes a criterion of the caller with its personal-best history (and the ultimate flag, if it was there). */
export async function deleteCriterion(deps: ServiceDeps, ownerId: string, criterionId: string): Promise<void> {
  const { db } = deps;
  await authorize(personalBestCriterionPolicy, ownerId, 'delete', await criteriaRepo.findCriterion(db, criterionId), deps, () => PersonalBestErrors.criterionNotFound(criterionId));
  await db.transaction(async (tx) => {
    await repo.lockOwner(tx, ownerId);
    await criteriaRepo.deleteCriterion(tx, criterionId);
  });
}
