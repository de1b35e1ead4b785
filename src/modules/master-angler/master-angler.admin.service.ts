import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { eq } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import { setActive, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx, Tx } from '../../core/db/client.js';
import type { FieldError } from '../../core/http/problem.js';
import { applyChange, type MergePatch } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import type { Static } from 'typebox';
import { ProgramBody, updateProgramFromApi } from './master-angler.schemas.js';
import { speciesRefs } from '../species/species.service.js';
import { forgetMasterAnglerCatalog, programsWithSpecies, programView } from './master-angler.service.js';
import { RegulationErrors } from '../regulations/index.js';
import { jurisdictionCodes, lockJurisdictionForReference } from '../regulations/regulations.service.js';
import { MasterAnglerErrors } from './master-angler.errors.js';
import * as repo from './master-angler.repository.js';
import { maProgramRevisions, maProgramSpecies, maPrograms, type AwardLevel, type ProgramRow, type ProgramSpeciesRow } from './master-angler.tables.js';
import { pascalCase } from '../../core/http/enums.js';

/**
 * Administration of Master Angler programs (Regulations.Edit). A program is one record across the
 * years, edited in place with its history: every change increments `revision` and stores the
 * program's full state after the change (species minimums included) in ma_program_revisions, with
 * who, when and why, in the transaction that changes it (and the audit log). Submissions keep
 * their own measurements and program year, so a later change of a minimum never rewrites them.
 */

type Category = 'any' | 'release' | 'harvest';
export interface ProgramSpeciesInput {
  speciesId: string;
  category?: Category | undefined;
  minLengthIn?: number | null | undefined;
  minWeightLb?: number | null | undefined;
  notes?: string | null | undefined;
  dataYear?: number | null | undefined;
  sourceUrl?: string | null | undefined;
}

export interface ProgramFields {
  name: string;
  url: string;
  sourceYear: number;
  measurement: 'length' | 'weight' | 'either';
  lengthIncrementIn?: number | null | undefined;
  rules?: string | null | undefined;
  awardLevels: AwardLevel[];
  species: ProgramSpeciesInput[];
}
export interface ProgramInput extends ProgramFields {
  jurisdictionId: string;
  reason: string;
}
export type ProgramChanges = Partial<ProgramFields> & { reason: string };

const field = (pointer: string, detail: string): FieldError => ({ pointer, in: 'body', detail });

function programProblems(measurement: ProgramFields['measurement'], levels: AwardLevel[] | undefined, species: ProgramSpeciesInput[] | undefined): FieldError[] {
  const problems: FieldError[] = [];
  const levelNames = new Set<string>();
  (levels ?? []).forEach((l, i) => {
    if (levelNames.has(l.name.toLowerCase())) problems.push(field(`/awardLevels/${i}/name`, 'names a level listed before'));
    levelNames.add(l.name.toLowerCase());
  });
  const keys = new Set<string>();
  (species ?? []).forEach((s, i) => {
    const key = `${s.speciesId}:${s.category ?? 'any'}`;
    if (keys.has(key)) problems.push(field(`/species/${i}`, 'lists a species and category listed before'));
    keys.add(key);
    const length = s.minLengthIn ?? null;
    const weight = s.minWeightLb ?? null;
    if (measurement === 'length' && length === null) problems.push(field(`/species/${i}/minLengthIn`, 'is required: the program measures length'));
    else if (measurement === 'weight' && weight === null) problems.push(field(`/species/${i}/minWeightLb`, 'is required: the program measures weight'));
    else if (length === null && weight === null) problems.push(field(`/species/${i}`, 'needs minLengthIn or minWeightLb'));
  });
  return problems;
}

async function assertSpecies(deps: ServiceDeps<DbOrTx>, species: ProgramSpeciesInput[] | undefined, kept: ReadonlySet<string>) {
  if (!species?.length) return;
  const found = await speciesRefs(deps.db, species.map((s) => s.speciesId));
  species.forEach((s, i) => {
    const row = found.get(s.speciesId);
    if (!row) throw RegulationErrors.badReference(`/species/${i}/speciesId`, 'refers to no species');
    if (!row.isActive && !kept.has(s.speciesId)) throw RegulationErrors.badReference(`/species/${i}/speciesId`, 'refers to a deactivated species');
  });
}

async function isDuplicateName(deps: ServiceDeps<Tx>, jurisdictionId: string, name: string, except: string | null) {
  const { db: tx } = deps;
  const rows = await repo.programsOf(tx, [jurisdictionId], false);
  return rows.some((p) => p.id !== except && p.name.toLowerCase() === name.toLowerCase());
}

/** Makes the program's active species minimums exactly `species`: updates, inserts, reactivates, deactivates. */
async function syncSpecies(deps: ServiceDeps<Tx>, programId: string, species: ProgramSpeciesInput[], actor: string | null, reason: string) {
  const { db: tx } = deps;
  const existing = await tx.select().from(maProgramSpecies).where(eq(maProgramSpecies.programId, programId));
  const wanted = new Set<string>();
  for (const s of species) {
    const category = s.category ?? 'any';
    wanted.add(`${s.speciesId}:${category}`);
    const values = { minLengthIn: s.minLengthIn ?? null, minWeightLb: s.minWeightLb ?? null, notes: s.notes ?? null, dataYear: s.dataYear ?? null, sourceUrl: s.sourceUrl ?? null };
    const row = existing.find((e) => e.speciesId === s.speciesId && e.category === category);
    if (row) {
      await tx
        .update(maProgramSpecies)
        .set({ ...values, isActive: true, deactivatedAt: null, deactivatedBy: null, deactivationReason: null, updatedAt: new Date() })
        .where(eq(maProgramSpecies.id, row.id));
    } else {
      await tx.insert(maProgramSpecies).values({ id: uuidv7(), programId, speciesId: s.speciesId, category, ...values });
    }
  }
  for (const row of existing) {
    if (row.isActive && !wanted.has(`${row.speciesId}:${row.category}`)) {
      await tx
        .update(maProgramSpecies)
        .set({ isActive: false, deactivatedAt: new Date(), deactivatedBy: actor, deactivationReason: reason, updatedAt: new Date() })
        .where(eq(maProgramSpecies.id, row.id));
    }
  }
}

async function snapshotOf(deps: ServiceDeps<DbOrTx>, program: ProgramRow) {
  const code = (await jurisdictionCodes(deps, [program.jurisdictionId])).get(program.jurisdictionId);
  return programView((await programsWithSpecies(deps, [program]))[0]!, code ?? '');
}

async function adminProgramViews(deps: ServiceDeps<DbOrTx>, programs: ProgramRow[], usage: Map<string, repo.ProgramUsage>) {
  const codes = await jurisdictionCodes(deps, programs.map((p) => p.jurisdictionId));
  return (await programsWithSpecies(deps, programs)).map((p) => ({
    ...programView(p, codes.get(p.program.jurisdictionId) ?? ''),
    jurisdictionId: p.program.jurisdictionId,
    revision: p.program.revision,
    deactivationReason: p.program.deactivationReason,
    createdAt: p.program.createdAt.toISOString(),
    updatedAt: p.program.updatedAt.toISOString(),
    usage: usage.get(p.program.id) ?? { submissions: 0, pending: 0, approved: 0, anglers: 0 },
  }));
}

async function adminProgram(deps: ServiceDeps<DbOrTx>, id: string) {
  const { db } = deps;
  const program = await repo.findProgram(db, id);
  if (!program) throw MasterAnglerErrors.programNotFound(id);
  return (await adminProgramViews(deps, [program], new Map([[id, await repo.programUsageOf(db, id)]])))[0]!;
}

async function writeRevision(deps: ServiceDeps<Tx>, context: AuditContext, program: ProgramRow, reason: string, action: string, before: unknown) {
  const { db: tx } = deps;
  const snapshot = await snapshotOf(deps, program);
  await tx.insert(maProgramRevisions).values({ id: uuidv7(), programId: program.id, revision: program.revision, snapshot, reason, actorId: context.actor.userId ?? null });
  await recordAudit(inTx(deps, tx), context, { action, targetType: 'ma_program', targetId: program.id, reason, before, after: { revision: program.revision, ...snapshot } });
}

export async function createProgram(deps: ServiceDeps, context: AuditContext, input: ProgramInput) {
  const { db } = deps;
  const problems = programProblems(input.measurement, input.awardLevels, input.species);
  if (problems.length) throw MasterAnglerErrors.invalidProgram(problems);
  await assertSpecies(deps, input.species, new Set());
  const id = await db.transaction(async (tx) => {
    // The jurisdiction's row lock serializes program creation (the name is unique per jurisdiction).
    if (!(await lockJurisdictionForReference(inTx(deps, tx), input.jurisdictionId))) throw RegulationErrors.badReference('/jurisdictionId', 'refers to no jurisdiction');
    if (await isDuplicateName(inTx(deps, tx), input.jurisdictionId, input.name, null)) throw MasterAnglerErrors.duplicateProgram(input.name);
    const actor = context.actor.userId ?? null;
    const [program] = await tx
      .insert(maPrograms)
      .values({
        id: uuidv7(),
        jurisdictionId: input.jurisdictionId,
        name: input.name,
        url: input.url,
        sourceYear: input.sourceYear,
        measurement: input.measurement,
        lengthIncrementIn: input.lengthIncrementIn ?? null,
        rules: input.rules ?? null,
        awardLevels: input.awardLevels,
        createdBy: actor,
        updatedBy: actor,
        revision: 1,
      })
      .returning();
    await syncSpecies(inTx(deps, tx), program!.id, input.species, actor, input.reason);
    await writeRevision(inTx(deps, tx), context, program!, input.reason, 'regulations.ma_program_created', null);
    return program!.id;
  });
  forgetMasterAnglerCatalog(deps); // at once here; other processes hear the trigger's NOTIFY
  return adminProgram(deps, id);
}

/**
 * Changes the given fields; `species`, when given, is the complete new list of minimums (species
 * left out are deactivated, kept for history). The seed leaves the program alone from then on.
 */
/** A program as the body its patches merge onto (no reason: a patch must bring its own). */
function programAsBody(row: ProgramRow, species: ProgramSpeciesRow[]) {
  const { name, url, sourceYear, measurement, lengthIncrementIn, rules, awardLevels } = row;
  return {
    ...{ name, url, sourceYear, measurement, lengthIncrementIn, rules, awardLevels },
    species: species.map(({ speciesId, category, minLengthIn, minWeightLb, notes, dataYear, sourceUrl }) => ({ speciesId, category, minLengthIn, minWeightLb, notes, dataYear, sourceUrl })),
    reason: '',
  };
}

/** A JSON Merge Patch of a program (with its `reason`): merged onto the program and validated as a whole; the fields sent change. */
export async function updateProgram(deps: ServiceDeps, context: AuditContext, id: string, patch: MergePatch) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(maPrograms).where(eq(maPrograms.id, id)).for('update');
    if (!row) throw MasterAnglerErrors.programNotFound(id);
    const current = await repo.programSpecies(tx, [id]);
    const merged = applyChange<Static<typeof ProgramBody>>({ patch }, ProgramBody, () => programAsBody(row, current));
    // The fields sent, as merged and validated (a null clears: the merge drops the key).
    const sent = Object.fromEntries(Object.keys(patch).map((k) => [k, patch[k] === null ? null : merged[k as keyof typeof merged]]));
    const input: ProgramChanges = updateProgramFromApi({ ...sent, reason: merged.reason });
    const { reason, species, ...changes } = input;
    const measurement = changes.measurement ?? row.measurement;
    const problems = programProblems(
      measurement,
      changes.awardLevels,
      species ?? (changes.measurement ? current.map((s) => ({ ...s, category: s.category })) : undefined),
    );
    if (problems.length) throw MasterAnglerErrors.invalidProgram(problems);
    await assertSpecies(inTx(deps, tx), species, new Set(current.map((s) => s.speciesId)));
    if (changes.name && (await isDuplicateName(inTx(deps, tx), row.jurisdictionId, changes.name, id))) throw MasterAnglerErrors.duplicateProgram(changes.name);
    const before = await snapshotOf(inTx(deps, tx), row);
    const actor = context.actor.userId ?? null;
    const [updated] = await tx
      .update(maPrograms)
      .set({ ...changes, revision: row.revision + 1, updatedBy: actor, updatedAt: new Date() })
      .where(eq(maPrograms.id, id))
      .returning();
    if (species) await syncSpecies(inTx(deps, tx), id, species, actor, reason);
    await writeRevision(inTx(deps, tx), context, updated!, reason, 'regulations.ma_program_updated', { revision: row.revision, ...before });
  });
  forgetMasterAnglerCatalog(deps);
  return adminProgram(deps, id);
}

export async function listPrograms(deps: ServiceDeps<DbOrTx>, filter: repo.ProgramFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.programsPage(db, filter, page);
  const programs = await Promise.all(items.map(async (i) => (await repo.findProgram(db, i.id))!));
  const views = await adminProgramViews(deps, programs, new Map(items.map(({ id, ...usage }) => [id, usage])));
  return { items: views, total };
}

/** A revision's snapshot in today's spelling (revisions written before the PascalCase values kept the older ones). */
function snapshotView(snapshot: ReturnType<typeof programView>): ReturnType<typeof programView> {
  return {
    ...snapshot,
    measurement: pascalCase(snapshot.measurement) as typeof snapshot.measurement,
    species: snapshot.species.map((s) => ({ ...s, category: pascalCase(s.category) as typeof s.category })),
  };
}

export async function programRevisions(deps: ServiceDeps<DbOrTx>, id: string, page: Page) {
  const { db } = deps;
  if (!(await repo.findProgram(db, id))) throw MasterAnglerErrors.programNotFound(id);
  const { items, total } = await repo.programRevisionsPage(db, id, page);
  return { items: items.map((r) => ({ revision: r.revision, at: r.at.toISOString(), actorId: r.actorId, reason: r.reason, program: snapshotView(r.snapshot as ReturnType<typeof programView>) })), total };
}

/** Deactivation of a program instead of deletion (and back), with the reason in the row and the audit log. */
export async function setProgramActive(deps: ServiceDeps, context: AuditContext, id: string, active: boolean, reason: string | undefined) {
  const result = await setActive(deps, context, programLifecycle, id, active, reason);
  forgetMasterAnglerCatalog(deps); // programs decide eligibility (other processes: NOTIFY)
  return result;
}

const programLifecycle: Lifecycle<{ isActive: boolean; deactivationReason: string | null }, { id: string; isActive: boolean; deactivationReason: string | null }> = {
  lock: (tx, id) => repo.lockProgram(tx, id),
  update: (tx, id, values) => repo.updateProgramState(tx, id, values),
  view: async ({ db }, id) => {
    const row = (await repo.findProgram(db, id))!;
    return { id, isActive: row.isActive, deactivationReason: row.deactivationReason };
  },
  notFound: MasterAnglerErrors.programNotFound,
  alreadyActive: (id) => RegulationErrors.alreadyInState('Program', id, true),
  alreadyInactive: (id) => RegulationErrors.alreadyInState('Program', id, false),
  audit: { targetType: 'ma_program', deactivated: 'regulations.ma_program_deactivated', reactivated: 'regulations.ma_program_reactivated' },
};
