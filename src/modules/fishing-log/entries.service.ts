import { relationshipsOf } from '../../core/access/visibility.js';
import { activeSpeciesAmong } from '../species/index.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { DbOrTx } from '../../core/db/client.js';
import { issuedTogether, onOneConnection, transaction } from '../../core/db/pipeline.js';
import { allows, authorize, isOwner } from '../../core/access/policy.js';
import { catchPolicy, entryPolicy, sessionPolicy } from '../../core/access/policies/index.js';
import { showsExactLocation, type LocatedRecord } from '../../core/access/location.js';
import { clientIdOf, replayOf } from '../../core/http/client-ids.js';
import { AppError } from '../../core/http/problem.js';
import { preconditionFailed, type Precondition } from '../../core/http/conditional.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { FeedPage, Page } from '../../core/http/pagination.js';
import { assertUsableGearSetup, checkCatalogItem, usableGearSetups } from '../gear/setups.service.js';
import { catalogItemStatus, type ItemStatus } from '../gear/gear.service.js';
import { criteriaOfCatches, evaluateChangedCatch, evaluateNewCatch, lockPersonalBests, personalBestsLocked, reevaluatePersonalBests, withCatchesRemoved, type PersonalBestChange } from './personal-bests.service.js';
import * as repo from './entries.repository.js';
import { FishingLogErrors } from './fishing-log.errors.js';
import { CatchReplaceInput, ClarityEnum, MethodEnum, MoonPhaseEnum, SkyEnum, EntryReplaceInput, type CatchInputType, type CatchReplaceType, type EntriesQueryType, type EntryInputType, type EntryReplaceType } from './fishing-log.schemas.js';
import type { CatchRow, EntryRow } from './fishing-log.tables.js';
import { eligibleProgramsOfCatches } from './master-angler.port.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { linkableSession } from './sessions.repository.js';
import { catchView, entryView, fullEntryView } from './views.js';
import { photosOfTrees, photoViews, photoViewsOf, type PhotoView } from '../photos/photos.service.js';

/** Log entries and their catches: visibility, ownership and validation of references. */

/** Zones already accepted (building an Intl.DateTimeFormat to check one costs more than the entry's insert). */
const knownTimeZones = new Set<string>();
const MAX_KNOWN_TIME_ZONES = 1000;

export function assertTimeZone(value: string, pointer: string): void {
  if (knownTimeZones.has(value)) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw FishingLogErrors.badTimeZone(pointer, value);
  }
  if (knownTimeZones.size < MAX_KNOWN_TIME_ZONES) knownTimeZones.add(value);
}

async function entryValues(deps: ServiceDeps<DbOrTx>, ownerId: string, input: EntryInputType): Promise<repo.EntryValues> {
  const { db } = deps;
  assertTimeZone(input.timeZone, '/timeZone');
  if (input.sessionId) {
    // A session of another user is refused as an unknown one: sessions are private, their ids not confirmed.
    const session = await linkableSession(db, input.sessionId);
    if (!session || !(await allows(sessionPolicy, ownerId, 'link', session, deps))) throw FishingLogErrors.unknownSession();
  }
  return {
    title: input.title,
    occurredAt: new Date(input.occurredAt),
    timeZone: input.timeZone,
    sessionId: input.sessionId ?? null,
    latitude: input.location?.latitude ?? null,
    longitude: input.location?.longitude ?? null,
    waterBody: input.location?.waterBody ?? null,
    stateCode: input.location?.stateCode?.toUpperCase() ?? null,
    airTemperatureC: input.weather?.airTemperatureC ?? null,
    sky: SkyEnum.fromApi(input.weather?.sky) ?? null,
    windSpeedKmh: input.weather?.windSpeedKmh ?? null,
    windDirection: input.weather?.windDirection ?? null,
    pressureHpa: input.weather?.pressureHpa ?? null,
    moonPhase: MoonPhaseEnum.fromApi(input.weather?.moonPhase) ?? null,
    waterTemperatureC: input.water?.temperatureC ?? null,
    waterClarity: ClarityEnum.fromApi(input.water?.clarity) ?? null,
    waterDepthM: input.water?.depthM ?? null,
    method: input.method ? MethodEnum.fromApi(input.method) : null,
    notes: input.notes ?? null,
    visibility: input.visibility ?? 'Private',
    shareExactLocation: input.shareExactLocation ?? false,
  };
}

export function toFilters(viewerId: string, query: EntriesQueryType): repo.EntryFilters {
  if (query.mine && query.ownerId && !isOwner(viewerId, { ownerId: query.ownerId })) throw FishingLogErrors.mineWithOwner();
  const box = [query.minLat, query.maxLat, query.minLng, query.maxLng];
  const given = box.filter((v) => v !== undefined).length;
  if (given !== 0 && (given !== 4 || query.minLat! > query.maxLat! || query.minLng! > query.maxLng!)) throw FishingLogErrors.partialBbox();
  return {
    ...(query.mine ? { mine: true } : {}),
    ...(query.ownerId ? { ownerId: query.ownerId } : {}),
    ...(query.speciesId ? { speciesId: query.speciesId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
    ...(query.visibility ? { visibility: query.visibility } : {}),
    ...(query.scope ? { scope: query.scope } : {}),
    ...(given === 4 ? { bbox: { minLat: query.minLat!, maxLat: query.maxLat!, minLng: query.minLng!, maxLng: query.maxLng! } } : {}),
  };
}

export async function listEntries(deps: ServiceDeps, viewerId: string, query: EntriesQueryType, page: FeedPage) {
  const { db } = deps;
  const { items, last } = await repo.listVisible(db, relationshipsOf(deps), viewerId, toFilters(viewerId, query), page);
  // The page's photos in one statement, whatever its size.
  const photos = await photoViews(deps, viewerId, items.map((row) => row.id));
  return { last, items: items.map((row) => Object.assign(entryView(viewerId, row), { photos: photos.get(row.id)! })) };
}

/** The entry if the viewer may see it: 404 when absent, 403 when not shared with them. */
export async function visibleEntry(deps: ServiceDeps<DbOrTx>, viewerId: string, id: string): Promise<repo.EntryWithOwner> {
  const { db } = deps;
  return authorize(entryPolicy, viewerId, 'read', await repo.findEntry(db, id), deps, () => FishingLogErrors.entryNotFound(id));
}

/**
 * The entry, its catches and their photos in one round trip (pipelined on one connection); the
 * catches and photos are read before the entry's policy is checked and dropped with it when the
 * viewer may not see it.
 */
export async function getEntry(deps: ServiceDeps, viewerId: string, id: string) {
  const { db } = deps;
  const [row, rows, photoRows] = await onOneConnection(db, (connection) =>
    Promise.all([repo.findEntry(connection, id), repo.catchesOfEntries(connection, [id]), photosOfTrees(connection, [id])]),
  );
  const entry = await authorize(entryPolicy, viewerId, 'read', row, deps, () => FishingLogErrors.entryNotFound(id));
  const photos = photoViewsOf(viewerId, photoRows, [id, ...rows.map((c) => c.id)]);
  const view = fullEntryView(viewerId, entry, rows, await catchViews(deps, viewerId, entry, rows, photos));
  return Object.assign(view, { photos: photos.get(id)! });
}

/**
 * One statement (with a session: its check first; the session's foreign key guards the rest). With
 * the client's `id`: a retry of the same create answers the entry as it is now (`created` false).
 */
export async function createEntry(deps: ServiceDeps, ownerId: string, input: EntryInputType & { id?: string }) {
  const { db } = deps;
  const client = clientIdOf(input);
  const { id: _id, ...body } = input;
  const entry = await repo.insertEntryWithOwner(db, ownerId, await entryValues(deps, ownerId, body), client);
  if (entry) return { created: true, entry: fullEntryView(ownerId, entry, []) };
  const existing = replayOf(client!, await repo.findEntry(db, client!.id), (row) => isOwner(ownerId, row), 'log entry');
  return { created: false, entry: await getEntry(deps, ownerId, existing.id) };
}

/**
 * The entry locked for a change, after the viewer's personal-best lock (one statement, that order):
 * a deletion or change then cannot deadlock with a re-evaluation of the viewer's personal bests.
 */
async function ownedEntryForUpdate(deps: ServiceDeps<DbOrTx>, viewerId: string, id: string, action: 'update' | 'delete' | 'addCatch' = 'update') {
  const { db: tx } = deps;
  const row = await repo.findEntryForUpdate(tx, id, viewerId);
  personalBestsLocked(deps, viewerId);
  return authorize(entryPolicy, viewerId, action, row, deps, () => FishingLogErrors.entryNotFound(id));
}

/** A time of a row (a Date) or of an offline app's record (milliseconds, as WatermelonDB keeps them) as the body's ISO text; anything else as it is, for the body's schema to judge. */
export function isoTime(value: Date | null): string | null {
  const time: unknown = value;
  if (time instanceof Date) return time.toISOString();
  return typeof time === 'number' ? new Date(time).toISOString() : (time as string | null);
}

/**
 * An entry as a PUT body: what the owner sent, in canonical form. The one mapping of an entry's columns to its body,
 * for a merge patch here and for a record an offline app pushes (sync.records.ts: its columns in camelCase).
 */
export function entryAsInput(row: EntryRow): EntryReplaceType {
  const given = (values: Record<string, unknown>) => (Object.values(values).some((v) => v !== null) ? values : null);
  return {
    title: row.title,
    occurredAt: isoTime(row.occurredAt),
    timeZone: row.timeZone,
    sessionId: row.sessionId,
    location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude, waterBody: row.waterBody, stateCode: row.stateCode } : null,
    weather: given({ airTemperatureC: row.airTemperatureC, sky: row.sky, windSpeedKmh: row.windSpeedKmh, windDirection: row.windDirection, pressureHpa: row.pressureHpa, moonPhase: row.moonPhase }),
    water: given({ temperatureC: row.waterTemperatureC, clarity: row.waterClarity, depthM: row.waterDepthM }),
    method: row.method,
    notes: row.notes,
    visibility: row.visibility,
    shareExactLocation: row.shareExactLocation,
  } as EntryReplaceType;
}

/** The species of an entry's catches: the personal-best criteria a change of the entry may touch. */
const speciesOf = (keys: { speciesId: string }[]) => [...new Set(keys.map((k) => k.speciesId))];

/** PUT (replace) or PATCH (merge patch) of an entry; its catches are kept. With If-Match, only of that version (412). */
export async function updateEntry(deps: ServiceDeps, viewerId: string, id: string, change: Change<EntryReplaceType>, precondition?: Precondition) {
  const { db } = deps;
  return transaction(db, async (tx) => {
    const row = await ownedEntryForUpdate(inTx(deps, tx), viewerId, id);
    const input = applyChange(change, EntryReplaceInput, () => entryAsInput(row));
    if (!(await repo.updateEntry(tx, id, await entryValues(inTx(deps, tx), viewerId, input), precondition))) throw preconditionFailed('log entry', row.version);
    // Criteria may name a water body or state: the entry's catches may now match others.
    const keys = await repo.catchKeysOfEntry(tx, id);
    if (keys.length > 0) await reevaluatePersonalBests(inTx(deps, tx), viewerId, { speciesIds: speciesOf(keys) });
    const entry = (await repo.findEntry(tx, id))!;
    return fullEntryView(viewerId, entry, await repo.catchesOfEntries(tx, [id]));
  });
}

export async function deleteEntry(deps: ServiceDeps, viewerId: string, id: string, precondition?: Precondition): Promise<void> {
  const { db } = deps;
  await transaction(db, async (tx) => {
    const row = await ownedEntryForUpdate(inTx(deps, tx), viewerId, id, 'delete');
    const keys = await repo.catchKeysOfEntry(tx, id);
    await withCatchesRemoved(
      inTx(deps, tx),
      viewerId,
      keys.map((k) => k.id),
      async () => {
        if (!(await repo.deleteEntry(tx, id, precondition))) throw preconditionFailed('log entry', row.version);
      },
    );
  });
}

export async function listCatches(deps: ServiceDeps, viewerId: string, entryId: string, page: Page) {
  const { db } = deps;
  const entry = await visibleEntry(deps, viewerId, entryId);
  const { items, total } = await repo.catchesPage(db, entryId, page);
  return { total, items: await catchViews(deps, viewerId, entry, items) };
}

/** A catch's columns from a request body, its references checked (species, catalog lure, own setup). */
async function catchValues(deps: ServiceDeps<DbOrTx>, ownerId: string, input: CatchInputType, entryTime: Date): Promise<repo.CatchValues> {
  await assertReferences(deps, ownerId, input);
  return { ...newCatchValues(input), caughtAt: input.caughtAt ? new Date(input.caughtAt) : entryTime };
}

/** What the references of some catches are: the active species among them, their catalog lures' status, the owner's usable setups. */
interface CatchReferences {
  species: Set<string>;
  lures: Map<string, ItemStatus>;
  setups: Set<string>;
}

/** The references of catches of `ownerId`, read set-based: one statement each (issued together), whatever the number of catches. */
function readReferences(deps: ServiceDeps<DbOrTx>, ownerId: string, inputs: readonly CatchInputType[]): Promise<[Set<string>, Map<string, ItemStatus>, Set<string>]> {
  const lureIds = inputs.flatMap((input) => (input.lureId ? [input.lureId] : []));
  const setupIds = inputs.flatMap((input) => (input.gearSetupId ? [input.gearSetupId] : []));
  return Promise.all([
    activeSpeciesAmong(deps.db, inputs.map((input) => input.speciesId)),
    lureIds.length > 0 ? catalogItemStatus(deps, lureIds) : new Map<string, ItemStatus>(),
    setupIds.length > 0 ? usableGearSetups(deps, ownerId, setupIds) : new Set<string>(),
  ]);
}

/** The rules of a catch's references, in this order: an active species, a catalog lure, one of the owner's setups (when given). */
function assertCatchReferences(input: CatchInputType, refs: CatchReferences): void {
  if (!refs.species.has(input.speciesId)) throw FishingLogErrors.unknownSpecies();
  if (input.lureId) checkCatalogItem(refs.lures.get(input.lureId), { id: input.lureId, kind: 'lure', pointer: '/lureId' });
  if (input.gearSetupId) assertUsableGearSetup(refs.setups, input.gearSetupId, '/gearSetupId');
}

/** The species is active, the catalog lure exists and the gear setup is the owner's (when given), in that order. */
async function assertReferences(deps: ServiceDeps<DbOrTx>, ownerId: string, input: CatchInputType): Promise<void> {
  const [species, lures, setups] = await readReferences(deps, ownerId, [input]);
  assertCatchReferences(input, { species, lures, setups });
}

/** A new catch's columns from a request body (`caughtAt` null: the entry's time). */
function newCatchValues(input: CatchInputType): repo.NewCatchValues {
  return {
    speciesId: input.speciesId,
    lengthCm: input.lengthCm ?? null,
    weightKg: input.weightKg ?? null,
    count: input.count ?? 1,
    released: input.released,
    caughtAt: input.caughtAt ? new Date(input.caughtAt) : null,
    bait: input.bait ?? null,
    lure: input.lure ?? null,
    lureItemId: input.lureId ?? null,
    gearSetupId: input.gearSetupId ?? null,
    photoUrls: input.photoUrls ?? [],
    notes: input.notes ?? null,
    latitude: input.location?.latitude ?? null,
    longitude: input.location?.longitude ?? null,
  };
}

/** A catch as a PUT body: the one mapping of a catch's columns to its body (a merge patch's; a pushed record's, sync.records.ts). */
export function catchAsInput(row: CatchRow): CatchReplaceType {
  return {
    speciesId: row.speciesId,
    lengthCm: row.lengthCm,
    weightKg: row.weightKg,
    count: row.count,
    released: row.released,
    caughtAt: isoTime(row.caughtAt),
    bait: row.bait,
    lure: row.lure,
    lureId: row.lureItemId,
    gearSetupId: row.gearSetupId,
    photoUrls: row.photoUrls,
    notes: row.notes,
    location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null,
  } as CatchReplaceType;
}

/** A catch to add: its entry and its body (with the id the client chose, if any). */
export interface NewCatch {
  entryId: string;
  input: CatchInputType & { id?: string };
}

/** What became of one catch of `addCatches`. */
export type CatchOutcome =
  | { kind: 'created'; row: repo.CatchWithSpecies; entry: EntryRow }
  /** The same create again (a retry after a lost answer): nothing was done. */
  | { kind: 'replayed'; id: string }
  /** Its id is another record's, or the owner's made by another request: the 409 `request.id_conflict` (not thrown). */
  | { kind: 'taken'; id: string; error: AppError };

/**
 * Adds catches of `ownerId` in the caller's transaction, set-based: the entries locked (after the
 * owner's personal-best lock) and the references read in one round trip (a statement each), every
 * catch checked in order by the rules of a single create (the entry policy's `addCatch`: 404/403;
 * then a client-chosen id that exists is a replay or taken; then the references), one multi-row
 * INSERT with the read of the personal-best criteria the catches count for (in that first round
 * trip too when no catch names a lure or a setup), and one comparison with the bests in force
 * (several catches of one criterion: the best of them). The first catch refused throws (its error
 * passed through `refused` with its index): the caller's transaction must then roll back, and
 * writes nothing. `addCatch` is this with one catch.
 */
export async function addCatches(
  deps: ServiceDeps<DbOrTx>,
  ownerId: string,
  items: readonly NewCatch[],
  refused: (index: number, error: unknown) => unknown = (_index, error) => error,
): Promise<{ outcomes: CatchOutcome[]; personalBests: PersonalBestChange[] }> {
  const { db: tx } = deps;
  const clients = items.map((item) => clientIdOf(item.input, { entryId: item.entryId }));
  const ids = clients.map((client) => client?.id ?? uuidv7());
  const rowOf = (index: number): repo.NewCatchRow => ({ ...newCatchValues(items[index]!.input), id: ids[index]!, entryId: items[index]!.entryId, createDigest: clients[index]?.digest ?? null });
  const insert = (indexes: number[]) => {
    const rows = indexes.map(rowOf);
    return Promise.all([repo.insertCatches(tx, ownerId, rows), criteriaOfCatches(deps, rows.map((row) => row.id))]);
  };
  // Without a catalog lure or a gear setup (foreign keys the INSERT cannot leave out), the catches are inserted in the
  // same round trip as the reads, before they are checked: one refused then rolls the transaction back.
  const checkedFirst = items.some((item) => item.input.lureId || item.input.gearSetupId);
  let early: ReturnType<typeof insert> | undefined;
  const [entries, taken, [species, lures, setups]] = await issuedTogether(tx, () => {
    const reads = Promise.all([
      repo.findEntriesForUpdate(tx, items.map((item) => item.entryId), ownerId),
      repo.catchesAmong(tx, clients.flatMap((client) => (client ? [client.id] : []))),
      readReferences(deps, ownerId, items.map((item) => item.input)),
    ]);
    if (!checkedFirst) {
      early = insert(items.map((_item, index) => index));
      early.catch(() => undefined); // awaited below unless a catch is refused first (its transaction then fails anyway)
    }
    return reads;
  });
  personalBestsLocked(deps, ownerId);
  const replay = (index: number, existing: repo.TakenCatch | undefined): CatchOutcome => {
    const id = ids[index]!;
    try {
      replayOf(clients[index]!, existing, (row) => isOwner(ownerId, row), 'catch');
      return { kind: 'replayed', id };
    } catch (error) {
      if (error instanceof AppError) return { kind: 'taken', id, error };
      throw error;
    }
  };
  const outcomes: CatchOutcome[] = [];
  const fresh: number[] = [];
  for (const [index, item] of items.entries()) {
    try {
      await authorize(entryPolicy, ownerId, 'addCatch', entries.get(item.entryId), deps, () => FishingLogErrors.entryNotFound(item.entryId));
      const existing = taken.get(ids[index]!);
      if (existing) {
        outcomes[index] = replay(index, existing);
        continue;
      }
      assertCatchReferences(item.input, { species, lures, setups });
      fresh.push(index);
    } catch (error) {
      throw refused(index, error);
    }
  }
  const [inserted, criteria] = await (early ?? issuedTogether(tx, () => insert(fresh)));
  // Not inserted: its id was taken meanwhile, or by a catch before it in this batch.
  const missing: number[] = [];
  const created = new Set<string>();
  for (const index of fresh) {
    const row = inserted.get(ids[index]!);
    inserted.delete(ids[index]!);
    if (row) {
      outcomes[index] = { kind: 'created', row, entry: entries.get(items[index]!.entryId)! };
      created.add(row.id);
    } else missing.push(index);
  }
  if (missing.length > 0) {
    const now = await repo.catchesAmong(tx, missing.map((index) => ids[index]!));
    for (const index of missing) outcomes[index] = replay(index, now.get(ids[index]!));
  }
  // Only the catches this call made count (a taken id's criteria are another catch's, maybe another owner's).
  return { outcomes, personalBests: await evaluateNewCatch(deps, ownerId, criteria.filter((c) => created.has(c.catchId))) };
}

/**
 * Adds a catch in one transaction (`addCatches` with one catch): BEGIN, the entry locked (after
 * the owner's personal-best lock), the references read, the INSERT and the personal-best criteria
 * it counts for in one round trip (with a catalog lure or a gear setup, the INSERT in a second one,
 * after the checks); then the comparison with the bests in force, the Master Angler eligibility and
 * COMMIT. With the client's `id`: a retry of the same create answers the catch as it is now
 * (`created` false); that id taken otherwise is a 409.
 */
export async function addCatch(deps: ServiceDeps, viewerId: string, entryId: string, input: CatchInputType & { id?: string }) {
  const { db } = deps;
  const created = await transaction(db, async (tx) => {
    const { outcomes, personalBests } = await addCatches(inTx(deps, tx), viewerId, [{ entryId, input }]);
    const outcome = outcomes[0]!;
    if (outcome.kind === 'taken') throw outcome.error;
    if (outcome.kind === 'replayed') return undefined;
    return Object.assign(catchView(outcome.row, true), { personalBests, masterAngler: await masterAnglerOf(inTx(deps, tx), outcome.row, outcome.entry.stateCode) });
  });
  if (created) return { created: true, catch: created };
  const client = clientIdOf(input, { entryId })!;
  const existing = replayOf(client, await repo.findCatch(db, client.id), (row) => isOwner(viewerId, row), 'catch');
  return { created: false, catch: Object.assign(catchView(existing, true), { personalBests: [], masterAngler: await masterAnglerOf(deps, existing, existing.entry.stateCode) }) };
}

/** The Master Angler programs a catch is eligible for (its entry's state and the owner's home state). */
async function masterAnglerOf(deps: ServiceDeps<DbOrTx>, row: CatchRow, stateCode: string | null) {
  return (await masterAnglerOfMany(deps, row.ownerId, [row], stateCode))[0]!;
}

/** The same for an owner's catches of one entry at once (the home state is read once at most). */
async function masterAnglerOfMany(deps: ServiceDeps<DbOrTx>, ownerId: string, rows: readonly CatchRow[], stateCode: string | null) {
  const found = await eligibleProgramsOfCatches(
    deps,
    ownerId,
    rows.map((r) => ({ speciesId: r.speciesId, lengthCm: r.lengthCm, weightKg: r.weightKg, stateCode })),
  );
  return found.map((programs) => ({ eligible: programs.length > 0, programs }));
}

/** Catch views, with the Master Angler eligibility for the owner (a prompt to submit: others never see it). */
async function catchViews(deps: ServiceDeps<DbOrTx>, viewerId: string, entry: LocatedRecord & { stateCode: string | null }, rows: repo.CatchWithSpecies[], photosRead?: Map<string, PhotoView[]>) {
  const owner = isOwner(viewerId, entry);
  const photos = photosRead ?? (await photoViews(deps, viewerId, rows.map((c) => c.id)));
  const views = rows.map((c) => Object.assign(catchView(c, showsExactLocation(viewerId, entry), owner), { photos: photos.get(c.id)! }));
  if (!owner) return views;
  const eligibility = await masterAnglerOfMany(deps, viewerId, rows, entry.stateCode);
  return views.map((view, i) => Object.assign(view, { masterAngler: eligibility[i]! }));
}

/** The catch if it belongs to the entry of the path (another entry's catch is a 404 here). */
async function catchOfEntry(deps: ServiceDeps<DbOrTx>, entryId: string, catchId: string): Promise<repo.CatchWithEntry | undefined> {
  const { db } = deps;
  const row = await repo.findCatch(db, catchId);
  return row && row.entryId === entryId ? row : undefined;
}

const catchNotFound = (entryId: string, catchId: string) => () => FishingLogErrors.catchNotFound(entryId, catchId);

export async function getCatch(deps: ServiceDeps, viewerId: string, entryId: string, catchId: string) {
  const row = await authorize(catchPolicy, viewerId, 'read', await catchOfEntry(deps, entryId, catchId), deps, catchNotFound(entryId, catchId));
  return (await catchViews(deps, viewerId, row.entry, [row]))[0]!;
}

/** The catch if the viewer may see it (404 when unknown, or not the entry's when `entryId` is given; 403 when not shared with them). */
export async function visibleCatch(deps: ServiceDeps<DbOrTx>, viewerId: string, catchId: string, entryId?: string): Promise<repo.CatchWithEntry> {
  const { db } = deps;
  const row = entryId === undefined ? await repo.findCatch(db, catchId) : await catchOfEntry(deps, entryId, catchId);
  return authorize(catchPolicy, viewerId, 'read', row, deps, catchNotFound(entryId ?? row?.entryId ?? '', catchId));
}

/** PUT (replace) or PATCH (merge patch) of a catch; personal bests follow in the same transaction. With If-Match, only of that version (412). */
export async function updateCatch(deps: ServiceDeps, viewerId: string, entryId: string, catchId: string, change: Change<CatchReplaceType>, precondition?: Precondition) {
  const { db } = deps;
  return transaction(db, async (tx) => {
    await lockPersonalBests(inTx(deps, tx), viewerId);
    await repo.lockCatch(tx, catchId);
    const current = await authorize(catchPolicy, viewerId, 'update', await catchOfEntry(inTx(deps, tx), entryId, catchId), inTx(deps, tx), catchNotFound(entryId, catchId));
    const input = applyChange(change, CatchReplaceInput, () => catchAsInput(current));
    if (!(await repo.updateCatch(tx, catchId, await catchValues(inTx(deps, tx), viewerId, input, current.entry.occurredAt), precondition))) throw preconditionFailed('catch', current.version);
    const personalBests = await evaluateChangedCatch(inTx(deps, tx), viewerId, catchId);
    const row = (await repo.findCatch(tx, catchId))!;
    return Object.assign(catchView(row, true), { personalBests, masterAngler: await masterAnglerOf(inTx(deps, tx), row, row.entry.stateCode) });
  });
}

/** Deletes a catch; a personal best it held falls back to the next best catch (or is withdrawn). */
export async function deleteCatch(deps: ServiceDeps, viewerId: string, entryId: string, catchId: string, precondition?: Precondition): Promise<void> {
  const { db } = deps;
  await transaction(db, async (tx) => {
    await lockPersonalBests(inTx(deps, tx), viewerId);
    await repo.lockCatch(tx, catchId);
    const current = await authorize(catchPolicy, viewerId, 'delete', await catchOfEntry(inTx(deps, tx), entryId, catchId), inTx(deps, tx), catchNotFound(entryId, catchId));
    await withCatchesRemoved(inTx(deps, tx), viewerId, [catchId], async () => {
      if (!(await repo.deleteCatch(tx, catchId, precondition))) throw preconditionFailed('catch', current.version);
    });
  });
}

/** One catch's owner and capture time, for modules that reference a catch (e.g. tournament submissions). */
export async function catchRef(deps: ServiceDeps<DbOrTx>, id: string): Promise<{ id: string; ownerId: string; caughtAt: Date } | undefined> {
  const { db } = deps;
  return repo.findCatchRef(db, id);
}
