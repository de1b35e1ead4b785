import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../core/db/client.js';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { speciesId } from '../species/index.js';
import type { Boundary } from './geo.js';
import { licenseYearProblems, writeLicenseYears, writeOutline, type LicenseYearFileData } from './license-years.js';
import { jurisdictionId, programId, regulationId } from './reference-ids.js';
import { maProgramSpecies, maPrograms, regJurisdictions, type AwardLevel } from './regulations.tables.js';

/**
 * Reference data of reference-data/regulations/: jurisdictions with their outlines, the license-year
 * files `rules-<year>.json` (license years, special waters, rule sets: see license-years.ts) and
 * Master Angler programs. Ids are UUIDv5 of natural keys. Seeded rows have no created_by.
 */

export { jurisdictionId, programId, regulationId, zoneId } from './reference-ids.js';
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
  species: Array<{ species: string; category?: 'any' | 'release' | 'harvest'; minLengthIn?: number; minWeightLb?: number; notes?: string; dataYear?: number; sourceUrl?: string }>;
}

/** The license-year files, oldest first. */
export const licenseYearFiles = () =>
  readdirSync(DIR)
    .filter((f) => /^rules-\d{4}\.json$/.test(f))
    .sort();

export function loadRegulationData() {
  return {
    jurisdictions: read<{ jurisdictions: JurisdictionData[] }>('jurisdictions.json').jurisdictions,
    licenseYears: licenseYearFiles().map((file) => ({ file, data: read<LicenseYearFileData>(file) })),
    programs: read<{ programs: ProgramData[] }>('master-angler.json').programs,
  };
}

async function run(tx: Tx): Promise<void> {
  const data = loadRegulationData();
  for (const j of data.jurisdictions) {
    const [month, day] = j.licenseYearStart.split('-').map(Number) as [number, number];
    const values = { code: j.code, name: j.name, agencyName: j.agencyName, agencyUrl: j.agencyUrl, licenseYearStartMonth: month, licenseYearStartDay: day };
    await tx
      .insert(regJurisdictions)
      .values({ id: jurisdictionId(j.code), ...values })
      .onConflictDoUpdate({ target: regJurisdictions.id, set: { ...values, updatedAt: new Date() }, where: and(isNull(regJurisdictions.createdBy), isNull(regJurisdictions.updatedBy)) });
    if (j.boundary) await writeOutline(tx, j.code, j.name, j.agencyUrl, j.boundary);
  }
  // The same checks as an import (a broken file fails the seed, naming the problem).
  for (const { file, data: year } of data.licenseYears) {
    const problems = await licenseYearProblems(tx, year);
    if (problems.length) throw new Error(`reference-data/regulations/${file}: ${problems.map((p) => `${p.pointer} ${p.detail}`).join('; ')}`);
    await writeLicenseYears(tx, year, null);
  }
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
      const row = { programId: id, speciesId: speciesId(s.species), category, minLengthIn: s.minLengthIn ?? null, minWeightLb: s.minWeightLb ?? null, notes: s.notes ?? null, dataYear: s.dataYear ?? null, sourceUrl: s.sourceUrl ?? null };
      await tx
        .insert(maProgramSpecies)
        .values({ id: regulationId(`program-species:${id}:${s.species.toLowerCase()}:${category}`), ...row })
        .onConflictDoUpdate({ target: maProgramSpecies.id, set: { ...row, updatedAt: new Date() } });
    }
  }
}

export const regulationsSeed: Seed = {
  name: 'regulations.reference',
  version: 5,
  description: 'State fishing rules (MN, WI, MI, OH; 2025 license year), special waters and Master Angler programs',
  run: ({ tx }) => run(tx),
};
