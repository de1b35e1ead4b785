import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, isNull } from 'drizzle-orm';
import type { Tx } from '../../core/db/client.js';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import type { Boundary } from './geo.js';
import { licenseYearProblems, writeLicenseYears, writeOutline, type LicenseYearFileData } from './license-years.js';
import { jurisdictionId } from './reference-ids.js';
import { regJurisdictions } from './regulations.tables.js';

/**
 * Reference data of reference-data/regulations/: jurisdictions with their outlines, the license-year
 * files `rules-<year>.json` (license years, special waters, rule sets: see license-years.ts)
 * (Master Angler programs: master-angler.seeds.ts). Ids are UUIDv5 of natural keys. Seeded rows have no created_by.
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

/** The license-year files, oldest first. */
export const licenseYearFiles = () =>
  readdirSync(DIR)
    .filter((f) => /^rules-\d{4}\.json$/.test(f))
    .sort();

export function loadRegulationData() {
  return {
    jurisdictions: read<{ jurisdictions: JurisdictionData[] }>('jurisdictions.json').jurisdictions,
    licenseYears: licenseYearFiles().map((file) => ({ file, data: read<LicenseYearFileData>(file) })),
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
}

export const regulationsSeed: Seed = {
  name: 'regulations.reference',
  version: 5,
  description: 'State fishing rules (MN, WI, MI, OH; 2025 license year) and special waters',
  run: ({ tx }) => run(tx),
};
