-- Covering partial indexes for the feeds (issue 16): the visibility branch reads the page in
-- index order and checks owner_id <> viewer from the index itself (index-only scan, no heap visit).
CREATE INDEX IF NOT EXISTS "fishing_log_entries_public_time_idx" ON "fishing_log_entries" ("occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("owner_id") WHERE "visibility" = 'Public';--> statement-breakpoint
-- The Friends branch driven by time, the friend set as a hashed semi-join: a page reads
-- limit ÷ (share of Friends entries from friends) index tuples instead of every friend's entries.
CREATE INDEX IF NOT EXISTS "fishing_log_entries_friends_time_idx" ON "fishing_log_entries" ("occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("owner_id") WHERE "visibility" = 'Friends';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "posts_public_time_idx" ON "posts" ("created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("author_id") WHERE "visibility" = 'Public' AND "status" = 'Published';
