CREATE TABLE "personal_best_criteria" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	"measure" text NOT NULL,
	"water_body" text,
	"state_code" text,
	"released_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_best_criteria_measure_check" CHECK ("personal_best_criteria"."measure" IN ('weight', 'length'))
);
--> statement-breakpoint
CREATE TABLE "personal_bests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"criterion_id" uuid NOT NULL,
	"catch_id" uuid,
	"value" numeric(10, 3) NOT NULL,
	"caught_at" timestamp with time zone NOT NULL,
	"previous_id" uuid,
	"status" text NOT NULL,
	"achieved_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"is_ultimate" boolean DEFAULT false NOT NULL,
	CONSTRAINT "personal_bests_status_check" CHECK ("personal_bests"."status" IN ('current', 'beaten', 'withdrawn')),
	CONSTRAINT "personal_bests_ultimate_is_current" CHECK (NOT "personal_bests"."is_ultimate" OR "personal_bests"."status" = 'current')
);
--> statement-breakpoint
CREATE TABLE "user_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text,
	"bio" text,
	"home_state" text,
	"home_region" text,
	"avatar_url" text,
	"favourite_species_id" uuid,
	"units_preference" text DEFAULT 'imperial' NOT NULL,
	"visibility" text DEFAULT 'Public' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_profiles_units_check" CHECK ("user_profiles"."units_preference" IN ('imperial', 'metric')),
	CONSTRAINT "user_profiles_visibility_check" CHECK ("user_profiles"."visibility" IN ('Public', 'Private', 'Friends', 'Circle'))
);
--> statement-breakpoint
ALTER TABLE "personal_best_criteria" ADD CONSTRAINT "personal_best_criteria_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_best_criteria" ADD CONSTRAINT "personal_best_criteria_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_criterion_id_personal_best_criteria_id_fk" FOREIGN KEY ("criterion_id") REFERENCES "public"."personal_best_criteria"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_catch_id_catches_id_fk" FOREIGN KEY ("catch_id") REFERENCES "public"."catches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_previous_id_fk" FOREIGN KEY ("previous_id") REFERENCES "public"."personal_bests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_favourite_species_id_fish_species_id_fk" FOREIGN KEY ("favourite_species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personal_best_criteria_identity_key" ON "personal_best_criteria" USING btree ("owner_id","species_id","measure",coalesce(lower("water_body"), ''),coalesce("state_code", ''),"released_only");--> statement-breakpoint
CREATE INDEX "personal_best_criteria_owner_time_idx" ON "personal_best_criteria" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "personal_bests_one_current_per_criterion" ON "personal_bests" USING btree ("criterion_id") WHERE status = 'current';--> statement-breakpoint
CREATE UNIQUE INDEX "personal_bests_one_ultimate_per_owner" ON "personal_bests" USING btree ("owner_id") WHERE is_ultimate;--> statement-breakpoint
CREATE INDEX "personal_bests_owner_current_idx" ON "personal_bests" USING btree ("owner_id","achieved_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE status = 'current';--> statement-breakpoint
CREATE INDEX "personal_bests_criterion_history_idx" ON "personal_bests" USING btree ("criterion_id","achieved_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "personal_bests_catch_idx" ON "personal_bests" USING btree ("catch_id");--> statement-breakpoint
CREATE INDEX "personal_bests_previous_idx" ON "personal_bests" USING btree ("previous_id");