import { pgTable, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A foreign key to another module's table, by the table's name: the database enforces the key,
 * and the referencing module does not import the other module's tables (nor the core a module's).
 * `.references(() => idOf('users'), { onDelete: 'cascade' })` yields the same constraint as a
 * reference to the `users` table object (drizzle-kit reads only the table and column names).
 */

const standIns = new Map<string, AnyPgColumn>();

/** The `id` column of table `tableName` (schema `public`), for `.references()`. */
export function idOf(tableName: string): AnyPgColumn {
  let column = standIns.get(tableName);
  if (!column) {
    column = pgTable(tableName, { id: uuid().primaryKey() }).id;
    standIns.set(tableName, column);
  }
  return column;
}

/** A required user id that goes with its user: `uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE`. */
export function ownedByUser() {
  return uuid()
    .notNull()
    .references(() => idOf('users'), { onDelete: 'cascade' });
}
