CREATE TABLE "account_deletions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"erase_after" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"erased_at" timestamp with time zone,
	"legal_hold_at" timestamp with time zone,
	"legal_hold_by" uuid,
	"legal_hold_reason" text,
	"idp_subject" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_deletions_status_check" CHECK ("account_deletions"."status" IN ('Pending', 'Cancelled', 'Erased'))
);
--> statement-breakpoint
ALTER TABLE "user_bans" ADD COLUMN "subject_hash" text;--> statement-breakpoint
ALTER TABLE "user_bans" ADD COLUMN "email_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_legal_hold_by_users_id_fk" FOREIGN KEY ("legal_hold_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_deletions_due_idx" ON "account_deletions" USING btree ("erase_after") WHERE "account_deletions"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "account_deletions_status_idx" ON "account_deletions" USING btree ("status","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "account_deletions_idp_idx" ON "account_deletions" USING btree ("erased_at") WHERE "account_deletions"."idp_subject" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_bans_subject_hash_idx" ON "user_bans" USING btree ("subject_hash") WHERE "user_bans"."subject_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_bans_email_hash_idx" ON "user_bans" USING btree ("email_hash") WHERE "user_bans"."email_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "users_inactive_idx" ON "users" USING btree ("id") WHERE NOT "users"."is_active";