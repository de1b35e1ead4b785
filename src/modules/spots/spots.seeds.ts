import { readFileSync } from 'node:fs';
import path from 'node:path';
import { v5 as uuidv5 } from 'uuid';
import type { Tx } from '../../core/db/client.js';
import type { Seed } from '../../core/db/seeds.js';
import { projectRoot } from '../../paths.js';
import { spots } from './spots.tables.js';

/**
 * Reference spots: the public boat ramps of reference-data/boat-ramps.json (USGS, CC0), seeded on
 * start like the species. They belong to nobody (owner null), are verified agency records with
 * exact coordinates, and keep their source. The seed adds the records it does not have yet (by the
 * source record) and never changes one it seeded before: administrators correct or deactivate those
 * (/api/admin/spots/…), and their changes stay.
 */

const NAMESPACE = '3b0d2c6e-9f41-5a7b-8c2d-6e1f4a9b7c30';
export const BOAT_RAMPS_FILE = path.join(projectRoot, 'reference-data', 'boat-ramps.json');

interface RampData {
  name: string;
  stateCode: string;
  county: string | null;
  waterBody: string;
  lat: number;
  lon: number;
  accessType: string;
  agency: string;
  huc12: string;
  huc12Name: string;
  sourceRecordId: string;
}

export const referenceSpotId = (sourceRecordId: string) => uuidv5(sourceRecordId, NAMESPACE);

export function loadBoatRamps() {
  return JSON.parse(readFileSync(BOAT_RAMPS_FILE, 'utf8')) as { sourceUrl: string; ramps: RampData[] };
}

async function run(tx: Tx): Promise<void> {
  const { sourceUrl, ramps } = loadBoatRamps();
  const now = new Date();
  const rows = ramps.map((r) => ({
    id: referenceSpotId(r.sourceRecordId),
    ownerId: null,
    name: r.name,
    kind: 'BoatRamp' as const,
    privacy: 'Public' as const,
    lat: r.lat,
    lon: r.lon,
    publicLat: r.lat,
    publicLon: r.lon,
    waterBody: r.waterBody,
    stateCode: r.stateCode,
    county: r.county,
    agency: r.agency,
    description: `${r.accessType} access (USGS Boat Ramp Locations, record ${r.sourceRecordId.replace('USGS_BoatRamps.csv ', '')}; HUC12 ${r.huc12} ${r.huc12Name})`,
    sourceUrl,
    sourceRecordId: r.sourceRecordId,
    status: 'Verified' as const,
    verifiedAt: now,
  }));
  await tx.insert(spots).values(rows).onConflictDoNothing({ target: spots.sourceRecordId });
}

export const boatRampsSeed: Seed = {
  name: 'spots.boat-ramps',
  version: 1,
  description: 'Public boat ramps of Minnesota and Wisconsin (USGS Boat Ramp Locations, CC0) as reference spots',
  run: ({ tx }) => run(tx),
};
