import type { Db, DbOrTx } from '../../core/db/client.js';
import { authorize, isOwner } from '../../core/access/policy.js';
import { entryPolicy } from '../../core/access/policies/entries.js';
import { showsExactLocation } from '../../core/access/location.js';
import type { FeedPage, Page } from '../../core/http/pagination.js';
import { assertCatalogItem, assertOwnGearSetup } from '../gear/setups.service.js';
import { lockPersonalBests, reevaluatePersonalBests } from '../personal-bests/personal-bests.service.js';
import * as repo from './entries.repository.js';
import { FishingLogErrors } from './fishing-log.errors.js';
import type { CatchInputType, EntriesQueryType, EntryInputType } from './fishing-log.schemas.js';
import { ownsSession } from './sessions.repository.js';
import { catchView, entryView, fullEntryView } from './views.js';

/** Log entries and their catches: visibility, ownership and validation of references. */

export function assertTimeZone(value: string, pointer: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw FishingLogErrors.badTimeZone(pointer, value);
  }
}

async function entryValues(db: DbOrTx, ownerId: string, input: EntryInputType): Promise<repo.EntryValues> {
  assertTimeZone(input.timeZone, '/timeZone');
  if (input.sessionId && !(await ownsSession(db, ownerId, input.sessionId))) throw FishingLogErrors.unknownSession();
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
    sky: input.weather?.sky ?? null,
    windSpeedKmh: input.weather?.windSpeedKmh ?? null,
    windDirection: input.weather?.windDirection ?? null,
    pressureHpa: input.weather?.pressureHpa ?? null,
    moonPhase: input.weather?.moonPhase ?? null,
    waterTemperatureC: input.water?.temperatureC ?? null,
    waterClarity: input.water?.clarity ?? null,
    waterDepthM: input.water?.depthM ?? null,
    method: input.method ?? null,
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
    ...(given === 4 ? { bbox: { minLat: query.minLat!, maxLat: query.maxLat!, minLng: query.minLng!, maxLng: query.maxLng! } } : {}),
  };
}

export async function listEntries(db: Db, viewerId: string, query: EntriesQueryType, page: FeedPage) {
  const { items, last } = await repo.listVisible(db, viewerId, toFilters(viewerId, query), page);
  return { last, items: items.map((row) => entryView(viewerId, row)) };
}

/** The entry if the viewer may see it: 404 when absent, 403 when not shared with them. */
export async function visibleEntry(db: DbOrTx, viewerId: string, id: string): Promise<repo.EntryWithOwner> {
  return authorize(entryPolicy, viewerId, 'read', await repo.findEntry(db, id), { db }, () => FishingLogErrors.entryNotFound(id));
}

export async function getEntry(db: Db, viewerId: string, id: string) {
  const entry = await visibleEntry(db, viewerId, id);
  return fullEntryView(viewerId, entry, await repo.catchesOfEntries(db, [entry.id]));
}

export async function createEntry(db: Db, ownerId: string, input: EntryInputType) {
  return db.transaction(async (tx) => {
    const row = await repo.insertEntry(tx, ownerId, await entryValues(tx, ownerId, input));
    const entry = (await repo.findEntry(tx, row.id))!;
    return fullEntryView(ownerId, entry, []);
  });
}

async function ownedEntryForUpdate(tx: DbOrTx, viewerId: string, id: string, action: 'update' | 'delete' | 'addCatch' = 'update') {
  return authorize(entryPolicy, viewerId, action, await repo.findEntryForUpdate(tx, id), { db: tx }, () => FishingLogErrors.entryNotFound(id));
}

export async function updateEntry(db: Db, viewerId: string, id: string, input: EntryInputType) {
  return db.transaction(async (tx) => {
    await lockPersonalBests(tx, viewerId);
    await ownedEntryForUpdate(tx, viewerId, id);
    await repo.updateEntry(tx, id, await entryValues(tx, viewerId, input));
    // Criteria may name a water body or state: the entry's catches may now match others.
    await reevaluatePersonalBests(tx, viewerId);
    const entry = (await repo.findEntry(tx, id))!;
    return fullEntryView(viewerId, entry, await repo.catchesOfEntries(tx, [id]));
  });
}

export async function deleteEntry(db: Db, viewerId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    // The personal-best lock comes first: the deletion then cannot deadlock with a re-evaluation.
    await lockPersonalBests(tx, viewerId);
    await ownedEntryForUpdate(tx, viewerId, id, 'delete');
    await repo.deleteEntry(tx, id);
    await reevaluatePersonalBests(tx, viewerId);
  });
}

export async function listCatches(db: Db, viewerId: string, entryId: string, page: Page) {
  const entry = await visibleEntry(db, viewerId, entryId);
  const { items, total } = await repo.catchesPage(db, entryId, page);
  return { total, items: items.map((c) => catchView(c, showsExactLocation(viewerId, entry), isOwner(viewerId, entry))) };
}

export async function addCatch(db: Db, viewerId: string, entryId: string, input: CatchInputType) {
  return db.transaction(async (tx) => {
    await lockPersonalBests(tx, viewerId);
    const entry = await ownedEntryForUpdate(tx, viewerId, entryId, 'addCatch');
    if (!(await repo.activeSpeciesExists(tx, input.speciesId))) throw FishingLogErrors.unknownSpecies();
    if (input.lureId) await assertCatalogItem(tx, input.lureId, 'lure', '/lureId');
    if (input.gearSetupId) await assertOwnGearSetup(tx, viewerId, input.gearSetupId, '/gearSetupId');
    const row = await repo.insertCatch(tx, entry, {
      speciesId: input.speciesId,
      lengthCm: input.lengthCm ?? null,
      weightKg: input.weightKg ?? null,
      count: input.count ?? 1,
      released: input.released,
      caughtAt: input.caughtAt ? new Date(input.caughtAt) : entry.occurredAt,
      bait: input.bait ?? null,
      lure: input.lure ?? null,
      lureItemId: input.lureId ?? null,
      gearSetupId: input.gearSetupId ?? null,
      photoUrls: input.photoUrls ?? [],
      notes: input.notes ?? null,
      latitude: input.location?.latitude ?? null,
      longitude: input.location?.longitude ?? null,
    });
    const personalBests = await reevaluatePersonalBests(tx, viewerId);
    return { ...catchView(row, true), personalBests };
  });
}

/** One catch's owner and capture time, for modules that reference a catch (e.g. tournament submissions). */
export async function catchRef(db: DbOrTx, id: string): Promise<{ id: string; ownerId: string; caughtAt: Date } | undefined> {
  return repo.findCatchRef(db, id);
}
