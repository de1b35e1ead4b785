CREATE TABLE "tournament_catches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	"registration_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	"length_quarter_inches" integer,
	"weight_hundredths_lb" integer,
	"score" integer NOT NULL,
	"photo_url" text,
	"photo_hash" text,
	"captured_at" timestamp with time zone NOT NULL,
	"fishing_log_catch_id" uuid,
	"status" text DEFAULT 'Pending' NOT NULL,
	"rejection_reason" text,
	"judged_by" uuid,
	"judged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_catches_score_check" CHECK ("tournament_catches"."score" > 0),
	CONSTRAINT "tournament_catches_status_check" CHECK ("tournament_catches"."status" IN ('Pending', 'Verified', 'Rejected'))
);
--> statement-breakpoint
CREATE TABLE "tournament_divisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"name" text NOT NULL,
	"species_ids" uuid[] NOT NULL,
	"measure" text NOT NULL,
	"best_n" integer NOT NULL,
	"min_length_quarter_inches" integer,
	"penalty_rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_divisions_best_n_check" CHECK ("tournament_divisions"."best_n" BETWEEN 1 AND 50),
	CONSTRAINT "tournament_divisions_measure_check" CHECK ("tournament_divisions"."measure" IN ('length', 'weight'))
);
--> statement-breakpoint
CREATE TABLE "tournament_fee_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"registration_id" uuid NOT NULL,
	"tournament_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"external_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_fee_payments_amount_check" CHECK ("tournament_fee_payments"."amount_cents" >= 0),
	CONSTRAINT "tournament_fee_payments_status_check" CHECK ("tournament_fee_payments"."status" IN ('Pending', 'Paid', 'Refunded', 'Forfeited', 'Waived'))
);
--> statement-breakpoint
CREATE TABLE "tournament_judges" (
	"tournament_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_judges_tournament_id_user_id_pk" PRIMARY KEY("tournament_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "tournament_organizers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"contact_email" text NOT NULL,
	"contact_phone" text,
	"website" text,
	"takes_payments" boolean DEFAULT false NOT NULL,
	"payments_allowed" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"status_reason" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_organizers_status_check" CHECK ("tournament_organizers"."status" IN ('Pending', 'Verified', 'Rejected', 'Suspended'))
);
--> statement-breakpoint
CREATE TABLE "tournament_penalties" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"registration_id" uuid NOT NULL,
	"code" text NOT NULL,
	"points" integer NOT NULL,
	"reason" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_penalties_points_check" CHECK ("tournament_penalties"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "tournament_registrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"angler_name" text NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_registrations_status_check" CHECK ("tournament_registrations"."status" IN ('Active', 'Cancelled'))
);
--> statement-breakpoint
CREATE TABLE "tournament_results" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	"registration_id" uuid NOT NULL,
	"place" integer NOT NULL,
	"total_score" integer NOT NULL,
	"payout_cents" integer DEFAULT 0 NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_results_place_check" CHECK ("tournament_results"."place" >= 1),
	CONSTRAINT "tournament_results_payout_check" CHECK ("tournament_results"."payout_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tournament_sponsors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tournament_id" uuid NOT NULL,
	"name" text NOT NULL,
	"tier" text NOT NULL,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"website" text,
	"logo_url" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournament_sponsors_amount_check" CHECK ("tournament_sponsors"."amount_cents" >= 0),
	CONSTRAINT "tournament_sponsors_tier_check" CHECK ("tournament_sponsors"."tier" IN ('Title', 'Gold', 'Silver', 'Bronze', 'Supporter'))
);
--> statement-breakpoint
CREATE TABLE "tournaments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organizer_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"water_body" text,
	"state_code" text,
	"time_zone" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"registration_deadline" timestamp with time zone NOT NULL,
	"capacity" integer,
	"entry_fee_cents" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"visibility" text DEFAULT 'Public' NOT NULL,
	"format" text NOT NULL,
	"identifier_code" text NOT NULL,
	"refund_window_hours" integer DEFAULT 48 NOT NULL,
	"tie_breaks" text[] DEFAULT '{biggestFish,earliestLastCatch}'::text[] NOT NULL,
	"status" text DEFAULT 'Draft' NOT NULL,
	"status_reason" text,
	"status_before_suspension" text,
	"registrations_closed_reason" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"results_published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tournaments_status_check" CHECK ("tournaments"."status" IN ('Draft', 'PendingApproval', 'Approved', 'InProgress', 'Completed', 'Rejected', 'Suspended')),
	CONSTRAINT "tournaments_format_check" CHECK ("tournaments"."format" IN ('CPR', 'WeighIn')),
	CONSTRAINT "tournaments_visibility_check" CHECK ("tournaments"."visibility" IN ('Public', 'Unlisted')),
	CONSTRAINT "tournaments_window_check" CHECK ("tournaments"."ends_at" > "tournaments"."starts_at"),
	CONSTRAINT "tournaments_deadline_check" CHECK ("tournaments"."registration_deadline" <= "tournaments"."starts_at"),
	CONSTRAINT "tournaments_fee_check" CHECK ("tournaments"."entry_fee_cents" >= 0),
	CONSTRAINT "tournaments_capacity_check" CHECK ("tournaments"."capacity" IS NULL OR "tournaments"."capacity" > 0),
	CONSTRAINT "tournaments_currency_check" CHECK ("tournaments"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "tournaments_refund_window_check" CHECK ("tournaments"."refund_window_hours" >= 0),
	CONSTRAINT "tournaments_tie_breaks_check" CHECK ("tournaments"."tie_breaks" <@ ARRAY['biggestFish', 'earliestLastCatch']::text[])
);
--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_division_id_tournament_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."tournament_divisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_registration_id_tournament_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."tournament_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_catches" ADD CONSTRAINT "tournament_catches_fishing_log_catch_id_catches_id_fk" FOREIGN KEY ("fishing_log_catch_id") REFERENCES "public"."catches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_divisions" ADD CONSTRAINT "tournament_divisions_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_fee_payments" ADD CONSTRAINT "tournament_fee_payments_registration_id_tournament_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."tournament_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_fee_payments" ADD CONSTRAINT "tournament_fee_payments_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_fee_payments" ADD CONSTRAINT "tournament_fee_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_judges" ADD CONSTRAINT "tournament_judges_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_judges" ADD CONSTRAINT "tournament_judges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_organizers" ADD CONSTRAINT "tournament_organizers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_penalties" ADD CONSTRAINT "tournament_penalties_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_penalties" ADD CONSTRAINT "tournament_penalties_registration_id_tournament_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."tournament_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_registrations" ADD CONSTRAINT "tournament_registrations_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_registrations" ADD CONSTRAINT "tournament_registrations_division_id_tournament_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."tournament_divisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_registrations" ADD CONSTRAINT "tournament_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_results" ADD CONSTRAINT "tournament_results_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_results" ADD CONSTRAINT "tournament_results_division_id_tournament_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."tournament_divisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_results" ADD CONSTRAINT "tournament_results_registration_id_tournament_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."tournament_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_sponsors" ADD CONSTRAINT "tournament_sponsors_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_organizer_id_tournament_organizers_id_fk" FOREIGN KEY ("organizer_id") REFERENCES "public"."tournament_organizers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_catches_photo_hash_key" ON "tournament_catches" USING btree ("tournament_id","photo_hash") WHERE photo_hash IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_catches_log_catch_key" ON "tournament_catches" USING btree ("tournament_id","fishing_log_catch_id") WHERE fishing_log_catch_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tournament_catches_leaderboard_idx" ON "tournament_catches" USING btree ("tournament_id","status","registration_id","score");--> statement-breakpoint
CREATE INDEX "tournament_catches_registration_idx" ON "tournament_catches" USING btree ("registration_id","captured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_divisions_name_key" ON "tournament_divisions" USING btree ("tournament_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_fee_payments_registration_key" ON "tournament_fee_payments" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "tournament_judges_user_idx" ON "tournament_judges" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_organizers_user_key" ON "tournament_organizers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tournament_organizers_status_idx" ON "tournament_organizers" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "tournament_penalties_registration_idx" ON "tournament_penalties" USING btree ("registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_registrations_person_division_key" ON "tournament_registrations" USING btree ("division_id","user_id") WHERE status = 'Active';--> statement-breakpoint
CREATE INDEX "tournament_registrations_tournament_idx" ON "tournament_registrations" USING btree ("tournament_id","status");--> statement-breakpoint
CREATE INDEX "tournament_registrations_user_idx" ON "tournament_registrations" USING btree ("user_id","tournament_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_results_place_key" ON "tournament_results" USING btree ("division_id","place");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_results_registration_key" ON "tournament_results" USING btree ("division_id","registration_id");--> statement-breakpoint
CREATE INDEX "tournament_results_tournament_idx" ON "tournament_results" USING btree ("tournament_id","division_id","place");--> statement-breakpoint
CREATE UNIQUE INDEX "tournament_sponsors_name_key" ON "tournament_sponsors" USING btree ("tournament_id",lower("name"));--> statement-breakpoint
CREATE INDEX "tournament_sponsors_tournament_idx" ON "tournament_sponsors" USING btree ("tournament_id","tier");--> statement-breakpoint
CREATE INDEX "tournaments_status_start_idx" ON "tournaments" USING btree ("status","starts_at");--> statement-breakpoint
CREATE INDEX "tournaments_owner_idx" ON "tournaments" USING btree ("owner_id","starts_at");--> statement-breakpoint
CREATE INDEX "tournaments_organizer_idx" ON "tournaments" USING btree ("organizer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tournaments_identifier_code_key" ON "tournaments" USING btree ("identifier_code");