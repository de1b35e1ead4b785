CREATE TABLE "moderation_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"content_type" text NOT NULL,
	"content_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"cost_usd" numeric(12, 6) NOT NULL,
	"latency_ms" integer NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "moderation_queue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid,
	"comment_id" uuid,
	"status" text NOT NULL,
	"held_because" text NOT NULL,
	"provider" text,
	"model" text,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"scores" jsonb NOT NULL,
	"matched_rules" jsonb NOT NULL,
	"flagged_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	CONSTRAINT "moderation_queue_postId_unique" UNIQUE("post_id"),
	CONSTRAINT "moderation_queue_commentId_unique" UNIQUE("comment_id"),
	CONSTRAINT "moderation_queue_one_target" CHECK (num_nonnulls(post_id, comment_id) = 1)
);
--> statement-breakpoint
CREATE TABLE "moderation_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"pattern" text NOT NULL,
	"applies_to_posts" boolean NOT NULL,
	"applies_to_comments" boolean NOT NULL,
	"action" text NOT NULL,
	"category" text NOT NULL,
	"reason" text,
	"match_count" integer DEFAULT 0 NOT NULL,
	"last_matched_at" timestamp with time zone,
	"timeout_count" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model" text,
	"base_url" text,
	"api_key" text,
	"thresholds" jsonb NOT NULL,
	"auto_reject_threshold" double precision,
	"monthly_budget_usd" numeric(14, 6),
	"cost_per_call_usd" numeric(12, 6) NOT NULL,
	"timeout_ms" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "moderation_settings_single_row" CHECK (id = 1)
);
--> statement-breakpoint
CREATE TABLE "moderation_usage" (
	"month" date NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"flagged" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(14, 6) DEFAULT 0 NOT NULL,
	"latency_ms_total" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "moderation_usage_month_provider_model_pk" PRIMARY KEY("month","provider","model")
);
--> statement-breakpoint
CREATE TABLE "post_comments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"moderation_reason" text,
	"moderator_rejected" boolean DEFAULT false NOT NULL,
	"moderated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_likes" (
	"post_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_likes_post_id_user_id_pk" PRIMARY KEY("post_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"text" text NOT NULL,
	"photo_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"log_entry_id" uuid,
	"catch_id" uuid,
	"visibility" text NOT NULL,
	"status" text NOT NULL,
	"moderation_reason" text,
	"moderator_rejected" boolean DEFAULT false NOT NULL,
	"moderated_at" timestamp with time zone,
	"like_count" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reporter_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid,
	"reason" text NOT NULL,
	"details" text,
	"snapshot" jsonb NOT NULL,
	"status" text DEFAULT 'Open' NOT NULL,
	"resolution" text,
	"resolution_note" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_queue" ADD CONSTRAINT "moderation_queue_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_queue" ADD CONSTRAINT "moderation_queue_comment_id_post_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."post_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_queue" ADD CONSTRAINT "moderation_queue_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_rules" ADD CONSTRAINT "moderation_rules_deactivated_by_users_id_fk" FOREIGN KEY ("deactivated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_rules" ADD CONSTRAINT "moderation_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_settings" ADD CONSTRAINT "moderation_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_likes" ADD CONSTRAINT "post_likes_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_likes" ADD CONSTRAINT "post_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_log_entry_id_fishing_log_entries_id_fk" FOREIGN KEY ("log_entry_id") REFERENCES "public"."fishing_log_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_catch_id_catches_id_fk" FOREIGN KEY ("catch_id") REFERENCES "public"."catches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_calls_time_idx" ON "moderation_calls" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "moderation_calls_content_idx" ON "moderation_calls" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "moderation_queue_pending_idx" ON "moderation_queue" USING btree ("flagged_at","id") WHERE status = 'Pending';--> statement-breakpoint
CREATE INDEX "moderation_rules_time_idx" ON "moderation_rules" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "moderation_rules_active_idx" ON "moderation_rules" USING btree ("is_active");--> statement-breakpoint
CREATE INDEX "post_comments_post_time_idx" ON "post_comments" USING btree ("post_id","created_at","id");--> statement-breakpoint
CREATE INDEX "post_comments_author_idx" ON "post_comments" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "post_likes_user_idx" ON "post_likes" USING btree ("user_id","post_id");--> statement-breakpoint
CREATE INDEX "posts_author_time_idx" ON "posts" USING btree ("author_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_author_visibility_time_idx" ON "posts" USING btree ("author_id","visibility","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE status = 'Published';--> statement-breakpoint
CREATE INDEX "posts_public_time_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'Public' AND status = 'Published';--> statement-breakpoint
CREATE INDEX "posts_log_entry_idx" ON "posts" USING btree ("log_entry_id") WHERE log_entry_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_catch_idx" ON "posts" USING btree ("catch_id") WHERE catch_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "user_reports_one_open_idx" ON "user_reports" USING btree ("reporter_id","target_type","target_id") WHERE status = 'Open';--> statement-breakpoint
CREATE INDEX "user_reports_time_idx" ON "user_reports" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "user_reports_status_time_idx" ON "user_reports" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "user_reports_target_idx" ON "user_reports" USING btree ("target_type","target_id");