import { registryKey, type Registries } from '../../core/registries.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { eq } from 'drizzle-orm';
import { uuidv7 } from '../../core/db/ids.js';
import { setActive as setActiveOf, type Lifecycle } from '../../core/admin/lifecycle.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { applyChange, type MergePatch } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { JurisdictionBody } from './regulations.admin.schemas.js';
import { assertReferenceableSpecies } from '../species/species.service.js';
import { pointCount, polygonText, ringArea, validateBoundary, type Boundary } from './geo.js';
import { jurisdictionUsage } from './regulations.usage.js';
import * as adminRepo from './regulations.admin.repository.js';
import { RegulationErrors } from './regulations.errors.js';
import { reclose } from './rule-versions.js';
import { regEmergencyOrders, regJurisdictions, regRuleSets, regZoneRings, regZones, type RuleOverride, type ZoneKind } from './regulations.tables.js';
import { ZoneKindEnum } from './regulations.schemas.js';

/** Administration of regulations (Regulations.Edit), each change audit-logged with its reason. */

export const ADMIN_TARGETS = {
  jurisdictions: { table: regJurisdictions, type: 'reg_jurisdiction', label: 'Jurisdiction', notFound: RegulationErrors.jurisdictionNotFound },
  zones: { table: regZones, type: 'reg_zone', label: 'Zone', notFound: RegulationErrors.zoneNotFound },
  'rule-sets': { table: regRuleSets, type: 'reg_rule_set', label: 'Rule-set version', notFound: RegulationErrors.ruleSetNotFound },
  'emergency-orders': { table: regEmergencyOrders, type: 'reg_emergency_order', label: 'Emergency order', notFound: RegulationErrors.orderNotFound },
} as const;
export type AdminTarget = keyof typeof ADMIN_TARGETS;

const jurisdictionListeners = registryKey('regulations.jurisdiction_changes', () => new Set<() => void>());

/** Called in this process after a jurisdiction is deactivated or reactivated (higher modules register at start-up: the registering module's <module>.module.ts). */
export function onJurisdictionActiveChange(deps: { registries: Registries }, listener: () => void): void {
  deps.registries.of(jurisdictionListeners).add(listener);
}

/** Deactivation instead of deletion (and back), with the reason in the row and the audit log (core/admin/lifecycle). */
export async function setActive(deps: ServiceDeps, context: AuditContext, target: AdminTarget, id: string, active: boolean, reason: string | undefined) {
  const result = await setActiveOf(deps, context, targetLifecycle(target), id, active, reason);
  if (target === 'jurisdictions') for (const listener of deps.registries.of(jurisdictionListeners)) listener(); // e.g. Master Angler eligibility (other processes: NOTIFY)
  return result;
}

function targetLifecycle(target: AdminTarget): Lifecycle<{ isActive: boolean }, { id: string; isActive: boolean; deactivationReason: string | null }> {
  const { table, type, label, notFound } = ADMIN_TARGETS[target];
  let version: typeof regRuleSets.$inferSelect | undefined;
  return {
    async lock(tx, id) {
      // A rule's version chain changes: the license year's lock first, as for a new version.
      [version] = target === 'rule-sets' ? await tx.select().from(regRuleSets).where(eq(regRuleSets.id, id)) : [];
      if (version) await adminRepo.lockLicenseYear(tx, version.licenseYearId);
      const [row] = await tx.select({ isActive: table.isActive }).from(table).where(eq(table.id, id)).for('update');
      return row;
    },
    async update(tx, id, values) {
      await tx.update(table).set(values).where(eq(table.id, id));
      if (version) await reclose(tx, version);
    },
    async view({ db }, id) {
      const [row] = await db.select({ isActive: table.isActive, deactivationReason: table.deactivationReason }).from(table).where(eq(table.id, id));
      return { id, ...row! };
    },
    notFound,
    alreadyActive: (id) => RegulationErrors.alreadyInState(label, id, true),
    alreadyInactive: (id) => RegulationErrors.alreadyInState(label, id, false),
    audit: { targetType: type, deactivated: `regulations.${type}_deactivated`, reactivated: `regulations.${type}_reactivated` },
  };
}

export interface ZoneInput {
  jurisdictionId: string;
  kind: Exclude<ZoneKind, 'state'> | 'state';
  name: string;
  description?: string | undefined;
  sourceUrl?: string | undefined;
  boundary: Boundary;
  reason: string;
}

export async function createZone(deps: ServiceDeps, context: AuditContext, input: ZoneInput) {
  const { db } = deps;
  const { rings, problems } = validateBoundary(input.boundary, '/boundary');
  if (problems.length) throw RegulationErrors.badBoundary(problems.map((p) => ({ ...p, in: 'body' as const })));
  return db.transaction(async (tx) => {
    const [jurisdiction] = await tx.select().from(regJurisdictions).where(eq(regJurisdictions.id, input.jurisdictionId));
    if (!jurisdiction) throw RegulationErrors.badReference('/jurisdictionId', 'refers to no jurisdiction');
    const id = uuidv7();
    const [row] = await tx
      .insert(regZones)
      .values({
        id,
        jurisdictionId: input.jurisdictionId,
        kind: input.kind,
        name: input.name,
        description: input.description ?? null,
        sourceUrl: input.sourceUrl ?? null,
        geojson: input.boundary,
        areaSqDeg: rings.reduce((a, r) => a + ringArea(r), 0),
        pointCount: pointCount(rings),
        createdBy: context.actor.userId ?? null,
      })
      .returning();
    await tx.insert(regZoneRings).values(rings.map((ring) => ({ id: uuidv7(), zoneId: id, ring: polygonText(ring) })));
    await recordAudit(inTx(deps, tx), context, { action: 'regulations.reg_zone_created', targetType: 'reg_zone', targetId: id, reason: input.reason, after: { name: row!.name, kind: row!.kind, pointCount: row!.pointCount } });
    return { id, jurisdictionId: row!.jurisdictionId, kind: ZoneKindEnum.toApi(row!.kind), name: row!.name, pointCount: row!.pointCount, areaSqDeg: row!.areaSqDeg, isActive: row!.isActive };
  });
}

export interface OrderInput {
  jurisdictionId: string;
  zoneId?: string | undefined;
  speciesId?: string | undefined;
  startsOn: string;
  endsOn: string;
  reason: string;
  overrides: RuleOverride;
  sourceUrl?: string | undefined;
}

export async function createOrder(deps: ServiceDeps, context: AuditContext, input: OrderInput) {
  const { db } = deps;
  if (input.startsOn > input.endsOn) throw RegulationErrors.badReference('/endsOn', 'is before startsOn');
  if (input.speciesId) await assertReferenceableSpecies(deps, [input.speciesId], '/speciesId');
  return db.transaction(async (tx) => {
    const [jurisdiction] = await tx.select({ id: regJurisdictions.id }).from(regJurisdictions).where(eq(regJurisdictions.id, input.jurisdictionId));
    if (!jurisdiction) throw RegulationErrors.badReference('/jurisdictionId', 'refers to no jurisdiction');
    if (input.zoneId) {
      const [zone] = await tx.select({ jurisdictionId: regZones.jurisdictionId }).from(regZones).where(eq(regZones.id, input.zoneId));
      if (!zone || zone.jurisdictionId !== input.jurisdictionId) throw RegulationErrors.badReference('/zoneId', 'refers to no zone of the jurisdiction');
    }
    const [row] = await tx
      .insert(regEmergencyOrders)
      .values({
        id: uuidv7(),
        jurisdictionId: input.jurisdictionId,
        zoneId: input.zoneId ?? null,
        speciesId: input.speciesId ?? null,
        startsOn: input.startsOn,
        endsOn: input.endsOn,
        reason: input.reason,
        overrides: input.overrides,
        sourceUrl: input.sourceUrl ?? null,
        createdBy: context.actor.userId ?? null,
      })
      .returning();
    await recordAudit(inTx(deps, tx), context, { action: 'regulations.reg_emergency_order_created', targetType: 'reg_emergency_order', targetId: row!.id, reason: input.reason, after: input });
    return { id: row!.id, speciesId: row!.speciesId, zoneId: row!.zoneId, startsOn: row!.startsOn, endsOn: row!.endsOn, reason: row!.reason, overrides: row!.overrides, sourceUrl: row!.sourceUrl };
  });
}

// Jurisdictions

type JurisdictionWithUsage = NonNullable<Awaited<ReturnType<typeof adminRepo.jurisdictionWithUsage>>>;

/** The admin views of jurisdictions, with the usage other modules count (one statement per counter for all of them). */
async function jurisdictionViews({ db, registries }: ServiceDeps<DbOrTx>, rows: JurisdictionWithUsage[]) {
  const programs = await registries.of(jurisdictionUsage).total(db, 'programs', rows.map((row) => row.id));
  return rows.map((row) => jurisdictionView(row, programs.get(row.id) ?? 0));
}

function jurisdictionView(row: JurisdictionWithUsage, programs: number) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    agencyName: row.agencyName,
    agencyUrl: row.agencyUrl,
    licenseYearStartMonth: row.licenseYearStartMonth,
    licenseYearStartDay: row.licenseYearStartDay,
    isActive: row.isActive,
    deactivationReason: row.deactivationReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    usage: { zones: row.zones, ruleSets: row.ruleSets, emergencyOrders: row.emergencyOrders, programs, licenseYears: row.licenseYears },
  };
}

export interface JurisdictionInput {
  code: string;
  name: string;
  agencyName: string;
  agencyUrl: string;
  licenseYearStartMonth: number;
  licenseYearStartDay: number;
  reason: string;
}

/** Month and day of a license-year start must be a day every year has (no February 29). */
function checkYearStart(month: number | undefined, day: number | undefined) {
  if (month === undefined || day === undefined) return;
  const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  if (day > days) throw RegulationErrors.badReference('/licenseYearStartDay', `is not a day of month ${month} (every year)`);
}

async function uniqueCode<T>(code: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') throw RegulationErrors.duplicateCode(code);
    throw error;
  }
}

export async function createJurisdiction(deps: ServiceDeps, context: AuditContext, input: JurisdictionInput) {
  const { db } = deps;
  checkYearStart(input.licenseYearStartMonth, input.licenseYearStartDay);
  const code = input.code.toUpperCase();
  const id = await uniqueCode(code, () =>
    db.transaction(async (tx) => {
      const [clash] = await tx.select({ id: regJurisdictions.id }).from(regJurisdictions).where(eq(regJurisdictions.code, code));
      if (clash) throw RegulationErrors.duplicateCode(code);
      const { reason, ...values } = input;
      const actor = context.actor.userId ?? null;
      const [row] = await tx
        .insert(regJurisdictions)
        .values({ id: uuidv7(), ...values, code, createdBy: actor, updatedBy: actor })
        .returning();
      await recordAudit(inTx(deps, tx), context, { action: 'regulations.reg_jurisdiction_created', targetType: 'reg_jurisdiction', targetId: row!.id, reason, after: { ...values, code } });
      return row!.id;
    }),
  );
  return (await jurisdictionViews(deps, [(await adminRepo.jurisdictionWithUsage(db, id))!]))[0]!;
}

export type JurisdictionChanges = Partial<Omit<JurisdictionInput, 'code' | 'reason'>> & { reason: string };

/** Changes the given fields; the seed leaves the jurisdiction alone from then on. The code is its natural key and stays. */
/** A JSON Merge Patch of a jurisdiction (with its `reason`): merged onto the jurisdiction and validated as a whole. */
export async function updateJurisdiction(deps: ServiceDeps, context: AuditContext, id: string, patch: MergePatch) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(regJurisdictions).where(eq(regJurisdictions.id, id)).for('update');
    if (!row) throw RegulationErrors.jurisdictionNotFound(id);
    const { name, agencyName, agencyUrl, licenseYearStartMonth, licenseYearStartDay } = row;
    const merged = applyChange<JurisdictionChanges>({ patch }, JurisdictionBody, () => ({ name, agencyName, agencyUrl, licenseYearStartMonth, licenseYearStartDay, reason: '' }));
    const { reason } = merged;
    const changes = Object.fromEntries(Object.keys(patch).filter((k) => k !== 'reason').map((k) => [k, merged[k as keyof typeof merged]])) as Omit<JurisdictionChanges, 'reason'>;
    checkYearStart(changes.licenseYearStartMonth ?? row.licenseYearStartMonth, changes.licenseYearStartDay ?? row.licenseYearStartDay);
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, row[k as keyof typeof row]]));
    await tx
      .update(regJurisdictions)
      .set({ ...changes, updatedBy: context.actor.userId ?? null, updatedAt: new Date() })
      .where(eq(regJurisdictions.id, id));
    await recordAudit(inTx(deps, tx), context, { action: 'regulations.reg_jurisdiction_updated', targetType: 'reg_jurisdiction', targetId: id, reason, before, after: changes });
  });
  return (await jurisdictionViews(deps, [(await adminRepo.jurisdictionWithUsage(db, id))!]))[0]!;
}

export async function listJurisdictions(deps: ServiceDeps, filter: adminRepo.JurisdictionFilter, page: Page) {
  const { items, total } = await adminRepo.jurisdictionsPage(deps.db, filter, page);
  return { items: await jurisdictionViews(deps, items), total };
}

export async function listZones(deps: ServiceDeps<DbOrTx>, filter: adminRepo.ZoneFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await adminRepo.zonesPage(db, filter, page);
  return {
    items: items.map(({ ruleSets, emergencyOrders, createdAt, ...z }) => ({ ...z, kind: ZoneKindEnum.toApi(z.kind), createdAt: createdAt.toISOString(), usage: { ruleSets, emergencyOrders } })),
    total,
  };
}

export async function listOrders(deps: ServiceDeps<DbOrTx>, filter: adminRepo.OrderFilter, page: Page) {
  const { db } = deps;
  const { items, total } = await adminRepo.ordersPage(db, filter, page);
  return {
    items: items.map((o) => ({
      id: o.id,
      jurisdictionId: o.jurisdictionId,
      jurisdictionCode: o.jurisdictionCode,
      speciesId: o.speciesId,
      zoneId: o.zoneId,
      startsOn: o.startsOn,
      endsOn: o.endsOn,
      reason: o.reason,
      overrides: o.overrides,
      sourceUrl: o.sourceUrl,
      isActive: o.isActive,
      deactivationReason: o.deactivationReason,
      createdAt: o.createdAt.toISOString(),
      usage: { ruleSetsAffected: o.ruleSetsAffected },
    })),
    total,
  };
}
