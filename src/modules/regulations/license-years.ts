import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { and, eq, max } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx, Tx } from '../../core/db/client.js';
import type { FieldError } from '../../core/http/problem.js';
import { speciesRefs } from '../species/species.service.js';
import { speciesId } from '../species/index.js';
import { pointCount, polygonText, ringArea, validateBoundary, type Boundary as BoundaryShape, type Ring } from './geo.js';
import * as adminRepo from './regulations.admin.repository.js';
import * as repo from './regulations.repository.js';
import { RegulationErrors } from './regulations.errors.js';
import { Boundary } from './regulations.schemas.js';
import { jurisdictionId, licenseYearId, regulationId, zoneId } from './reference-ids.js';
import { regJurisdictions, regLicenseYears, regRuleSets, regZoneRings, regZones, ZONE_KINDS, type RuleSetRow, type ZoneKind } from './regulations.tables.js';
import { reclose, ruleProblems, type ChainKey } from './rule-versions.js';
import { versionInForce } from './rules.js';

/**
 * License-year files: the format of reference-data/regulations/rules-<year>.json, loaded by the
 * reference-data seed, `fishlog regulations import` and POST /api/admin/regulations/license-years.
 * A file brings license years (one per jurisdiction), the special waters it needs and the rules.
 */

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD', examples: ['2026-03-01'] });
const Span = Type.Array(Day, { minItems: 2, maxItems: 2, description: '[from, to], inclusive' });
const Code = Type.String({ pattern: '^[A-Z]{2}-[A-Z]{2}$', examples: ['US-MN'] });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const SourceUrl = Type.String({ maxLength: 500, pattern: '^https?://' });
const Inches = Type.Number({ minimum: 0, maximum: 100 });
const Count = Type.Integer({ minimum: 0, maximum: 1000 });

export const LicenseYearFile = Type.Object(
  {
    about: Type.Optional(Type.String({ maxLength: 5000 })),
    licenseYears: Type.Array(
      Type.Object({ jurisdiction: Code, year: Type.Integer({ minimum: 1900, maximum: 3000 }), startsOn: Day, endsOn: Day }, { additionalProperties: false }),
      { minItems: 1, maxItems: 60 },
    ),
    waters: Type.Optional(
      Type.Array(
        Type.Object(
          {
            jurisdiction: Code,
            kind: Type.Union(ZONE_KINDS.filter((k) => k !== 'state').map((k) => Type.Literal(k))),
            name: Text(200),
            description: Type.Optional(Type.String({ maxLength: 2000 })),
            sourceUrl: Type.Optional(SourceUrl),
            boundary: Type.Optional(Boundary),
            boundaryFromJurisdictionRing: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Instead of a boundary: this ring of the jurisdiction’s outline' })),
          },
          { additionalProperties: false, description: 'A water or zone: new (with its boundary) or known already (by jurisdiction and name, without one)' },
        ),
        { maxItems: 500 },
      ),
    ),
    rules: Type.Array(
      Type.Object(
        {
          jurisdiction: Code,
          water: Type.Optional(Text(200)),
          species: Type.String({ minLength: 3, maxLength: 200, description: 'Scientific name, as in reference-data/species.json' }),
          effectiveFrom: Type.Optional(Day),
          openSeasons: Type.Optional(Type.Array(Span, { maxItems: 20 })),
          releaseOnlyPeriods: Type.Optional(Type.Array(Span, { maxItems: 20 })),
          dailyBag: Type.Optional(Count),
          possessionLimit: Type.Optional(Count),
          minLengthIn: Type.Optional(Inches),
          maxLengthIn: Type.Optional(Inches),
          slotFromIn: Type.Optional(Inches),
          slotToIn: Type.Optional(Inches),
          oneOverIn: Type.Optional(Inches),
          oneOverCount: Type.Optional(Count),
          combinedGroup: Type.Optional(Text(100)),
          combinedBag: Type.Optional(Count),
          gear: Type.Optional(Type.String({ maxLength: 2000 })),
          notes: Type.Optional(Type.String({ maxLength: 5000 })),
          sourceUrl: SourceUrl,
        },
        { additionalProperties: false },
      ),
      { maxItems: 5000 },
    ),
  },
  {
    additionalProperties: false,
    description: 'A license-year file: the format of reference-data/regulations/rules-<year>.json (see reference-data/README.md)',
    examples: [
      {
        about: 'Test data: a synthetic license year, not real regulations.',
        licenseYears: [{ jurisdiction: 'US-MN', year: 2026, startsOn: '2026-03-01', endsOn: '2027-02-28' }],
        rules: [{ jurisdiction: 'US-MN', species: 'Sander vitreus', openSeasons: [['2026-05-09', '2027-02-21']], dailyBag: 6, sourceUrl: 'https://www.dnr.state.mn.us/regulations/fishing/index.html' }],
      },
    ],
  },
);
export type LicenseYearFileData = Static<typeof LicenseYearFile>;
type RuleData = LicenseYearFileData['rules'][number];
type WaterData = NonNullable<LicenseYearFileData['waters']>[number];
type Range = string[];

const problem = (pointer: string, detail: string): FieldError => ({ pointer, in: 'body', detail });
const isDate = (value: string) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const ranges = (list: Range[] | undefined) => list?.map(([from, to]) => ({ from: from!, to: to! }));
const ruleKey = (r: Pick<RuleData, 'jurisdiction' | 'water' | 'species'>, year: number) => `${r.jurisdiction}:${r.water ?? ''}:${r.species}:${year}`;

/** The boundary of a water: its own, or a ring of its jurisdiction's outline. */
function boundaryOf(w: WaterData, outlines: ReadonlyMap<string, BoundaryShape>): BoundaryShape | undefined {
  if (w.boundary) return w.boundary as BoundaryShape;
  if (w.boundaryFromJurisdictionRing === undefined) return undefined;
  const outline = outlines.get(w.jurisdiction);
  const ring = outline?.type === 'Polygon' ? outline.coordinates[w.boundaryFromJurisdictionRing] : outline?.coordinates[w.boundaryFromJurisdictionRing]?.[0];
  return ring ? { type: 'Polygon', coordinates: [ring] } : undefined;
}

/** The jurisdiction outlines (as stored) of the file's jurisdictions. */
async function outlinesOf(db: DbOrTx, codes: string[]): Promise<Map<string, BoundaryShape>> {
  const out = new Map<string, BoundaryShape>();
  for (const code of new Set(codes)) {
    const [row] = await db.select({ geojson: regZones.geojson }).from(regZones).where(and(eq(regZones.jurisdictionId, jurisdictionId(code)), eq(regZones.kind, 'state')));
    if (row) out.set(code, row.geojson as BoundaryShape);
  }
  return out;
}

/**
 * Everything wrong with a file, each with its JSON pointer: the schema; then known, active
 * jurisdictions, one license year per jurisdiction with consistent dates; waters with valid
 * polygons or known already; species in the species catalog; every effective date, season and
 * release period starting inside its license year; the rule consistency of the admin API.
 */
export async function licenseYearProblems(db: DbOrTx, data: unknown): Promise<FieldError[]> {
  // TypeBox's Value (some 300 files, a tenth of a restart's imports) loads with the first file checked.
  const { Value } = await import('typebox/value');
  if (!Value.Check(LicenseYearFile, data)) {
    return [...Value.Errors(LicenseYearFile, data)].slice(0, 50).map((e) => problem(e.instancePath || '/', e.message));
  }
  const file = data as LicenseYearFileData;
  const problems: FieldError[] = [];
  const jurisdictions = new Map((await db.select().from(regJurisdictions)).map((j) => [j.code, j]));
  const years = new Map<string, LicenseYearFileData['licenseYears'][number]>();
  file.licenseYears.forEach((ly, i) => {
    const at = `/licenseYears/${i}`;
    const j = jurisdictions.get(ly.jurisdiction);
    if (!j || !j.isActive) problems.push(problem(`${at}/jurisdiction`, `${ly.jurisdiction} is not a known active jurisdiction`));
    if (years.has(ly.jurisdiction)) problems.push(problem(`${at}/jurisdiction`, `${ly.jurisdiction} has a license year earlier in the file already (one per jurisdiction and file)`));
    years.set(ly.jurisdiction, ly);
    if (!isDate(ly.startsOn)) problems.push(problem(`${at}/startsOn`, 'is not a calendar date'));
    if (!isDate(ly.endsOn)) problems.push(problem(`${at}/endsOn`, 'is not a calendar date'));
    if (ly.endsOn <= ly.startsOn) problems.push(problem(`${at}/endsOn`, 'must be after startsOn'));
    if (!ly.startsOn.startsWith(`${ly.year}-`)) problems.push(problem(`${at}/startsOn`, `must lie in ${ly.year} (a license year is named after the year it starts in)`));
    if (j && ly.startsOn.slice(5) !== `${String(j.licenseYearStartMonth).padStart(2, '0')}-${String(j.licenseYearStartDay).padStart(2, '0')}`) {
      problems.push(problem(`${at}/startsOn`, `${ly.jurisdiction}'s license year starts on ${j.licenseYearStartMonth}/${j.licenseYearStartDay}`));
    }
  });
  const outlines = await outlinesOf(db, (file.waters ?? []).map((w) => w.jurisdiction));
  const waters = new Set<string>();
  for (const [i, w] of (file.waters ?? []).entries()) {
    const at = `/waters/${i}`;
    if (!jurisdictions.has(w.jurisdiction)) problems.push(problem(`${at}/jurisdiction`, `${w.jurisdiction} is not a known jurisdiction`));
    const boundary = boundaryOf(w, outlines);
    if (boundary) {
      for (const p of validateBoundary(boundary).problems) problems.push(problem(`${at}/boundary${p.pointer}`, p.detail));
    } else {
      const [known] = await db.select({ id: regZones.id }).from(regZones).where(eq(regZones.id, zoneId(w.jurisdiction, w.name)));
      if (!known) problems.push(problem(`${at}/boundary`, `is required: no water named ${w.name} is known in ${w.jurisdiction} yet`));
    }
    waters.add(`${w.jurisdiction}:${w.name.toLowerCase()}`);
  }
  const species = await speciesRefs(db, file.rules.map((r) => speciesId(r.species)));
  for (const [i, r] of file.rules.entries()) {
    const at = `/rules/${i}`;
    const ly = years.get(r.jurisdiction);
    if (!ly) problems.push(problem(`${at}/jurisdiction`, `${r.jurisdiction} has no license year in this file`));
    if (!species.has(speciesId(r.species))) problems.push(problem(`${at}/species`, `${r.species} is not in the species catalog (use the scientific name of reference-data/species.json)`));
    if (r.water && !waters.has(`${r.jurisdiction}:${r.water.toLowerCase()}`)) problems.push(problem(`${at}/water`, `${r.water} is not among the file's waters of ${r.jurisdiction}`));
    const fields = { ...r, openSeasons: ranges(r.openSeasons), releaseOnlyPeriods: ranges(r.releaseOnlyPeriods) };
    for (const p of ruleProblems(fields)) problems.push(problem(`${at}${p.pointer}`, p.detail));
    if (!ly) continue;
    const inside = (day: string) => ly.startsOn <= day && day <= ly.endsOn;
    if (r.effectiveFrom && !inside(r.effectiveFrom)) problems.push(problem(`${at}/effectiveFrom`, `must lie in the license year ${ly.startsOn} to ${ly.endsOn}`));
    for (const list of ['openSeasons', 'releaseOnlyPeriods'] as const) {
      (r[list] ?? []).forEach(([from, to], k) => {
        if (!isDate(from!) || !isDate(to!)) problems.push(problem(`${at}/${list}/${k}`, 'holds a day that is not a calendar date'));
        else if (!inside(from!)) problems.push(problem(`${at}/${list}/${k}/0`, `must start inside the license year ${ly.startsOn} to ${ly.endsOn} (a season may run past its end)`));
      });
    }
  }
  return problems;
}

async function upsertZone(tx: Tx, id: string, values: { jurisdictionId: string; kind: ZoneKind; name: string; description: string | null; sourceUrl: string | null }, boundary: BoundaryShape, rings: Ring[]) {
  const [existing] = await tx.select({ createdBy: regZones.createdBy }).from(regZones).where(eq(regZones.id, id));
  if (existing && existing.createdBy !== null) return; // changed by an administrator: leave it
  const row = { ...values, geojson: boundary, areaSqDeg: rings.reduce((a, r) => a + ringArea(r), 0), pointCount: pointCount(rings) };
  await tx
    .insert(regZones)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: regZones.id, set: { ...row, updatedAt: new Date() } });
  await tx.delete(regZoneRings).where(eq(regZoneRings.zoneId, id));
  await tx.insert(regZoneRings).values(rings.map((ring, i) => ({ id: regulationId(`ring:${id}:${i}`), zoneId: id, ring: polygonText(ring) })));
}

/** A state's outline (the reference-data seed's jurisdictions). */
export async function writeOutline(tx: Tx, code: string, name: string, agencyUrl: string, boundary: BoundaryShape) {
  const { rings, problems } = validateBoundary(boundary);
  if (problems.length) throw new Error(`boundary of ${code}: ${problems.map((p) => `${p.pointer} ${p.detail}`).join('; ')}`);
  await upsertZone(tx, zoneId(code, name), { jurisdictionId: jurisdictionId(code), kind: 'state', name, description: `Outline of ${name}`, sourceUrl: agencyUrl }, boundary, rings);
}

function ruleValues(r: RuleData, year: { startsOn: string; year: number }) {
  return {
    effectiveFrom: r.effectiveFrom ?? year.startsOn,
    openSeasons: ranges(r.openSeasons) ?? null,
    releaseOnlyPeriods: ranges(r.releaseOnlyPeriods) ?? [],
    dailyBag: r.dailyBag ?? null,
    possessionLimit: r.possessionLimit ?? null,
    minLengthIn: r.minLengthIn ?? null,
    maxLengthIn: r.maxLengthIn ?? null,
    slotFromIn: r.slotFromIn ?? null,
    slotToIn: r.slotToIn ?? null,
    oneOverIn: r.oneOverIn ?? null,
    oneOverCount: r.oneOverCount ?? null,
    combinedGroup: r.combinedGroup ?? null,
    combinedBag: r.combinedBag ?? null,
    gear: r.gear ?? null,
    notes: r.notes ?? null,
    sourceUrl: r.sourceUrl,
    bookletYear: year.year,
  };
}
type RuleValues = ReturnType<typeof ruleValues>;
const sameRule = (row: RuleSetRow, values: RuleValues) => (Object.keys(values) as Array<keyof RuleValues>).every((k) => JSON.stringify(row[k]) === JSON.stringify(values[k]));

/**
 * Writes a checked file (see licenseYearProblems) in the caller's transaction: license years,
 * waters, and the rules as versions numbered per (jurisdiction, water, species, year) in
 * effectiveFrom order, each range closed the day before the next version starts. Writing the same
 * file again changes nothing. A version the file now states differently (a correction of reference
 * data) is deactivated and the corrected one added as a new version from the same day; versions an
 * administrator made are never touched.
 */
export async function writeLicenseYears(tx: Tx, file: LicenseYearFileData, createdBy: string | null): Promise<void> {
  const years = new Map(file.licenseYears.map((ly) => [ly.jurisdiction, ly]));
  const yearIds = new Map<string, string>();
  for (const ly of file.licenseYears) {
    await tx
      .insert(regLicenseYears)
      .values({ id: licenseYearId(ly.jurisdiction, ly.year), jurisdictionId: jurisdictionId(ly.jurisdiction), year: ly.year, startsOn: ly.startsOn, endsOn: ly.endsOn })
      .onConflictDoNothing();
    // (An administrator's rule-set version may have made the year before: its id is kept.)
    yearIds.set(ly.jurisdiction, (await adminRepo.licenseYearByYear(tx, jurisdictionId(ly.jurisdiction), ly.year))!.id);
  }
  const outlines = await outlinesOf(tx, (file.waters ?? []).map((w) => w.jurisdiction));
  for (const w of file.waters ?? []) {
    const boundary = boundaryOf(w, outlines);
    if (!boundary) continue; // a water known already
    const { rings } = validateBoundary(boundary);
    await upsertZone(tx, zoneId(w.jurisdiction, w.name), { jurisdictionId: jurisdictionId(w.jurisdiction), kind: w.kind, name: w.name, description: w.description ?? null, sourceUrl: w.sourceUrl ?? null }, boundary, rings);
  }
  const versionCount = new Map<string, number>();
  const chains = new Map<string, ChainKey>();
  const sorted = [...file.rules].sort((a, b) => (a.effectiveFrom ?? '').localeCompare(b.effectiveFrom ?? ''));
  for (const r of sorted) {
    const year = years.get(r.jurisdiction)!;
    const key = ruleKey(r, year.year);
    const version = (versionCount.get(key) ?? 0) + 1;
    versionCount.set(key, version);
    const chain: ChainKey = {
      jurisdictionId: jurisdictionId(r.jurisdiction),
      zoneId: r.water ? zoneId(r.jurisdiction, r.water) : null,
      speciesId: speciesId(r.species),
      licenseYearId: yearIds.get(r.jurisdiction)!,
    };
    chains.set(key, chain);
    const values = ruleValues(r, year);
    const id = regulationId(`rule:${key}:${version}`);
    const [existing] = await tx.select().from(regRuleSets).where(eq(regRuleSets.id, id));
    if (!existing) {
      await tx.insert(regRuleSets).values({ id, ...chain, version, ...values, createdBy });
      continue;
    }
    if (existing.createdBy !== null || sameRule(existing, values)) continue;
    const correctedId = regulationId(`rule:${key}:${version}:${JSON.stringify(values)}`);
    const [corrected] = await tx.select({ id: regRuleSets.id }).from(regRuleSets).where(eq(regRuleSets.id, correctedId));
    if (corrected) continue;
    if (existing.isActive) {
      await tx
        .update(regRuleSets)
        .set({ isActive: false, deactivatedAt: new Date(), deactivationReason: 'Corrected in the reference data: replaced by a later version from the same day', updatedAt: new Date() })
        .where(eq(regRuleSets.id, id));
    }
    const [last] = await tx.select({ n: max(regRuleSets.version) }).from(regRuleSets).where(and(eq(regRuleSets.jurisdictionId, chain.jurisdictionId), eq(regRuleSets.speciesId, chain.speciesId), eq(regRuleSets.licenseYearId, chain.licenseYearId)));
    await tx.insert(regRuleSets).values({ id: correctedId, ...chain, version: (last?.n ?? version) + 1, ...values, createdBy });
  }
  for (const chain of chains.values()) await reclose(tx, chain);
}

// ---- differences against the previous license year ----

const COMPARED = ['openSeasons', 'releaseOnlyPeriods', 'dailyBag', 'possessionLimit', 'minLengthIn', 'maxLengthIn', 'slotFromIn', 'slotToIn', 'oneOverIn', 'oneOverCount', 'combinedGroup', 'combinedBag', 'gear'] as const;

export interface YearDifferences {
  jurisdiction: string;
  year: number;
  startsOn: string;
  endsOn: string;
  waters: number;
  rules: number;
  previousYear: number | null;
  added: string[];
  removed: string[];
  changed: Array<{ rule: string; fields: Array<{ field: string; from: unknown; to: unknown }> }>;
}

/** Per license year of the file, what differs from the jurisdiction's previous license year (the rules in force at its end). */
export async function differencesFromPreviousYear(db: DbOrTx, file: LicenseYearFileData): Promise<YearDifferences[]> {
  const names = await speciesRefs(db, file.rules.map((r) => speciesId(r.species)));
  const zoneNames = new Map((await db.select({ id: regZones.id, name: regZones.name }).from(regZones)).map((z) => [z.id, z.name]));
  for (const w of file.waters ?? []) zoneNames.set(zoneId(w.jurisdiction, w.name), w.name);
  const label = (species: string, zone: string | null) => `${names.get(species)?.commonName ?? species}, ${zone ? `in ${zoneNames.get(zone) ?? zone}` : 'statewide'}`;
  const out: YearDifferences[] = [];
  for (const ly of file.licenseYears) {
    const rules = file.rules.filter((r) => r.jurisdiction === ly.jurisdiction);
    // The file's last version of each rule.
    const next = new Map<string, RuleValues>();
    for (const r of [...rules].sort((a, b) => (a.effectiveFrom ?? '').localeCompare(b.effectiveFrom ?? ''))) {
      next.set(label(speciesId(r.species), r.water ? zoneId(r.jurisdiction, r.water) : null), ruleValues(r, ly));
    }
    const previous = await repo.licenseYearBefore(db, jurisdictionId(ly.jurisdiction), ly.year);
    const before = new Map<string, RuleSetRow>();
    if (previous) {
      const versions = await repo.licenseYearRules(db, previous.id);
      for (const [id, ref] of await speciesRefs(db, versions.map((v) => v.speciesId))) names.set(id, ref);
      const groups = new Map<string, RuleSetRow[]>();
      for (const v of versions) groups.set(label(v.speciesId, v.zoneId), [...(groups.get(label(v.speciesId, v.zoneId)) ?? []), v]);
      for (const [name, chain] of groups) {
        const last = versionInForce(chain, previous.endsOn);
        if (last) before.set(name, last);
      }
    }
    const changed: YearDifferences['changed'] = [];
    for (const [name, values] of next) {
      const old = before.get(name);
      if (!old) continue;
      const fields = COMPARED.filter((f) => JSON.stringify(old[f]) !== JSON.stringify(values[f])).map((f) => ({ field: f, from: old[f], to: values[f] }));
      if (fields.length) changed.push({ rule: name, fields });
    }
    out.push({
      jurisdiction: ly.jurisdiction,
      year: ly.year,
      startsOn: ly.startsOn,
      endsOn: ly.endsOn,
      waters: (file.waters ?? []).filter((w) => w.jurisdiction === ly.jurisdiction).length,
      rules: rules.length,
      previousYear: previous?.year ?? null,
      added: [...next.keys()].filter((k) => !before.has(k)),
      removed: [...before.keys()].filter((k) => !next.has(k)),
      changed,
    });
  }
  return out;
}

/**
 * The import of a license-year file (the CLI and the admin API): 400 naming every problem, 409 when
 * one of its license years is loaded already (change a loaded year through rule-set versions); a dry
 * run answers the differences only. Otherwise everything is written in one transaction with one
 * audit entry per license year.
 */
export async function importLicenseYears(deps: ServiceDeps, context: AuditContext, data: unknown, options: { dryRun: boolean; reason: string | null }) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const problems = await licenseYearProblems(tx, data);
    if (problems.length) throw RegulationErrors.invalidLicenseYearFile(problems);
    const file = data as LicenseYearFileData;
    for (const ly of file.licenseYears) {
      // Locks the jurisdiction's row: two imports of the same year run one after the other.
      await tx.select({ id: regJurisdictions.id }).from(regJurisdictions).where(eq(regJurisdictions.id, jurisdictionId(ly.jurisdiction))).for('update');
      if (await adminRepo.licenseYearByYear(tx, jurisdictionId(ly.jurisdiction), ly.year)) throw RegulationErrors.licenseYearExists(ly.jurisdiction, ly.year);
    }
    const licenseYears = await differencesFromPreviousYear(tx, file);
    if (options.dryRun) return { dryRun: true, licenseYears };
    await writeLicenseYears(tx, file, context.actor.type === 'user' ? (context.actor.userId ?? null) : null);
    for (const ly of licenseYears) {
      await recordAudit(inTx(deps, tx), context, {
        action: 'regulations.license_year_imported',
        targetType: 'reg_license_year',
        targetId: (await adminRepo.licenseYearByYear(tx, jurisdictionId(ly.jurisdiction), ly.year))!.id,
        reason: options.reason,
        after: { jurisdiction: ly.jurisdiction, year: ly.year, startsOn: ly.startsOn, endsOn: ly.endsOn, rules: ly.rules, waters: ly.waters, previousYear: ly.previousYear },
      });
    }
    return { dryRun: false, licenseYears };
  });
}
