CREATE TABLE "account_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_exports_status_check" CHECK ("account_exports"."status" IN ('Pending', 'Ready', 'Expired', 'Failed'))
);
--> statement-breakpoint
ALTER TABLE "account_exports" ADD CONSTRAINT "account_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_exports_user_idx" ON "account_exports" USING btree ("user_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "account_exports_one_pending_idx" ON "account_exports" USING btree ("user_id") WHERE "account_exports"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "account_exports_expiry_idx" ON "account_exports" USING btree ("expires_at") WHERE "account_exports"."status" = 'Ready';