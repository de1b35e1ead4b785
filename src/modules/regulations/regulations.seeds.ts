import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Tx } from '../../core/db/client.js';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { speciesId } from '../species/index.js';
import { reclose, type ChainKey } from './rule-versions.js';
import { pointCount, polygonText, ringArea, validateBoundary, type Boundary, type Ring } from './geo.js';
import {
  maProgramSpecies,
  maPrograms,
  regJurisdictions,
  regLicenseYears,
  regRuleSets,
  regZoneRings,
  regZones,
  type AwardLevel,
  type ZoneKind,
} from './regulations.tables.js';

/**
 * Reference data of reference-data/regulations/: jurisdictions with their outlines, license years,
 * special waters, rule sets and Master Angler programs. Ids are UUIDv5 of natural keys. Rule sets
 * are versions: a seeded version is inserted once and never changed (a correction is a new entry
 * with a later effectiveFrom). Seeded rows have no created_by.
 */

const NAMESPACE = 'a4f3d2c1-7b6e-5d4c-8b3a-1f2e3d4c5b6a';
export const regulationId = (key: string) => uuidv5(key, NAMESPACE);
const DIR = path.join(projectRoot, 'reference-data', 'regulations');
const read = <T>(file: string): T => JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as T;

interface JurisdictionData {
  code: string;
  name: string;
  agencyName: string;
  agencyUrl: string;
  licenseYearStart: string;
  boundary: Boundary | null;
}
interface WaterData {
  jurisdiction: string;
  kind: ZoneKind;
  name: string;
  description: string;
  sourceUrl: string;
  boundary?: Boundary;
  boundaryFromJurisdictionRing?: number;
}
type Range = [string, string];
interface RuleData {
  jurisdiction: string;
  water?: string;
  species: string;
  effectiveFrom?: string;
  openSeasons?: Range[];
  releaseOnlyPeriods?: Range[];
  dailyBag?: number;
  possessionLimit?: number;
  minLengthIn?: number;
  maxLengthIn?: number;
  slotFromIn?: number;
  slotToIn?: number;
  oneOverIn?: number;
  oneOverCount?: number;
  combinedGroup?: string;
  combinedBag?: number;
  gear?: string;
  notes?: string;
  sourceUrl: string;
}
interface ProgramData {
  /** The name the program was first seeded under, when it has been renamed since: it keeps the program's id. */
  key?: string;
  jurisdiction: string;
  name: string;
  url: string;
  sourceYear: number;
  measurement: 'length' | 'weight' | 'either';
  lengthIncrementIn?: number;
  rules: string;
  awardLevels: AwardLevel[];
  species: Array<{ species: string; category?: 'any' | 'release' | 'harvest'; minLengthIn?: number; minWeightLb?: number; notes?: string }>;
}

export const jurisdictionId = (code: string) => regulationId(`jurisdiction:${code}`);
export const zoneId = (code: string, name: string) => regulationId(`zone:${code}:${name.toLowerCase()}`);
export const programId = (code: string, name: string) => regulationId(`program:${code}:${name.toLowerCase()}`);

export function loadRegulationData() {
  return {
    jurisdictions: read<{ jurisdictions: JurisdictionData[] }>('jurisdictions.json').jurisdictions,
    rules: read<{ licenseYears: Array<{ jurisdiction: string; year: number; startsOn: string; endsOn: string }>; waters: WaterData[]; rules: RuleData[] }>('rules-2025.json'),
    programs: read<{ programs: ProgramData[] }>('master-angler.json').programs,
  };
}

function ringsOf(boundary: Boundary, label: string): Ring[] {
  const { rings, problems } = validateBoundary(boundary);
  if (problems.length) throw new Error(`reference-data/regulations: boundary of ${label}: ${problems.map((p) => `${p.pointer} ${p.detail}`).join('; ')}`);
  return rings;
}

async function upsertZone(tx: Tx, id: string, values: { jurisdictionId: string; kind: ZoneKind; name: string; description: string | null; sourceUrl: string | null }, boundary: Boundary, rings: Ring[]) {
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

async function run(tx: Tx): Promise<void> {
  const data = loadRegulationData();
  const ringsByCode = new Map<string, Ring[]>();
  for (const j of data.jurisdictions) {
    const [month, day] = j.licenseYearStart.split('-').map(Number) as [number, number];
    const values = { code: j.code, name: j.name, agencyName: j.agencyName, agencyUrl: j.agencyUrl, licenseYearStartMonth: month, licenseYearStartDay: day };
    await tx
      .insert(regJurisdictions)
      .values({ id: jurisdictionId(j.code), ...values })
      .onConflictDoUpdate({ target: regJurisdictions.id, set: { ...values, updatedAt: new Date() }, where: and(isNull(regJurisdictions.createdBy), isNull(regJurisdictions.updatedBy)) });
    if (j.boundary) {
      const rings = ringsOf(j.boundary, j.code);
      ringsByCode.set(j.code, rings);
      await upsertZone(tx, zoneId(j.code, j.name), { jurisdictionId: jurisdictionId(j.code), kind: 'state', name: j.name, description: `Outline of ${j.name}`, sourceUrl: j.agencyUrl }, j.boundary, rings);
    }
  }
  for (const ly of data.rules.licenseYears) {
    await tx
      .insert(regLicenseYears)
      .values({ id: regulationId(`license-year:${ly.jurisdiction}:${ly.year}`), jurisdictionId: jurisdictionId(ly.jurisdiction), year: ly.year, startsOn: ly.startsOn, endsOn: ly.endsOn })
      .onConflictDoNothing();
  }
  for (const w of data.rules.waters) {
    const boundary: Boundary | undefined =
      w.boundary ?? (w.boundaryFromJurisdictionRing !== undefined ? { type: 'Polygon', coordinates: [ringsByCode.get(w.jurisdiction)![w.boundaryFromJurisdictionRing]!] } : undefined);
    if (!boundary) throw new Error(`reference-data/regulations: water ${w.name} has no boundary`);
    await upsertZone(tx, zoneId(w.jurisdiction, w.name), { jurisdictionId: jurisdictionId(w.jurisdiction), kind: w.kind, name: w.name, description: w.description, sourceUrl: w.sourceUrl }, boundary, ringsOf(boundary, w.name));
  }
  // Versions: per (jurisdiction, water, species, year), numbered in effectiveFrom order.
  const versionCount = new Map<string, number>();
  const chains = new Map<string, ChainKey>();
  const sorted = [...data.rules.rules].sort((a, b) => (a.effectiveFrom ?? '').localeCompare(b.effectiveFrom ?? ''));
  for (const r of sorted) {
    const year = data.rules.licenseYears.find((ly) => ly.jurisdiction === r.jurisdiction)!;
    const key = `${r.jurisdiction}:${r.water ?? ''}:${r.species}:${year.year}`;
    const version = (versionCount.get(key) ?? 0) + 1;
    versionCount.set(key, version);
    const range = (list: Range[] | undefined) => list?.map(([from, to]) => ({ from, to }));
    const chain: ChainKey = {
      jurisdictionId: jurisdictionId(r.jurisdiction),
      zoneId: r.water ? zoneId(r.jurisdiction, r.water) : null,
      speciesId: speciesId(r.species),
      licenseYearId: regulationId(`license-year:${r.jurisdiction}:${year.year}`),
    };
    chains.set(key, chain);
    await tx
      .insert(regRuleSets)
      .values({
        id: regulationId(`rule:${key}:${version}`),
        ...chain,
        version,
        effectiveFrom: r.effectiveFrom ?? year.startsOn,
        openSeasons: range(r.openSeasons) ?? null,
        releaseOnlyPeriods: range(r.releaseOnlyPeriods) ?? [],
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
      })
      .onConflictDoNothing();
  }
  // Each seeded version's range ends the day before the next one starts.
  for (const chain of chains.values()) await reclose(tx, chain);
  for (const p of data.programs) {
    const id = programId(p.jurisdiction, p.key ?? p.name);
    const [edited] = await tx.select({ id: maPrograms.id, createdBy: maPrograms.createdBy, updatedBy: maPrograms.updatedBy }).from(maPrograms).where(eq(maPrograms.id, id));
    if (edited && (edited.createdBy !== null || edited.updatedBy !== null)) continue; // an administrator's program: leave it
    const values = {
      jurisdictionId: jurisdictionId(p.jurisdiction),
      name: p.name,
      url: p.url,
      sourceYear: p.sourceYear,
      measurement: p.measurement,
      lengthIncrementIn: p.lengthIncrementIn ?? null,
      awardLevels: p.awardLevels,
      rules: p.rules,
    };
    await tx
      .insert(maPrograms)
      .values({ id, ...values })
      .onConflictDoUpdate({ target: maPrograms.id, set: { ...values, updatedAt: new Date() } });
    for (const s of p.species) {
      const category = s.category ?? 'any';
      const row = { programId: id, speciesId: speciesId(s.species), category, minLengthIn: s.minLengthIn ?? null, minWeightLb: s.minWeightLb ?? null, notes: s.notes ?? null };
      await tx
        .insert(maProgramSpecies)
        .values({ id: regulationId(`program-species:${id}:${s.species.toLowerCase()}:${category}`), ...row })
        .onConflictDoUpdate({ target: maProgramSpecies.id, set: { ...row, updatedAt: new Date() } });
    }
  }
}

export const regulationsSeed: Seed = {
  name: 'regulations.reference',
  version: 3,
  description: 'State fishing rules (MN, WI, MI, OH; 2025 license year), special waters and Master Angler programs',
  run: ({ tx }) => run(tx),
};
