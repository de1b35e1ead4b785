import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idOf } from '../db/references.js';

/**
 * Permission grants as an append-only history: the newest row per (user, permission) is in
 * force; nothing is overwritten.
 */
export const permissionGrants = pgTable(
  'permission_grants',
  {
    id: uuid().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => idOf('users')),
    permission: text().notNull(),
    isGranted: boolean().notNull(),
    restrictions: jsonb().$type<Record<string, unknown>>(),
    reason: text(),
    grantedBy: uuid().references(() => idOf('users')),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('permission_grants_user_permission_idx').on(t.userId, t.permission, t.createdAt.desc())],
);

export type PermissionGrantRow = typeof permissionGrants.$inferSelect;
