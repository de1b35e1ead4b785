import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { catches, logEntries } from '../src/modules/fishing-log/fishing-log.tables.js';
import { reevaluatePersonalBests, type PersonalBestChange } from '../src/modules/personal-bests/personal-bests.service.js';
import { speciesId } from '../src/modules/species/species.seeds.js';
import type { TestApp } from './harness.js';

/**
 * Fishing-log rows written straight through Drizzle (the fishing-log endpoints are built
 * elsewhere), each change followed by the personal-best re-evaluation in the same transaction,
 * as the fishing-log service does.
 */

export const WALLEYE = speciesId('Sander vitreus');
export const PIKE = speciesId('Esox lucius');
export const PERCH = speciesId('Perca flavescens');

export interface EntryOptions {
  visibility?: 'Public' | 'Private' | 'Friends' | 'Circle';
  waterBody?: string | null;
  stateCode?: string | null;
  title?: string;
  occurredAt?: Date;
}

export async function createEntry(t: TestApp, ownerId: string, options: EntryOptions = {}): Promise<string> {
  const id = uuidv7();
  await t.database.db.insert(logEntries).values({
    id,
    ownerId,
    title: options.title ?? 'Morning on the lake',
    occurredAt: options.occurredAt ?? new Date('2026-06-01T05:00:00Z'),
    timeZone: 'America/Chicago',
    waterBody: options.waterBody === undefined ? 'Lake Vermilion' : options.waterBody,
    stateCode: options.stateCode === undefined ? 'US-MN' : options.stateCode,
    visibility: options.visibility ?? 'Private',
  });
  return id;
}

export interface CatchOptions {
  speciesId?: string;
  weightKg?: number | null;
  lengthCm?: number | null;
  released?: boolean;
  count?: number;
  caughtAt?: Date | string;
}

export async function addCatch(t: TestApp, ownerId: string, entryId: string, options: CatchOptions = {}): Promise<{ id: string; changes: PersonalBestChange[] }> {
  const id = uuidv7();
  const changes = await t.database.db.transaction(async (tx) => {
    await tx.insert(catches).values({
      id,
      entryId,
      ownerId,
      speciesId: options.speciesId ?? WALLEYE,
      weightKg: options.weightKg ?? null,
      lengthCm: options.lengthCm ?? null,
      released: options.released ?? false,
      count: options.count ?? 1,
      caughtAt: new Date(options.caughtAt ?? '2026-06-01T06:00:00Z'),
    });
    return reevaluatePersonalBests(tx, ownerId);
  });
  return { id, changes };
}

export async function updateCatch(t: TestApp, ownerId: string, catchId: string, patch: CatchOptions): Promise<PersonalBestChange[]> {
  return t.database.db.transaction(async (tx) => {
    const set: Partial<typeof catches.$inferInsert> = { updatedAt: new Date() };
    if (patch.speciesId !== undefined) set.speciesId = patch.speciesId;
    if (patch.weightKg !== undefined) set.weightKg = patch.weightKg;
    if (patch.lengthCm !== undefined) set.lengthCm = patch.lengthCm;
    if (patch.released !== undefined) set.released = patch.released;
    if (patch.count !== undefined) set.count = patch.count;
    if (patch.caughtAt !== undefined) set.caughtAt = new Date(patch.caughtAt);
    await tx.update(catches).set(set).where(eq(catches.id, catchId));
    return reevaluatePersonalBests(tx, ownerId);
  });
}

export async function deleteCatch(t: TestApp, ownerId: string, catchId: string): Promise<PersonalBestChange[]> {
  return t.database.db.transaction(async (tx) => {
    await tx.delete(catches).where(eq(catches.id, catchId));
    return reevaluatePersonalBests(tx, ownerId);
  });
}
