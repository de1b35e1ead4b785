import { inTx, serviceDeps } from '../../src/core/service-deps.js';
import { eq } from 'drizzle-orm';
import { uuidv7 } from '../../src/core/db/ids.js';
import { catches, fishingSessions, logEntries, type CatchRow, type EntryRow, type SessionRow } from '../../src/modules/fishing-log/fishing-log.tables.js';
import { criteriaOfCatches, evaluateChangedCatch, evaluateNewCatch, lockPersonalBests, withCatchesRemoved, type PersonalBestChange } from '../../src/modules/fishing-log/personal-bests.service.js';
import { speciesId } from '../../src/modules/species/species.seeds.js';
import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/**
 * Fishing-log rows written straight through Drizzle (fast, and any state a test needs), each
 * catch change followed by the personal-best re-evaluation in the same transaction, as the
 * fishing-log service does. Tests of the fishing-log endpoints themselves call the API.
 */

export const WALLEYE = speciesId('Sander vitreus');
export const PIKE = speciesId('Esox lucius');
export const PERCH = speciesId('Perca flavescens');

/** A user or their id. */
export type Owner = TestUser | string;
const ownerIdOf = (owner: Owner) => (typeof owner === 'string' ? owner : owner.userId);

export type EntryOverrides = Partial<Omit<typeof logEntries.$inferInsert, 'ownerId'>>;

export async function createEntry(t: TestApp, owner: Owner, overrides: EntryOverrides = {}): Promise<EntryRow> {
  const [row] = await t.database.db
    .insert(logEntries)
    .values({
      id: uuidv7(),
      title: 'Morning on the lake',
      occurredAt: new Date('2026-06-01T05:00:00Z'),
      timeZone: 'America/Chicago',
      waterBody: 'Lake Vermilion',
      stateCode: 'US-MN',
      visibility: 'Private',
      ...overrides,
      ownerId: ownerIdOf(owner),
    })
    .returning();
  return row!;
}

export interface CatchOptions {
  speciesId?: string;
  weightKg?: number | null;
  lengthCm?: number | null;
  released?: boolean;
  count?: number;
  caughtAt?: Date | string;
  gearSetupId?: string | null;
}

function catchValues(options: CatchOptions): Partial<typeof catches.$inferInsert> {
  const set: Partial<typeof catches.$inferInsert> = {};
  if (options.speciesId !== undefined) set.speciesId = options.speciesId;
  if (options.weightKg !== undefined) set.weightKg = options.weightKg;
  if (options.lengthCm !== undefined) set.lengthCm = options.lengthCm;
  if (options.released !== undefined) set.released = options.released;
  if (options.count !== undefined) set.count = options.count;
  if (options.caughtAt !== undefined) set.caughtAt = new Date(options.caughtAt);
  if (options.gearSetupId !== undefined) set.gearSetupId = options.gearSetupId;
  return set;
}

/** A catch in `entry` (a row or its id), with the personal-best changes it caused. */
export async function createCatch(t: TestApp, owner: Owner, entry: EntryRow | string, options: CatchOptions = {}): Promise<CatchRow & { changes: PersonalBestChange[] }> {
  const ownerId = ownerIdOf(owner);
  return t.database.db.transaction(async (tx) => {
    await lockPersonalBests(inTx(serviceDeps(t), tx), ownerId);
    const [row] = await tx
      .insert(catches)
      .values({
        id: uuidv7(),
        entryId: typeof entry === 'string' ? entry : entry.id,
        ownerId,
        speciesId: WALLEYE,
        released: false,
        caughtAt: new Date('2026-06-01T06:00:00Z'),
        ...catchValues(options),
      })
      .returning();
    return { ...row!, changes: await evaluateNewCatch(inTx(serviceDeps(t), tx), ownerId, await criteriaOfCatches(inTx(serviceDeps(t), tx), [row!.id])) };
  });
}

export async function updateCatch(t: TestApp, owner: Owner, catchId: string, patch: CatchOptions): Promise<PersonalBestChange[]> {
  return t.database.db.transaction(async (tx) => {
    await tx
      .update(catches)
      .set({ ...catchValues(patch), updatedAt: new Date() })
      .where(eq(catches.id, catchId));
    return evaluateChangedCatch(inTx(serviceDeps(t), tx), ownerIdOf(owner), catchId);
  });
}

export async function deleteCatch(t: TestApp, owner: Owner, catchId: string): Promise<PersonalBestChange[]> {
  return t.database.db.transaction(async (tx) => {
    return withCatchesRemoved(inTx(serviceDeps(t), tx), ownerIdOf(owner), [catchId], async () => {
      await tx.delete(catches).where(eq(catches.id, catchId));
    });
  });
}

/** An entry with one catch: what a post links to, or what counts as usage of a species or setup. */
export async function createEntryWithCatch(t: TestApp, owner: Owner, entry: EntryOverrides = {}, catchOptions: CatchOptions = {}) {
  const entryRow = await createEntry(t, owner, entry);
  const catchRow = await createCatch(t, owner, entryRow, catchOptions);
  return { entry: entryRow, catch: catchRow };
}

export async function createSession(t: TestApp, owner: Owner, overrides: Partial<Omit<typeof fishingSessions.$inferInsert, 'ownerId'>> = {}): Promise<SessionRow> {
  const [row] = await t.database.db
    .insert(fishingSessions)
    .values({ id: uuidv7(), startedAt: new Date('2026-06-01T04:30:00Z'), timeZone: 'America/Chicago', waterBody: 'Lake Vermilion', ...overrides, ownerId: ownerIdOf(owner) })
    .returning();
  return row!;
}
