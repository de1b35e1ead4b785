CREATE TABLE "media_deletions" (
	"photo_id" uuid PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"parent_id" uuid,
	"catch_id" uuid,
	"entry_id" uuid,
	"post_id" uuid,
	"report_id" uuid,
	"spot_id" uuid,
	"position" integer NOT NULL,
	"is_cover" boolean DEFAULT false NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"thumbnail_width" integer NOT NULL,
	"thumbnail_height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"status" text DEFAULT 'Published' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photos_record_key" CHECK (CASE "photos"."kind"
        WHEN 'Catch' THEN "photos"."catch_id" = "photos"."record_id"
        WHEN 'Entry' THEN "photos"."entry_id" = "photos"."record_id"
        WHEN 'Post' THEN "photos"."post_id" = "photos"."record_id"
        WHEN 'FishingReport' THEN "photos"."report_id" = "photos"."record_id"
        WHEN 'Spot' THEN "photos"."spot_id" = "photos"."record_id"
        ELSE "photos"."record_id" = "photos"."owner_id" END
        AND num_nonnulls("photos"."catch_id", "photos"."entry_id", "photos"."post_id", "photos"."report_id", "photos"."spot_id") <= 1)
);
--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_catch_id_catches_id_fk" FOREIGN KEY ("catch_id") REFERENCES "public"."catches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_entry_id_fishing_log_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."fishing_log_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_report_id_fishing_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."fishing_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_spot_id_spots_id_fk" FOREIGN KEY ("spot_id") REFERENCES "public"."spots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photos_record_idx" ON "photos" USING btree ("record_id","position");--> statement-breakpoint
CREATE INDEX "photos_owner_idx" ON "photos" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "photos_parent_idx" ON "photos" USING btree ("parent_id") WHERE parent_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "photos_one_cover_idx" ON "photos" USING btree ("record_id") WHERE is_cover;--> statement-breakpoint
CREATE INDEX "photos_catch_idx" ON "photos" USING btree ("catch_id") WHERE catch_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "photos_entry_idx" ON "photos" USING btree ("entry_id") WHERE entry_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "photos_post_idx" ON "photos" USING btree ("post_id") WHERE post_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "photos_report_idx" ON "photos" USING btree ("report_id") WHERE report_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "photos_spot_idx" ON "photos" USING btree ("spot_id") WHERE spot_id IS NOT NULL;--> statement-breakpoint
-- A deleted photo (by its owner, or with its record through the foreign keys above) leaves its
-- files for the media sweep, due at once: they are deleted after the deleting transaction commits.
CREATE OR REPLACE FUNCTION fishlog_photo_files_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO media_deletions (photo_id, due_at) VALUES (OLD.id, now())
    ON CONFLICT (photo_id) DO UPDATE SET due_at = LEAST(media_deletions.due_at, now());
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER photos_files_deleted AFTER DELETE ON photos FOR EACH ROW EXECUTE FUNCTION fishlog_photo_files_deleted();
