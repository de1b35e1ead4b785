import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { eq } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx, Tx } from '../../core/db/client.js';
import type { FieldError } from '../../core/http/problem.js';
import type { Page } from '../../core/http/pagination.js';
import { speciesRefs } from '../species/species.service.js';
import * as adminRepo from './regulations.admin.repository.js';
import { RegulationErrors } from './regulations.errors.js';
import { regJurisdictions, regRuleSets, regZones, type DateRange } from './regulations.tables.js';
import { addDays, chainRanges, inchesToCm, licenseYearOf } from './rules.js';

/**
 * Versions of a rule set: never edited in place. A new version starts after the current one and
 * closes its range (effective_to = the day before), in one transaction holding the license year's
 * row lock, so two new versions of the same rule cannot both take over from the same predecessor.
 */

export interface ChainKey {
  jurisdictionId: string;
  zoneId: string | null;
  speciesId: string;
  licenseYearId: string;
}

/** Sets effective_to along the chain of active versions (each ends the day before the next starts). Caller holds the license-year lock. */
export async function reclose(tx: DbOrTx, key: ChainKey) {
  const chain = await adminRepo.ruleChain(tx, key);
  const { ranges, clash } = chainRanges(chain.filter((v) => v.isActive));
  if (clash) throw RegulationErrors.versionClash(clash[0], clash[1], clash[0].effectiveFrom);
  const changed: Array<{ id: string; version: number; from: string | null; to: string | null }> = [];
  for (const { id, effectiveTo } of ranges) {
    const row = chain.find((v) => v.id === id)!;
    if (row.effectiveTo !== effectiveTo) {
      await adminRepo.setEffectiveTo(tx, id, effectiveTo);
      changed.push({ id, version: row.version, from: row.effectiveTo, to: effectiveTo });
    }
  }
  return changed;
}

export interface RuleFieldsInput {
  openSeasons?: DateRange[] | null | undefined;
  releaseOnlyPeriods?: DateRange[] | undefined;
  dailyBag?: number | null | undefined;
  possessionLimit?: number | null | undefined;
  minLengthIn?: number | null | undefined;
  maxLengthIn?: number | null | undefined;
  slotFromIn?: number | null | undefined;
  slotToIn?: number | null | undefined;
  oneOverIn?: number | null | undefined;
  oneOverCount?: number | null | undefined;
  combinedGroup?: string | null | undefined;
  combinedBag?: number | null | undefined;
  gear?: string | null | undefined;
  notes?: string | null | undefined;
}

export interface RuleVersionInput extends RuleFieldsInput {
  jurisdictionId: string;
  zoneId?: string | null | undefined;
  speciesId: string;
  effectiveFrom: string;
  sourceUrl: string;
  bookletYear?: number | undefined;
  reason: string;
}

const field = (pointer: string, detail: string): FieldError => ({ pointer, in: 'body', detail });

/** Consistency the table's CHECKs would refuse (as a 400 naming the fields, never a 500). */
export function ruleProblems(input: RuleFieldsInput): FieldError[] {
  const problems: FieldError[] = [];
  const pair = (a: keyof RuleFieldsInput, b: keyof RuleFieldsInput) => {
    if ((input[a] ?? null) === null && (input[b] ?? null) !== null) problems.push(field(`/${a}`, `is required with ${b}`));
    if ((input[a] ?? null) !== null && (input[b] ?? null) === null) problems.push(field(`/${b}`, `is required with ${a}`));
  };
  pair('slotFromIn', 'slotToIn');
  pair('oneOverIn', 'oneOverCount');
  pair('combinedGroup', 'combinedBag');
  if (input.slotFromIn != null && input.slotToIn != null && input.slotFromIn >= input.slotToIn) problems.push(field('/slotToIn', 'must be greater than slotFromIn'));
  if (input.minLengthIn != null && input.maxLengthIn != null && input.minLengthIn > input.maxLengthIn) problems.push(field('/maxLengthIn', 'must not be less than minLengthIn'));
  for (const list of ['openSeasons', 'releaseOnlyPeriods'] as const) {
    (input[list] ?? []).forEach((r, i) => {
      if (r.from > r.to) problems.push(field(`/${list}/${i}/to`, 'is before from'));
    });
  }
  return problems;
}

function ruleSetView(row: adminRepo.RuleSetListRow, speciesName: string) {
  const len = (inches: number | null) => (inches === null ? null : { in: inches, cm: inchesToCm(inches) });
  return {
    id: row.id,
    jurisdictionId: row.jurisdictionId,
    jurisdictionCode: row.jurisdictionCode,
    zoneId: row.zoneId,
    zoneName: row.zoneName,
    species: { id: row.speciesId, commonName: speciesName },
    licenseYear: row.licenseYear,
    version: row.version,
    effectiveFrom: row.effectiveFrom,
    effectiveTo: row.effectiveTo,
    openSeasons: row.openSeasons,
    releaseOnlyPeriods: row.releaseOnlyPeriods,
    dailyBag: row.dailyBag,
    possessionLimit: row.possessionLimit,
    minLength: len(row.minLengthIn),
    maxLength: len(row.maxLengthIn),
    protectedSlot: row.slotFromIn !== null && row.slotToIn !== null ? { from: len(row.slotFromIn)!, to: len(row.slotToIn)! } : null,
    oneOver: row.oneOverIn !== null && row.oneOverCount !== null ? { over: len(row.oneOverIn)!, count: row.oneOverCount } : null,
    combined: row.combinedGroup !== null && row.combinedBag !== null ? { group: row.combinedGroup, bag: row.combinedBag } : null,
    gear: row.gear,
    notes: row.notes,
    source: { url: row.sourceUrl, bookletYear: row.bookletYear },
    isActive: row.isActive,
    deactivationReason: row.deactivationReason,
    createdAt: row.createdAt.toISOString(),
    usage: { versions: row.versions, emergencyOrders: row.emergencyOrders },
  };
}

async function ruleSetViews(db: DbOrTx, rows: adminRepo.RuleSetListRow[]) {
  const names = await speciesRefs(db, rows.map((r) => r.speciesId));
  return rows.map((r) => ruleSetView(r, names.get(r.speciesId)?.commonName ?? ''));
}

export async function listRuleSets(db: DbOrTx, filter: adminRepo.RuleSetFilter, page: Page) {
  const { items, total } = await adminRepo.ruleSetsPage(db, filter, page);
  return { items: await ruleSetViews(db, items), total };
}

/** The license year containing `date`, created from the jurisdiction's license-year start if missing. */
async function licenseYearFor(tx: Tx, jurisdiction: typeof regJurisdictions.$inferSelect, date: string) {
  const year = licenseYearOf(date, jurisdiction.licenseYearStartMonth, jurisdiction.licenseYearStartDay);
  const start = (y: number) => `${y}-${String(jurisdiction.licenseYearStartMonth).padStart(2, '0')}-${String(jurisdiction.licenseYearStartDay).padStart(2, '0')}`;
  let row = await adminRepo.licenseYearByYear(tx, jurisdiction.id, year);
  if (!row) {
    await adminRepo.insertLicenseYear(tx, { id: uuidv7(), jurisdictionId: jurisdiction.id, year, startsOn: start(year), endsOn: addDays(start(year + 1), -1) });
    row = (await adminRepo.licenseYearByYear(tx, jurisdiction.id, year))!;
  }
  return row;
}

/**
 * A new version of a species' rules statewide or in a zone, in force from `effectiveFrom` (in the
 * license year containing it) until a later version takes over. Audit-logged with the reason.
 */
export async function createRuleVersion(deps: ServiceDeps, context: AuditContext, input: RuleVersionInput) {
  const { db } = deps;
  const problems = ruleProblems(input);
  if (problems.length) throw RegulationErrors.invalidRule(problems);
  const species = (await speciesRefs(db, [input.speciesId])).get(input.speciesId);
  if (!species || !species.isActive) throw RegulationErrors.badReference('/speciesId', species ? 'refers to a deactivated species' : 'refers to no species');
  const id = await db.transaction(async (tx) => {
    const [jurisdiction] = await tx.select().from(regJurisdictions).where(eq(regJurisdictions.id, input.jurisdictionId));
    if (!jurisdiction) throw RegulationErrors.badReference('/jurisdictionId', 'refers to no jurisdiction');
    const zoneId = input.zoneId ?? null;
    if (zoneId) {
      const [zone] = await tx.select({ jurisdictionId: regZones.jurisdictionId, kind: regZones.kind }).from(regZones).where(eq(regZones.id, zoneId));
      if (!zone || zone.jurisdictionId !== input.jurisdictionId) throw RegulationErrors.badReference('/zoneId', 'refers to no zone of the jurisdiction');
      if (zone.kind === 'state') throw RegulationErrors.badReference('/zoneId', 'is the state outline: statewide rules have no zoneId');
    }
    const licenseYear = await licenseYearFor(tx, jurisdiction, input.effectiveFrom);
    await adminRepo.lockLicenseYear(tx, licenseYear.id);
    const key: ChainKey = { jurisdictionId: jurisdiction.id, zoneId, speciesId: input.speciesId, licenseYearId: licenseYear.id };
    const chain = await adminRepo.ruleChain(tx, key);
    const current = chain.filter((v) => v.isActive).sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom) || b.version - a.version)[0];
    if (current && input.effectiveFrom <= current.effectiveFrom) throw RegulationErrors.versionNotAfterCurrent(current, input.effectiveFrom);
    const version = chain.reduce((n, v) => Math.max(n, v.version), 0) + 1;
    const newId = uuidv7();
    const { reason, jurisdictionId: _j, zoneId: _z, speciesId: _s, effectiveFrom, sourceUrl, bookletYear, ...fields } = input;
    await tx.insert(regRuleSets).values({
      id: newId,
      ...key,
      version,
      effectiveFrom,
      openSeasons: fields.openSeasons ?? null,
      releaseOnlyPeriods: fields.releaseOnlyPeriods ?? [],
      dailyBag: fields.dailyBag ?? null,
      possessionLimit: fields.possessionLimit ?? null,
      minLengthIn: fields.minLengthIn ?? null,
      maxLengthIn: fields.maxLengthIn ?? null,
      slotFromIn: fields.slotFromIn ?? null,
      slotToIn: fields.slotToIn ?? null,
      oneOverIn: fields.oneOverIn ?? null,
      oneOverCount: fields.oneOverCount ?? null,
      combinedGroup: fields.combinedGroup ?? null,
      combinedBag: fields.combinedBag ?? null,
      gear: fields.gear ?? null,
      notes: fields.notes ?? null,
      sourceUrl,
      bookletYear: bookletYear ?? licenseYear.year,
      createdBy: context.actor.userId ?? null,
    });
    const closed = await reclose(tx, key);
    await recordAudit(inTx(deps, tx), context, {
      action: 'regulations.reg_rule_set_version_created',
      targetType: 'reg_rule_set',
      targetId: newId,
      reason,
      before: current ? { id: current.id, version: current.version, effectiveFrom: current.effectiveFrom, effectiveTo: current.effectiveTo } : null,
      after: { ...input, version, licenseYear: licenseYear.year, closed },
    });
    return newId;
  });
  return (await ruleSetViews(db, [(await adminRepo.ruleSetWithUsage(db, id))!]))[0]!;
}
