-- The feeds' per-owner and Public indexes carry what the map box filter reads (the coordinates as the
-- viewer is shown them: latitude, longitude, share_exact_location), so a feed filtered by a box reads
-- each branch from its index alone (index-only scan, in time order) instead of visiting an entry's
-- row per index tuple (a friend's entries in the box: a bitmap heap scan and a sort per friend).
-- Same key columns and names: the unfiltered feed's plans do not change. drizzle-kit cannot say INCLUDE.
DROP INDEX IF EXISTS "fishing_log_entries_owner_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_time_idx" ON "fishing_log_entries" ("owner_id", "occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("latitude", "longitude", "share_exact_location");--> statement-breakpoint
DROP INDEX IF EXISTS "fishing_log_entries_owner_visibility_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_visibility_time_idx" ON "fishing_log_entries" ("owner_id", "visibility", "occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("latitude", "longitude", "share_exact_location");--> statement-breakpoint
DROP INDEX IF EXISTS "fishing_log_entries_public_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_public_time_idx" ON "fishing_log_entries" ("occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("owner_id", "latitude", "longitude", "share_exact_location") WHERE "visibility" = 'Public';
