CREATE TABLE "ma_program_species" (
	"id" uuid PRIMARY KEY NOT NULL,
	"program_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	"category" text DEFAULT 'any' NOT NULL,
	"min_length_in" numeric(5, 2),
	"min_weight_lb" numeric(6, 2),
	"notes" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ma_programs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jurisdiction_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"source_year" integer NOT NULL,
	"measurement" text NOT NULL,
	"length_increment_in" numeric(4, 3),
	"award_levels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rules" text,
	"created_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ma_submission_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"submission_id" uuid NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"actor_id" uuid,
	"evidence" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ma_submissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"program_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"catch_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	"program_year" integer NOT NULL,
	"category" text NOT NULL,
	"length_cm" numeric(6, 2),
	"weight_kg" numeric(8, 3),
	"caught_at" timestamp with time zone NOT NULL,
	"water_body" text,
	"state_code" text,
	"photo_url" text,
	"witness" text,
	"status" text NOT NULL,
	"rejection_reason" text,
	"attempt" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_emergency_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jurisdiction_id" uuid NOT NULL,
	"zone_id" uuid,
	"species_id" uuid,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"reason" text NOT NULL,
	"overrides" jsonb NOT NULL,
	"source_url" text,
	"created_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_jurisdictions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"agency_name" text NOT NULL,
	"agency_url" text NOT NULL,
	"license_year_start_month" integer NOT NULL,
	"license_year_start_day" integer NOT NULL,
	"created_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_license_years" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jurisdiction_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_rule_sets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jurisdiction_id" uuid NOT NULL,
	"zone_id" uuid,
	"species_id" uuid NOT NULL,
	"license_year_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"effective_from" date NOT NULL,
	"open_seasons" jsonb,
	"release_only_periods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"daily_bag" integer,
	"possession_limit" integer,
	"min_length_in" numeric(5, 2),
	"max_length_in" numeric(5, 2),
	"slot_from_in" numeric(5, 2),
	"slot_to_in" numeric(5, 2),
	"one_over_in" numeric(5, 2),
	"one_over_count" integer,
	"combined_group" text,
	"combined_bag" integer,
	"gear" text,
	"notes" text,
	"source_url" text NOT NULL,
	"booklet_year" integer NOT NULL,
	"created_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_zone_rings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"zone_id" uuid NOT NULL,
	"ring" "polygon" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reg_zones" (
	"id" uuid PRIMARY KEY NOT NULL,
	"jurisdiction_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"geojson" jsonb NOT NULL,
	"area_sq_deg" double precision NOT NULL,
	"point_count" integer NOT NULL,
	"source_url" text,
	"created_by" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ma_program_species" ADD CONSTRAINT "ma_program_species_program_id_ma_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."ma_programs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_program_species" ADD CONSTRAINT "ma_program_species_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_programs" ADD CONSTRAINT "ma_programs_jurisdiction_id_reg_jurisdictions_id_fk" FOREIGN KEY ("jurisdiction_id") REFERENCES "public"."reg_jurisdictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_submission_events" ADD CONSTRAINT "ma_submission_events_submission_id_ma_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."ma_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_submissions" ADD CONSTRAINT "ma_submissions_program_id_ma_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."ma_programs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_submissions" ADD CONSTRAINT "ma_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ma_submissions" ADD CONSTRAINT "ma_submissions_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_emergency_orders" ADD CONSTRAINT "reg_emergency_orders_jurisdiction_id_reg_jurisdictions_id_fk" FOREIGN KEY ("jurisdiction_id") REFERENCES "public"."reg_jurisdictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_emergency_orders" ADD CONSTRAINT "reg_emergency_orders_zone_id_reg_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."reg_zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_emergency_orders" ADD CONSTRAINT "reg_emergency_orders_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_license_years" ADD CONSTRAINT "reg_license_years_jurisdiction_id_reg_jurisdictions_id_fk" FOREIGN KEY ("jurisdiction_id") REFERENCES "public"."reg_jurisdictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_rule_sets" ADD CONSTRAINT "reg_rule_sets_jurisdiction_id_reg_jurisdictions_id_fk" FOREIGN KEY ("jurisdiction_id") REFERENCES "public"."reg_jurisdictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_rule_sets" ADD CONSTRAINT "reg_rule_sets_zone_id_reg_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."reg_zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_rule_sets" ADD CONSTRAINT "reg_rule_sets_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_rule_sets" ADD CONSTRAINT "reg_rule_sets_license_year_id_reg_license_years_id_fk" FOREIGN KEY ("license_year_id") REFERENCES "public"."reg_license_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_zone_rings" ADD CONSTRAINT "reg_zone_rings_zone_id_reg_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."reg_zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reg_zones" ADD CONSTRAINT "reg_zones_jurisdiction_id_reg_jurisdictions_id_fk" FOREIGN KEY ("jurisdiction_id") REFERENCES "public"."reg_jurisdictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ma_program_species_key" ON "ma_program_species" USING btree ("program_id","species_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "ma_programs_name_key" ON "ma_programs" USING btree ("jurisdiction_id",lower("name"));--> statement-breakpoint
CREATE INDEX "ma_submission_events_submission_idx" ON "ma_submission_events" USING btree ("submission_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "ma_submissions_one_per_species_key" ON "ma_submissions" USING btree ("user_id","program_id","species_id","program_year");--> statement-breakpoint
CREATE INDEX "ma_submissions_user_idx" ON "ma_submissions" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ma_submissions_status_idx" ON "ma_submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reg_emergency_orders_lookup_idx" ON "reg_emergency_orders" USING btree ("jurisdiction_id","starts_on","ends_on");--> statement-breakpoint
CREATE UNIQUE INDEX "reg_jurisdictions_code_key" ON "reg_jurisdictions" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "reg_license_years_key" ON "reg_license_years" USING btree ("jurisdiction_id","year");--> statement-breakpoint
CREATE UNIQUE INDEX "reg_rule_sets_version_key" ON "reg_rule_sets" USING btree ("jurisdiction_id",coalesce("zone_id", '00000000-0000-0000-0000-000000000000'::uuid),"species_id","license_year_id","version");--> statement-breakpoint
CREATE INDEX "reg_rule_sets_lookup_idx" ON "reg_rule_sets" USING btree ("jurisdiction_id","species_id","effective_from");--> statement-breakpoint
CREATE INDEX "reg_zone_rings_zone_idx" ON "reg_zone_rings" USING btree ("zone_id");--> statement-breakpoint
CREATE INDEX "reg_zones_jurisdiction_idx" ON "reg_zones" USING btree ("jurisdiction_id","kind");