import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Failed-login counters per key (username+IP, username, IP) for brute-force protection. */
export const loginThrottle = pgTable('login_throttle', {
  key: text().primaryKey(),
  failures: integer().notNull(),
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
  lockedUntil: timestamp({ withTimezone: true }),
});
