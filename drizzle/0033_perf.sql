DROP INDEX "fishing_log_entries_public_time_idx";--> statement-breakpoint
DROP INDEX "posts_public_time_idx";