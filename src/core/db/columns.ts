import { boolean, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Column helpers shared by every table (spread them into a `pgTable` column map). The names
 * follow the project's snake_case casing: `created_at`, `updated_at`, `is_active`,
 * `deactivated_at`, `deactivated_by`, `deactivation_reason`.
 */

/** `createdAt` and `updatedAt`, both set by the database on insert. */
export function timestamps() {
  return {
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  };
}

/**
 * Administrative removal is deactivation, never deletion: `isActive` plus who deactivated the
 * row, when and why (null while active). Old records that point at a deactivated row stay readable.
 */
export function deactivation() {
  return {
    isActive: boolean().notNull().default(true),
    deactivatedAt: timestamp({ withTimezone: true }),
    deactivatedBy: uuid(),
    deactivationReason: text(),
  };
}
