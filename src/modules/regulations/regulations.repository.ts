import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import {
  regEmergencyOrders,
  regJurisdictions,
  regLicenseYears,
  regRuleSets,
  regZoneRings,
  regZones,
  type ZoneKind,
} from './regulations.tables.js';

/** SQL of the regulations module; no rules. */

export type AreaHit = {
  zoneId: string;
  jurisdictionId: string;
  kind: ZoneKind;
  name: string;
  areaSqDeg: number;
};

/**
 * Active zones whose rings contain the point. `ring && polygon(box(p,p))` is what the GiST index
 * answers (bounding boxes); `ring @> p` is the exact containment test on the few candidates.
 */
export function areasAtQuery(lon: number, lat: number): SQL {
  return sql`SELECT DISTINCT z.id AS "zoneId", z.jurisdiction_id AS "jurisdictionId", z.kind, z.name, z.area_sq_deg AS "areaSqDeg"
    FROM ${regZoneRings} r JOIN ${regZones} z ON z.id = r.zone_id
    WHERE r.ring && polygon(box(point(${lon}, ${lat}), point(${lon}, ${lat})))
      AND r.ring @> point(${lon}, ${lat}) AND z.is_active`;
}

export async function areasAt(db: DbOrTx, lon: number, lat: number): Promise<AreaHit[]> {
  return (await db.execute<AreaHit>(areasAtQuery(lon, lat))).rows;
}

export async function jurisdictionByCode(db: DbOrTx, code: string) {
  const [row] = await db.select().from(regJurisdictions).where(eq(regJurisdictions.code, code));
  return row;
}

export async function lockJurisdictionForReference(tx: DbOrTx, id: string) {
  const [row] = await tx.select({ id: regJurisdictions.id }).from(regJurisdictions).where(eq(regJurisdictions.id, id)).for('no key update');
  return row !== undefined;
}

export async function jurisdictionsByIds(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select().from(regJurisdictions).where(inArray(regJurisdictions.id, ids));
}

export async function zonesByIds(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select().from(regZones).where(inArray(regZones.id, ids));
}

export async function licenseYearAt(db: DbOrTx, jurisdictionId: string, date: string) {
  const [row] = await db
    .select()
    .from(regLicenseYears)
    .where(and(eq(regLicenseYears.jurisdictionId, jurisdictionId), lte(regLicenseYears.startsOn, date), gte(regLicenseYears.endsOn, date)));
  return row;
}

/** The jurisdiction's newest license year (the data we have last), if any. */
export async function newestLicenseYear(db: DbOrTx, jurisdictionId: string) {
  const [row] = await db.select().from(regLicenseYears).where(eq(regLicenseYears.jurisdictionId, jurisdictionId)).orderBy(desc(regLicenseYears.endsOn)).limit(1);
  return row;
}

/** The newest license year of the jurisdiction before `year`. */
export async function licenseYearBefore(db: DbOrTx, jurisdictionId: string, year: number) {
  const [row] = await db
    .select()
    .from(regLicenseYears)
    .where(and(eq(regLicenseYears.jurisdictionId, jurisdictionId), lt(regLicenseYears.year, year)))
    .orderBy(desc(regLicenseYears.year))
    .limit(1);
  return row;
}

/** Every active version of a license year. */
export async function licenseYearRules(db: DbOrTx, licenseYearId: string) {
  return db.select().from(regRuleSets).where(and(eq(regRuleSets.licenseYearId, licenseYearId), eq(regRuleSets.isActive, true)));
}

/** Per active jurisdiction, the last day of its newest license year (jurisdictions without license years are left out). */
export async function dataEnds(db: DbOrTx) {
  return db
    .select({ code: regJurisdictions.code, name: regJurisdictions.name, agencyUrl: regJurisdictions.agencyUrl, year: sql<number>`max(${regLicenseYears.year})::int`, endsOn: sql<string>`max(${regLicenseYears.endsOn})::text` })
    .from(regJurisdictions)
    .innerJoin(regLicenseYears, eq(regLicenseYears.jurisdictionId, regJurisdictions.id))
    .where(eq(regJurisdictions.isActive, true))
    .groupBy(regJurisdictions.id)
    .orderBy(asc(regJurisdictions.code));
}

/** Active versions of the license year, statewide or of the given zones, optionally of one species. */
export async function ruleVersions(db: DbOrTx, jurisdictionId: string, licenseYearId: string, zoneIds: string[], speciesId?: string) {
  const zones = zoneIds.length ? or(isNull(regRuleSets.zoneId), inArray(regRuleSets.zoneId, zoneIds)) : isNull(regRuleSets.zoneId);
  return db
    .select()
    .from(regRuleSets)
    .where(
      and(
        eq(regRuleSets.jurisdictionId, jurisdictionId),
        eq(regRuleSets.licenseYearId, licenseYearId),
        eq(regRuleSets.isActive, true),
        zones,
        speciesId ? eq(regRuleSets.speciesId, speciesId) : undefined,
      ),
    );
}

export async function ordersAt(db: DbOrTx, jurisdictionId: string, date: string) {
  return db
    .select()
    .from(regEmergencyOrders)
    .where(
      and(
        eq(regEmergencyOrders.jurisdictionId, jurisdictionId),
        eq(regEmergencyOrders.isActive, true),
        lte(regEmergencyOrders.startsOn, date),
        gte(regEmergencyOrders.endsOn, date),
      ),
    );
}
