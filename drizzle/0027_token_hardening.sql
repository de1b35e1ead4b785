ALTER TABLE "idp"."users" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idp"."refresh_tokens" ADD COLUMN "successor_sealed" text;