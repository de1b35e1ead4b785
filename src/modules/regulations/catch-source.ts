import { and, eq, gte, lt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { visibleEntry } from '../fishing-log/entries.service.js';
import { catches, logEntries } from '../fishing-log/index.js';
import { RegulationErrors } from './regulations.errors.js';

/**
 * What the regulations module needs from the fishing log: one catch the caller may see, and the
 * owner's kept catches of a time range. The module depends on this port only (tests and the app
 * may pass another implementation through the route options).
 *
 * INTEGRATION POINT: the fishing-log module has no public "catch by id" function yet. The adapter
 * below decides visibility through the fishing log's public `visibleEntry` (its 404/403 rule), but
 * reads the catch rows itself. When the fishing log exposes `visibleCatch` / `keptCatchesOfOwner`
 * (issue 17's module public files), replace the two queries here with those calls.
 */

export interface LoggedCatch {
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

export interface CatchSource {
  /** The catch when `viewerId` may see it; throws the fishing log's 404 / 403 problems. */
  visibleCatch(db: DbOrTx, viewerId: string, catchId: string): Promise<LoggedCatch>;
  /** The owner's kept catches caught in [from, to), except `exceptId`. */
  keptCatches(db: DbOrTx, ownerId: string, from: Date, to: Date, exceptId: string): Promise<LoggedCatch[]>;
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

function toLogged(row: Selected): LoggedCatch {
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

export const fishingLogCatchSource: CatchSource = {
  async visibleCatch(db, viewerId, catchId) {
    const [row] = await db.select(selection).from(catches).innerJoin(logEntries, eq(logEntries.id, catches.entryId)).where(eq(catches.id, catchId));
    if (!row) throw RegulationErrors.catchNotFound(catchId);
    await visibleEntry(db, viewerId, row.entryId);
    return toLogged(row as Selected);
  },
  async keptCatches(db, ownerId, from, to, exceptId) {
    const rows = await db
      .select(selection)
      .from(catches)
      .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
      .where(and(eq(catches.ownerId, ownerId), eq(catches.released, false), gte(catches.caughtAt, from), lt(catches.caughtAt, to), ne(catches.id, exceptId)));
    return rows.map((r) => toLogged(r as Selected));
  },
};
