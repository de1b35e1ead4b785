CREATE TABLE "charter_bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"listing_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"captain_id" uuid NOT NULL,
	"trip_type" jsonb NOT NULL,
	"party_size" smallint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"price_cents" integer NOT NULL,
	"deposit_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"policy" jsonb NOT NULL,
	"state" text NOT NULL,
	"accept_by" timestamp with time zone,
	"payment_id" uuid,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"decided_at" timestamp with time zone,
	"decline_reason" text,
	"canceled_by" text,
	"canceled_by_user_id" uuid,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charter_bookings_party" CHECK ("charter_bookings"."party_size" >= 1),
	CONSTRAINT "charter_bookings_amounts" CHECK ("charter_bookings"."price_cents" > 0 AND "charter_bookings"."deposit_cents" >= 0 AND "charter_bookings"."deposit_cents" <= "charter_bookings"."price_cents")
);
--> statement-breakpoint
CREATE TABLE "charter_captains" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"licence_type" text NOT NULL,
	"licence_number" text NOT NULL,
	"licence_expires_on" date NOT NULL,
	"vessel_name" text NOT NULL,
	"vessel_registration" text NOT NULL,
	"insurance_carrier" text NOT NULL,
	"insurance_policy_number" text NOT NULL,
	"insurance_expires_on" date NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"review_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charter_listings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"captain_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"boat_name" text NOT NULL,
	"home_port" text NOT NULL,
	"state" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"time_zone" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"trip_types" jsonb NOT NULL,
	"target_species" text[] DEFAULT '{}'::text[] NOT NULL,
	"included" text[] DEFAULT '{}'::text[] NOT NULL,
	"free_cancellation_days" smallint NOT NULL,
	"late_cancellation_refund_percent" smallint NOT NULL,
	"deposit_percent" smallint NOT NULL,
	"instant_book" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charter_listings_free_days" CHECK ("charter_listings"."free_cancellation_days" BETWEEN 1 AND 60),
	CONSTRAINT "charter_listings_late_refund" CHECK ("charter_listings"."late_cancellation_refund_percent" BETWEEN 0 AND 100),
	CONSTRAINT "charter_listings_deposit" CHECK ("charter_listings"."deposit_percent" = 0 OR "charter_listings"."deposit_percent" BETWEEN 10 AND 30),
	CONSTRAINT "charter_listings_lat" CHECK ("charter_listings"."latitude" BETWEEN -90 AND 90 AND "charter_listings"."longitude" BETWEEN -180 AND 180)
);
--> statement-breakpoint
CREATE TABLE "charter_slots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"listing_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "charter_bookings" ADD CONSTRAINT "charter_bookings_listing_id_charter_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."charter_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_bookings" ADD CONSTRAINT "charter_bookings_slot_id_charter_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."charter_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_bookings" ADD CONSTRAINT "charter_bookings_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_bookings" ADD CONSTRAINT "charter_bookings_captain_id_users_id_fk" FOREIGN KEY ("captain_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_captains" ADD CONSTRAINT "charter_captains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_listings" ADD CONSTRAINT "charter_listings_captain_id_charter_captains_user_id_fk" FOREIGN KEY ("captain_id") REFERENCES "public"."charter_captains"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charter_slots" ADD CONSTRAINT "charter_slots_listing_id_charter_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."charter_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charter_bookings_slot_holding_key" ON "charter_bookings" USING btree ("slot_id") WHERE state IN ('Pending', 'Confirmed', 'CancelRequested', 'Completed');--> statement-breakpoint
CREATE INDEX "charter_bookings_customer_idx" ON "charter_bookings" USING btree ("customer_id","starts_at");--> statement-breakpoint
CREATE INDEX "charter_bookings_captain_idx" ON "charter_bookings" USING btree ("captain_id","starts_at");--> statement-breakpoint
CREATE INDEX "charter_bookings_pending_idx" ON "charter_bookings" USING btree ("accept_by") WHERE state = 'Pending';--> statement-breakpoint
CREATE INDEX "charter_captains_status_idx" ON "charter_captains" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "charter_listings_captain_idx" ON "charter_listings" USING btree ("captain_id");--> statement-breakpoint
CREATE INDEX "charter_listings_active_state_idx" ON "charter_listings" USING btree ("state","id") WHERE is_active;--> statement-breakpoint
CREATE UNIQUE INDEX "charter_slots_listing_start_key" ON "charter_slots" USING btree ("listing_id","starts_at");