ALTER TABLE "brands" ADD COLUMN "deactivation_reason" text;--> statement-breakpoint
ALTER TABLE "gear_items" ADD COLUMN "deactivation_reason" text;--> statement-breakpoint
ALTER TABLE "moderation_rules" ADD COLUMN "deactivation_reason" text;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "deactivation_reason" text;