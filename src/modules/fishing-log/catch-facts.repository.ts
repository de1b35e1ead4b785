import { and, eq, gte, lt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { catches, logEntries } from './fishing-log.tables.js';

/**
 * The facts of a logged catch that rules are checked against (what, how big, kept or not, when,
 * where — the catch's own position, else its entry's — and the entry's state and time zone).
 */
export interface CatchFacts {
  id: string;
  entryId: string;
  ownerId: string;
  speciesId: string;
  lengthCm: number | null;
  weightKg: number | null;
  count: number;
  released: boolean;
  caughtAt: Date;
  latitude: number | null;
  longitude: number | null;
  waterBody: string | null;
  stateCode: string | null;
  timeZone: string;
  photoUrls: string[];
}

const selection = {
  id: catches.id,
  entryId: catches.entryId,
  ownerId: catches.ownerId,
  speciesId: catches.speciesId,
  lengthCm: catches.lengthCm,
  weightKg: catches.weightKg,
  count: catches.count,
  released: catches.released,
  caughtAt: catches.caughtAt,
  catchLatitude: catches.latitude,
  catchLongitude: catches.longitude,
  entryLatitude: logEntries.latitude,
  entryLongitude: logEntries.longitude,
  waterBody: logEntries.waterBody,
  stateCode: logEntries.stateCode,
  timeZone: logEntries.timeZone,
  photoUrls: catches.photoUrls,
};

type Selected = { [K in keyof typeof selection]: (typeof selection)[K]['_']['data'] | ((typeof selection)[K]['_']['notNull'] extends true ? never : null) };

function toFacts(row: Selected): CatchFacts {
  const own = row.catchLatitude !== null && row.catchLongitude !== null;
  return {
    id: row.id,
    entryId: row.entryId,
    ownerId: row.ownerId,
    speciesId: row.speciesId,
    lengthCm: row.lengthCm,
    weightKg: row.weightKg,
    count: row.count,
    released: row.released,
    caughtAt: row.caughtAt,
    latitude: own ? row.catchLatitude : row.entryLatitude,
    longitude: own ? row.catchLongitude : row.entryLongitude,
    waterBody: row.waterBody,
    stateCode: row.stateCode,
    timeZone: row.timeZone,
    photoUrls: row.photoUrls,
  };
}

export async function findCatchFacts(db: DbOrTx, catchId: string): Promise<CatchFacts | undefined> {
  const [row] = await db.select(selection).from(catches).innerJoin(logEntries, eq(logEntries.id, catches.entryId)).where(eq(catches.id, catchId));
  return row && toFacts(row as Selected);
}

/** The owner's kept catches caught in [from, to), except one (by the owner's catches index). */
export async function keptCatchFacts(db: DbOrTx, ownerId: string, from: Date, to: Date, exceptId: string): Promise<CatchFacts[]> {
  const rows = await db
    .select(selection)
    .from(catches)
    .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
    .where(and(eq(catches.ownerId, ownerId), eq(catches.released, false), gte(catches.caughtAt, from), lt(catches.caughtAt, to), ne(catches.id, exceptId)));
  return rows.map((r) => toFacts(r as Selected));
}
