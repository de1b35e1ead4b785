import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../core/db/client.js';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { jurisdictionId, programId, regulationId } from '../regulations/index.js';
import { speciesId } from '../species/index.js';
import { maProgramSpecies, maPrograms, type AwardLevel } from './master-angler.tables.js';

/**
 * The Master Angler programs of reference-data/regulations/master-angler.json, after the
 * regulations seed (their jurisdictions). Ids are UUIDv5 of natural keys; seeded rows have no
 * created_by, and a program an administrator changed is left alone.
 */

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

export const loadMasterAnglerPrograms = () =>
  (JSON.parse(readFileSync(path.join(projectRoot, 'reference-data', 'regulations', 'master-angler.json'), 'utf8')) as { programs: ProgramData[] }).programs;

async function run(tx: Tx): Promise<void> {
  for (const p of loadMasterAnglerPrograms()) {
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


export const masterAnglerSeed: Seed = {
  name: 'master-angler.reference',
  version: 1,
  description: 'Master Angler programs of MN, WI, MI, OH and IA with their species minimums',
  run: ({ tx }) => run(tx),
};
