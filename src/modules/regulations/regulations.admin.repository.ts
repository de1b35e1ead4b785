import { and, asc, desc, eq, getTableColumns, gte, ilike, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../core/db/client.js';
import type { Page } from '../../core/http/pagination.js';
import {
  regEmergencyOrders,
  regJurisdictions,
  regLicenseYears,
  regRuleSets,
  regZones,
  type ZoneKind,
} from './regulations.tables.js';

/** SQL of the regulations administration: lists with usage statistics, version chains, locks. */

const count = (query: SQL) => sql<number>`(${query})`.mapWith(Number);
const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function pageOf<T>(db: DbOrTx, table: PgTable, select: Record<string, unknown>, where: SQL | undefined, order: SQL[], page: Page) {
  const [items, [total]] = await Promise.all([
    db
      .select(select as never)
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(table).where(where),
  ]);
  return { items: items as T[], total: total?.n ?? 0 };
}

const activeIs = (column: PgColumn, active: boolean | undefined) => (active === undefined ? undefined : eq(column, active));

export interface JurisdictionFilter {
  q?: string | undefined;
  active?: boolean | undefined;
}

export const jurisdictionUsage = {
  zones: count(sql`SELECT count(*) FROM ${regZones} WHERE ${regZones.jurisdictionId} = ${regJurisdictions.id} AND ${regZones.isActive} AND ${regZones.kind} <> 'state'`),
  ruleSets: count(sql`SELECT count(*) FROM ${regRuleSets} WHERE ${regRuleSets.jurisdictionId} = ${regJurisdictions.id} AND ${regRuleSets.isActive}`),
  emergencyOrders: count(sql`SELECT count(*) FROM ${regEmergencyOrders} WHERE ${regEmergencyOrders.jurisdictionId} = ${regJurisdictions.id} AND ${regEmergencyOrders.isActive}`),
  licenseYears: count(sql`SELECT count(*) FROM ${regLicenseYears} WHERE ${regLicenseYears.jurisdictionId} = ${regJurisdictions.id}`),
};
type JurisdictionListRow = typeof regJurisdictions.$inferSelect & { [K in keyof typeof jurisdictionUsage]: number };

export function jurisdictionsPage(db: DbOrTx, filter: JurisdictionFilter, page: Page) {
  const where = and(activeIs(regJurisdictions.isActive, filter.active), filter.q ? or(ilike(regJurisdictions.code, like(filter.q)), ilike(regJurisdictions.name, like(filter.q))) : undefined);
  return pageOf<JurisdictionListRow>(db, regJurisdictions, { ...getTableColumns(regJurisdictions), ...jurisdictionUsage }, where, [asc(regJurisdictions.code)], page);
}

export async function jurisdictionWithUsage(db: DbOrTx, id: string) {
  const [row] = (await db
    .select({ ...getTableColumns(regJurisdictions), ...jurisdictionUsage } as never)
    .from(regJurisdictions)
    .where(eq(regJurisdictions.id, id))) as JurisdictionListRow[];
  return row;
}


export interface ZoneFilter {
  jurisdictionId?: string | undefined;
  kind?: ZoneKind | undefined;
  active?: boolean | undefined;
  q?: string | undefined;
}

const zoneColumns = {
  id: regZones.id,
  jurisdictionId: regZones.jurisdictionId,
  jurisdictionCode: sql<string>`(SELECT ${regJurisdictions.code} FROM ${regJurisdictions} WHERE ${regJurisdictions.id} = ${regZones.jurisdictionId})`,
  kind: regZones.kind,
  name: regZones.name,
  description: regZones.description,
  sourceUrl: regZones.sourceUrl,
  pointCount: regZones.pointCount,
  areaSqDeg: regZones.areaSqDeg,
  isActive: regZones.isActive,
  deactivationReason: regZones.deactivationReason,
  createdAt: regZones.createdAt,
  ruleSets: count(sql`SELECT count(*) FROM ${regRuleSets} WHERE ${regRuleSets.zoneId} = ${regZones.id} AND ${regRuleSets.isActive}`),
  emergencyOrders: count(sql`SELECT count(*) FROM ${regEmergencyOrders} WHERE ${regEmergencyOrders.zoneId} = ${regZones.id} AND ${regEmergencyOrders.isActive}`),
};
type ZoneListRow = Pick<typeof regZones.$inferSelect, 'id' | 'jurisdictionId' | 'kind' | 'name' | 'description' | 'sourceUrl' | 'pointCount' | 'areaSqDeg' | 'isActive' | 'deactivationReason' | 'createdAt'> & {
  jurisdictionCode: string;
  ruleSets: number;
  emergencyOrders: number;
};

export function zonesPage(db: DbOrTx, filter: ZoneFilter, page: Page) {
  const where = and(
    filter.jurisdictionId ? eq(regZones.jurisdictionId, filter.jurisdictionId) : undefined,
    filter.kind ? eq(regZones.kind, filter.kind) : undefined,
    activeIs(regZones.isActive, filter.active),
    filter.q ? ilike(regZones.name, like(filter.q)) : undefined,
  );
  return pageOf<ZoneListRow>(db, regZones, zoneColumns, where, [asc(regZones.jurisdictionId), asc(regZones.kind), asc(regZones.name), asc(regZones.id)], page);
}

export interface RuleSetFilter {
  jurisdictionId?: string | undefined;
  zoneId?: string | undefined;
  statewide?: boolean | undefined;
  speciesId?: string | undefined;
  licenseYear?: number | undefined;
  active?: boolean | undefined;
}

const sameRule = sql`other.jurisdiction_id = ${regRuleSets.jurisdictionId} AND other.species_id = ${regRuleSets.speciesId} AND other.license_year_id = ${regRuleSets.licenseYearId} AND other.zone_id IS NOT DISTINCT FROM ${regRuleSets.zoneId}`;
const ruleSetExtras = {
  jurisdictionCode: sql<string>`(SELECT ${regJurisdictions.code} FROM ${regJurisdictions} WHERE ${regJurisdictions.id} = ${regRuleSets.jurisdictionId})`,
  zoneName: sql<string | null>`(SELECT ${regZones.name} FROM ${regZones} WHERE ${regZones.id} = ${regRuleSets.zoneId})`,
  licenseYear: sql<number>`(SELECT ${regLicenseYears.year} FROM ${regLicenseYears} WHERE ${regLicenseYears.id} = ${regRuleSets.licenseYearId})`.mapWith(Number),
  versions: count(sql`SELECT count(*) FROM ${regRuleSets} other WHERE ${sameRule}`),
  emergencyOrders: count(
    sql`SELECT count(*) FROM ${regEmergencyOrders} o WHERE o.jurisdiction_id = ${regRuleSets.jurisdictionId} AND o.is_active
      AND (o.species_id IS NULL OR o.species_id = ${regRuleSets.speciesId}) AND (o.zone_id IS NULL OR o.zone_id = ${regRuleSets.zoneId})`,
  ),
};
export type RuleSetListRow = typeof regRuleSets.$inferSelect & { jurisdictionCode: string; zoneName: string | null; licenseYear: number; versions: number; emergencyOrders: number };

function ruleSetWhere(filter: RuleSetFilter) {
  return and(
    filter.jurisdictionId ? eq(regRuleSets.jurisdictionId, filter.jurisdictionId) : undefined,
    filter.zoneId ? eq(regRuleSets.zoneId, filter.zoneId) : undefined,
    filter.statewide === true ? isNull(regRuleSets.zoneId) : undefined,
    filter.speciesId ? eq(regRuleSets.speciesId, filter.speciesId) : undefined,
    filter.licenseYear !== undefined
      ? sql`${regRuleSets.licenseYearId} IN (SELECT ${regLicenseYears.id} FROM ${regLicenseYears} WHERE ${regLicenseYears.year} = ${filter.licenseYear})`
      : undefined,
    activeIs(regRuleSets.isActive, filter.active),
  );
}

export function ruleSetsPage(db: DbOrTx, filter: RuleSetFilter, page: Page) {
  const order = [asc(regRuleSets.jurisdictionId), sql`${regRuleSets.zoneId} NULLS FIRST`, asc(regRuleSets.speciesId), desc(regRuleSets.effectiveFrom), desc(regRuleSets.version)];
  return pageOf<RuleSetListRow>(db, regRuleSets, { ...getTableColumns(regRuleSets), ...ruleSetExtras }, ruleSetWhere(filter), order, page);
}

export async function ruleSetWithUsage(db: DbOrTx, id: string) {
  const [row] = (await db
    .select({ ...getTableColumns(regRuleSets), ...ruleSetExtras } as never)
    .from(regRuleSets)
    .where(eq(regRuleSets.id, id))) as RuleSetListRow[];
  return row;
}


/** Every version of one rule (jurisdiction, zone or statewide, species, license year). */
export async function ruleChain(db: DbOrTx, key: { jurisdictionId: string; zoneId: string | null; speciesId: string; licenseYearId: string }) {
  return db
    .select()
    .from(regRuleSets)
    .where(
      and(
        eq(regRuleSets.jurisdictionId, key.jurisdictionId),
        key.zoneId ? eq(regRuleSets.zoneId, key.zoneId) : isNull(regRuleSets.zoneId),
        eq(regRuleSets.speciesId, key.speciesId),
        eq(regRuleSets.licenseYearId, key.licenseYearId),
      ),
    )
    .orderBy(asc(regRuleSets.version));
}

export async function setEffectiveTo(db: DbOrTx, id: string, effectiveTo: string | null) {
  await db.update(regRuleSets).set({ effectiveTo, updatedAt: new Date() }).where(eq(regRuleSets.id, id));
}

/**
 * The license year's row, locked for the transaction: every change of a rule's version chain
 * takes this lock first, so two new versions of the same license year are added one after the other.
 */
export async function lockLicenseYear(db: DbOrTx, id: string) {
  const [row] = await db.select().from(regLicenseYears).where(eq(regLicenseYears.id, id)).for('no key update');
  return row;
}

export async function licenseYearByYear(db: DbOrTx, jurisdictionId: string, year: number) {
  const [row] = await db
    .select()
    .from(regLicenseYears)
    .where(and(eq(regLicenseYears.jurisdictionId, jurisdictionId), eq(regLicenseYears.year, year)));
  return row;
}

export async function insertLicenseYear(db: DbOrTx, row: typeof regLicenseYears.$inferInsert) {
  await db.insert(regLicenseYears).values(row).onConflictDoNothing();
}

export interface OrderFilter {
  jurisdictionId?: string | undefined;
  zoneId?: string | undefined;
  speciesId?: string | undefined;
  active?: boolean | undefined;
  /** In force on this date. */
  on?: string | undefined;
}

const orderExtras = {
  jurisdictionCode: sql<string>`(SELECT ${regJurisdictions.code} FROM ${regJurisdictions} WHERE ${regJurisdictions.id} = ${regEmergencyOrders.jurisdictionId})`,
  ruleSetsAffected: count(
    sql`SELECT count(*) FROM ${regRuleSets} r WHERE r.jurisdiction_id = ${regEmergencyOrders.jurisdictionId} AND r.is_active
      AND (${regEmergencyOrders.speciesId} IS NULL OR r.species_id = ${regEmergencyOrders.speciesId})
      AND (${regEmergencyOrders.zoneId} IS NULL OR r.zone_id = ${regEmergencyOrders.zoneId})
      AND r.effective_from <= ${regEmergencyOrders.endsOn} AND (r.effective_to IS NULL OR r.effective_to >= ${regEmergencyOrders.startsOn})`,
  ),
};
export type OrderListRow = typeof regEmergencyOrders.$inferSelect & { jurisdictionCode: string; ruleSetsAffected: number };

export function ordersPage(db: DbOrTx, filter: OrderFilter, page: Page) {
  const where = and(
    filter.jurisdictionId ? eq(regEmergencyOrders.jurisdictionId, filter.jurisdictionId) : undefined,
    filter.zoneId ? eq(regEmergencyOrders.zoneId, filter.zoneId) : undefined,
    filter.speciesId ? eq(regEmergencyOrders.speciesId, filter.speciesId) : undefined,
    activeIs(regEmergencyOrders.isActive, filter.active),
    filter.on ? and(lte(regEmergencyOrders.startsOn, filter.on), gte(regEmergencyOrders.endsOn, filter.on)) : undefined,
  );
  const columns: Record<string, unknown> = { ...getTableColumns(regEmergencyOrders), ...orderExtras };
  return pageOf<OrderListRow>(db, regEmergencyOrders, columns, where, [desc(regEmergencyOrders.startsOn), desc(regEmergencyOrders.id)], page);
}
