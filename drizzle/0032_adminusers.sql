CREATE TABLE "ban_appeals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ban_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'Open' NOT NULL,
	"reply" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_bans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"banned_by" uuid,
	"reason" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"lift_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sign_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"signed_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
ALTER TABLE "ban_appeals" ADD CONSTRAINT "ban_appeals_ban_id_user_bans_id_fk" FOREIGN KEY ("ban_id") REFERENCES "public"."user_bans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ban_appeals" ADD CONSTRAINT "ban_appeals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ban_appeals" ADD CONSTRAINT "ban_appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_bans" ADD CONSTRAINT "user_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_bans" ADD CONSTRAINT "user_bans_banned_by_users_id_fk" FOREIGN KEY ("banned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_bans" ADD CONSTRAINT "user_bans_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sign_ins" ADD CONSTRAINT "user_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ban_appeals_ban_key" ON "ban_appeals" USING btree ("ban_id");--> statement-breakpoint
CREATE INDEX "ban_appeals_status_idx" ON "ban_appeals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "user_bans_user_idx" ON "user_bans" USING btree ("user_id","starts_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_bans_banned_by_idx" ON "user_bans" USING btree ("banned_by","starts_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_bans_unlifted_idx" ON "user_bans" USING btree ("ends_at") WHERE "user_bans"."lifted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "user_bans_starts_idx" ON "user_bans" USING btree ("starts_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_sign_ins_user_idx" ON "user_sign_ins" USING btree ("user_id","signed_in_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_sign_ins_at_idx" ON "user_sign_ins" USING btree ("signed_in_at");--> statement-breakpoint
CREATE INDEX "user_reports_target_user_idx" ON "user_reports" USING btree ("target_user_id","status");--> statement-breakpoint
CREATE INDEX "user_reports_reporter_time_idx" ON "user_reports" USING btree ("reporter_id","created_at");--> statement-breakpoint
CREATE INDEX "users_email_lower_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");