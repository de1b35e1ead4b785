import type { Readable } from 'node:stream';
import type { Tx } from './db/client.js';
import { registryKey, type Registries } from './registries.js';

/**
 * Personal data, module by module: what each module keeps about a person and what becomes of it
 * when their account is erased (the accounts module's deletion, after its grace period). Every
 * module that keeps per-user rows registers one `PersonalData` in its module plugin
 * (`registerPersonalData`), naming each column that refers to a user and what erasure does to
 * its rows, with the reason written next to it. The accounts module runs the registrations in one
 * transaction; a test walks the database's foreign keys to `users` and fails for a column no
 * registration names (src/modules/accounts/personal-data.test.ts).
 *
 * The registry lives in the core, like the usage counters, because modules of every tier keep
 * per-user rows (gear and settings sit below the accounts module, users beside it): the core is
 * the one place they may all register with. The accounts module is its reader.
 *
 * The same registrations make a person's copy of their data (the accounts module's export): every
 * registered table's rows that name them, and the files a module keeps for them outside the
 * database (`files`: the photos module's display sizes).
 */

/**
 * What erasure does to the rows whose `column` names the erased person:
 * - `delete`: the rows are deleted (after the registration's `erase`, which may delete some first);
 * - `detach`: the rows stay with the column set to null (it must be nullable);
 * - `keep`: the rows stay and keep the id, which from then on names an erased account with no
 *   name, e-mail or sign-in ("a former angler"); the registration's `erase` removes what else in
 *   them identifies the person.
 */
export type ErasureAction = 'delete' | 'detach' | 'keep';

export interface PersonalDataColumn {
  /** Table name in the database (schema-qualified when not in `public`). */
  table: string;
  /** The column that refers to `users.id`. */
  column: string;
  action: ErasureAction;
  /** Why: what the row is and why erasure does this to it. */
  reason: string;
}

/** A file kept for a person outside the database (a photo's display size), for their copy of their data. */
export interface PersonalFile {
  /** Its path in the archive (`photos/<id>.jpg`). */
  name: string;
  /** What it is, one line of the archive's README. */
  about: string;
  /** Its bytes and their count, read when the archive is written; undefined when it is gone (deleted since it was listed). */
  open(): Promise<{ body: Readable; size: number } | undefined>;
}

export interface PersonalData {
  /** The registering module (its folder name). */
  module: string;
  /** Every column of the module's tables that refers to a user, in the order erasure handles them. */
  columns: readonly PersonalDataColumn[];
  /**
   * Runs first, inside the erasure's transaction: what the column actions cannot say (rows kept
   * with their personal fields cleared, rows deleted or kept depending on others' use of them).
   */
  erase?: (tx: Tx, userId: string) => Promise<void>;
  /** After the erasure committed: files and other stores outside the database (retried by the next run when it fails). */
  afterErase?: () => Promise<void>;
  /** The person's files outside the database, for their copy of their data: listed (no file opened) in the order they go in the archive. */
  files?: (userId: string) => AsyncIterable<PersonalFile>;
}

const personalDataKey = registryKey('personal-data', (): PersonalData[] => []);

/** Called by a module's plugin at start-up; one registration per module. */
export function registerPersonalData(deps: { registries: Registries }, registration: PersonalData): void {
  const list = deps.registries.of(personalDataKey);
  if (list.some((r) => r.module === registration.module)) throw new Error(`personal data of ${registration.module} registered twice`);
  list.push(registration);
}

/** The app's registrations, in the order the modules registered (lower tiers first). */
export function personalDataOf(deps: { registries: Registries }): readonly PersonalData[] {
  return deps.registries.of(personalDataKey);
}

/** The registered columns, as `table.column` → registration, for the foreign-key walk and the docs. */
export function coveredColumns(deps: { registries: Registries }): Map<string, { module: string; column: PersonalDataColumn }> {
  const map = new Map<string, { module: string; column: PersonalDataColumn }>();
  for (const registration of personalDataOf(deps)) for (const column of registration.columns) map.set(`${column.table}.${column.column}`, { module: registration.module, column });
  return map;
}
