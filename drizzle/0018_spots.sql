CREATE TABLE "spot_confirmations" (
	"spot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spot_confirmations_spot_id_user_id_pk" PRIMARY KEY("spot_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "spot_ratings" (
	"spot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"stars" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spot_ratings_spot_id_user_id_pk" PRIMARY KEY("spot_id","user_id"),
	CONSTRAINT "spot_ratings_stars" CHECK ("spot_ratings"."stars" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "spots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"privacy" text NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"public_lat" double precision NOT NULL,
	"public_lon" double precision NOT NULL,
	"water_body" text,
	"state_code" text,
	"description" text,
	"ramp_type" text,
	"lanes" smallint,
	"parking_spaces" integer,
	"fee_required" boolean,
	"fee_cents" integer,
	"accessible" boolean,
	"seasonal" boolean,
	"source_url" text,
	"status" text DEFAULT 'Unverified' NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" uuid,
	"confirmation_count" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"featured_from" timestamp with time zone,
	"featured_until" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"deactivation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spots_lat_range" CHECK ("spots"."lat" BETWEEN -90 AND 90 AND "spots"."public_lat" BETWEEN -90 AND 90),
	CONSTRAINT "spots_lon_range" CHECK ("spots"."lon" BETWEEN -180 AND 180 AND "spots"."public_lon" BETWEEN -180 AND 180),
	CONSTRAINT "spots_lanes_positive" CHECK ("spots"."lanes" IS NULL OR "spots"."lanes" > 0),
	CONSTRAINT "spots_fee_cents" CHECK ("spots"."fee_cents" IS NULL OR "spots"."fee_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "spot_confirmations" ADD CONSTRAINT "spot_confirmations_spot_id_spots_id_fk" FOREIGN KEY ("spot_id") REFERENCES "public"."spots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_confirmations" ADD CONSTRAINT "spot_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_ratings" ADD CONSTRAINT "spot_ratings_spot_id_spots_id_fk" FOREIGN KEY ("spot_id") REFERENCES "public"."spots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_ratings" ADD CONSTRAINT "spot_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spots" ADD CONSTRAINT "spots_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spots_owner_idx" ON "spots" USING btree ("owner_id","created_at");