import { boolean, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * `version`: 1 on insert, one more at every UPDATE of the row (the `fishlog_bump_version` trigger,
 * so every write counts, also a foreign key's SET NULL or an update by SQL). The record's HTTP
 * `ETag` (core/http/conditional.ts): `If-Match` compares it in the UPDATE's or DELETE's WHERE.
 */
export function rowVersion() {
  return { version: integer().notNull().default(1) };
}

/**
 * `createDigest`: for a record whose id the client chose (offline apps make it on the device), the
 * SHA-256 (base64url) of what its create request said; a create retried with that id and the same
 * request answers the record, another request with that id is a 409 (core/http/client-ids.ts).
 * Null when the server chose the id.
 */
export function clientCreated() {
  return { createDigest: text() };
}
