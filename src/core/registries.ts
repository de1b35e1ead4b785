/**
 * The extension points of one app: what a module registers with the modules below it at start-up
 * (usage counters, photo records, moderated content types, payment listeners, the relationships
 * of the access rules …). They live on the app's dependencies (`deps.registries`, made by
 * src/app.ts), so two apps in one process (the tests build many) never share or overwrite them.
 *
 * A lower module declares its registry once with `registryKey` (what it holds, made empty on
 * first use); the higher module's plugin (<module>.module.ts) adds to it through the lower
 * module's register function, and the lower module's services read it from the registries they
 * are given.
 */
export interface RegistryKey<T> {
  readonly name: string;
  readonly create: () => T;
}

export function registryKey<T>(name: string, create: () => T): RegistryKey<T> {
  return { name, create };
}

export class Registries {
  readonly #values = new Map<RegistryKey<unknown>, unknown>();

  /** The app's registry of `key` (made empty on first use). */
  of<T>(key: RegistryKey<T>): T {
    let value = this.#values.get(key) as T | undefined;
    if (value === undefined) {
      value = key.create();
      this.#values.set(key, value);
    }
    return value;
  }
}
