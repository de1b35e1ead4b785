import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/**
 * Statements of the hot paths, prepared once per database handle and variant: Drizzle builds the
 * SQL once per process (`.prepare(name)`), and PostgreSQL parses it once per connection (a named
 * statement). Values come as placeholders (`sql.placeholder`); what changes the text (a variant:
 * e.g. a page size, or whether a cursor is given) is part of the key and of the statement's name.
 * A transaction handle gets its own statements (the same names and texts), dropped with it.
 */
export function preparedStatements<K extends string, S>(build: (db: DbOrTx, variant: K) => S): (db: DbOrTx, variant: K) => S {
  const byDb = new WeakMap<DbOrTx, Map<K, S>>();
  return (db, variant) => {
    let statements = byDb.get(db);
    if (!statements) byDb.set(db, (statements = new Map()));
    let statement = statements.get(variant);
    if (!statement) statements.set(variant, (statement = build(db, variant)));
    return statement;
  };
}

/**
 * A placeholder standing in for a value of type T inside SQL builders that take values (visibility
 * branches, keyset conditions): in a `sql` template it becomes the statement's parameter `name`.
 */
export function placeholder<T = string>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}

/** `column = ANY($name::uuid[])`: one statement for any number of ids (an IN list would change the text). */
export function anyUuid(column: AnyPgColumn, name: string): SQL {
  return sql`${column} = ANY(${sql.placeholder(name)}::uuid[])`;
}
