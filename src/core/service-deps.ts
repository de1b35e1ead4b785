import type { Db, DbOrTx } from './db/client.js';
import type { Registries } from './registries.js';

/**
 * What a service receives first: the database (or the caller's transaction, `inTx`) and the app's
 * registries (core/registries.ts), from which it reads what other modules registered with it.
 * A module whose services need more (the payments service, storage, the clock) extends it.
 */
export interface ServiceDeps<D extends DbOrTx = Db> {
  db: D;
  registries: Registries;
}

/** The same dependencies inside a transaction. */
export function inTx<D extends ServiceDeps<DbOrTx>, T extends DbOrTx>(deps: D, tx: T): Omit<D, 'db'> & ServiceDeps<T> {
  return { ...deps, db: tx };
}

/** The dependencies of an app's services (`deps` of a module's routes). */
export function serviceDeps(deps: { database: { db: Db }; registries: Registries }): ServiceDeps {
  return { db: deps.database.db, registries: deps.registries };
}
