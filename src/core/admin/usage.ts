import type { DbOrTx } from '../db/client.js';
import { registryKey, type RegistryKey } from '../registries.js';

/**
 * Usage counters by entity: how many records of the higher modules use a reference record
 * (a species, a brand, a lookup value), for the admin statistics. Usage flows upward by
 * registration, never by imports: the lower module declares a registry and the kinds of use it
 * shows (its slots, e.g. species: `catches`, `lures`); each module whose records use it registers
 * a counter for a slot at start-up (the registering module's <module>.module.ts). The lower module never reads their tables.
 * Each app has its own registries (`usageKey`, read through `deps.registries`).
 *
 * A counter answers for all the keys of a page in one statement (no query per key); a key that
 * nothing uses may be absent from its answer.
 */
export type UsageCounter<T = number> = (db: DbOrTx, keys: readonly string[]) => Promise<ReadonlyMap<string, T>>;

export interface UsageRegistry<Slots extends Record<string, unknown>> {
  /** Adds a counter to a slot (registering the same counter again is harmless). */
  register<S extends keyof Slots & string>(slot: S, counter: UsageCounter<Slots[S]>): void;
  /** Whether any module counts this slot. */
  has(slot: keyof Slots & string): boolean;
  /** The answers of every counter of `slot` on `keys`, run together (none: an empty list). */
  each<S extends keyof Slots & string>(db: DbOrTx, slot: S, keys: readonly string[]): Promise<ReadonlyMap<string, Slots[S]>[]>;
  /** A numeric slot's sum over its counters, per key (0 for every key nothing uses). */
  total(db: DbOrTx, slot: NumericSlot<Slots>, keys: readonly string[]): Promise<Map<string, number>>;
}

type NumericSlot<Slots> = { [S in keyof Slots & string]: Slots[S] extends number ? S : never }[keyof Slots & string];

export function usageRegistry<Slots extends Record<string, unknown>>(): UsageRegistry<Slots> {
  const counters = new Map<string, Set<UsageCounter<never>>>();
  const each = async <S extends keyof Slots & string>(db: DbOrTx, slot: S, keys: readonly string[]) => {
    const found = (counters.get(slot) ?? new Set()) as Set<UsageCounter<Slots[S]>>;
    if (keys.length === 0 || found.size === 0) return [];
    return Promise.all([...found].map((count) => count(db, keys)));
  };
  return {
    register: (slot, counter) => void counters.set(slot, (counters.get(slot) ?? new Set()).add(counter as UsageCounter<never>)),
    has: (slot) => (counters.get(slot)?.size ?? 0) > 0,
    each,
    total: async (db, slot, keys) => {
      const answers = (await each(db, slot, keys)) as ReadonlyMap<string, number>[];
      return new Map(keys.map((key) => [key, answers.reduce((sum, counts) => sum + (counts.get(key) ?? 0), 0)]));
    },
  };
}

/** The key of a usage registry in an app's registries (core/registries.ts). */
export function usageKey<Slots extends Record<string, unknown>>(name: string): RegistryKey<UsageRegistry<Slots>> {
  return registryKey(name, () => usageRegistry<Slots>());
}
