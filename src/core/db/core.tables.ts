import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Which version of each reference-data seed has been applied. */
export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  version: integer('version').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});
