CREATE TABLE "catches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	"length_cm" numeric(6, 2),
	"weight_kg" numeric(8, 3),
	"count" integer DEFAULT 1 NOT NULL,
	"released" boolean NOT NULL,
	"caught_at" timestamp with time zone NOT NULL,
	"bait" text,
	"lure" text,
	"gear_setup_id" uuid,
	"photo_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dnr_access_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dnr_user_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purpose" text NOT NULL,
	"mode" text NOT NULL,
	"filters" jsonb NOT NULL,
	"record_count" integer NOT NULL,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "dnr_access_subjects" (
	"access_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"consent_level" text NOT NULL,
	CONSTRAINT "dnr_access_subjects_access_id_user_id_pk" PRIMARY KEY("access_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "fishing_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"time_zone" text,
	"latitude" double precision,
	"longitude" double precision,
	"water_body" text,
	"state_code" text,
	"participants" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"weather_summary" text,
	"water_summary" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fishing_log_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"session_id" uuid,
	"title" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"water_body" text,
	"state_code" text,
	"air_temperature_c" numeric(4, 1),
	"sky" text,
	"wind_speed_kmh" numeric(5, 1),
	"wind_direction" text,
	"pressure_hpa" numeric(6, 1),
	"moon_phase" text,
	"water_temperature_c" numeric(4, 1),
	"water_clarity" text,
	"water_depth_m" numeric(6, 1),
	"method" text,
	"notes" text,
	"visibility" text DEFAULT 'Private' NOT NULL,
	"share_exact_location" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_consents" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"level" text NOT NULL,
	"given_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "circle_members" (
	"owner_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circle_members_owner_id_member_id_pk" PRIMARY KEY("owner_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "friend_links" (
	"user_id" uuid NOT NULL,
	"friend_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friend_links_user_id_friend_id_pk" PRIMARY KEY("user_id","friend_id")
);
--> statement-breakpoint
CREATE TABLE "fish_species" (
	"id" uuid PRIMARY KEY NOT NULL,
	"common_name" text NOT NULL,
	"scientific_name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fish_species_scientificName_unique" UNIQUE("scientific_name")
);
--> statement-breakpoint
ALTER TABLE "catches" ADD CONSTRAINT "catches_entry_id_fishing_log_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."fishing_log_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catches" ADD CONSTRAINT "catches_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catches" ADD CONSTRAINT "catches_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnr_access_log" ADD CONSTRAINT "dnr_access_log_dnr_user_id_users_id_fk" FOREIGN KEY ("dnr_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnr_access_subjects" ADD CONSTRAINT "dnr_access_subjects_access_id_dnr_access_log_id_fk" FOREIGN KEY ("access_id") REFERENCES "public"."dnr_access_log"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnr_access_subjects" ADD CONSTRAINT "dnr_access_subjects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fishing_sessions" ADD CONSTRAINT "fishing_sessions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fishing_log_entries" ADD CONSTRAINT "fishing_log_entries_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fishing_log_entries" ADD CONSTRAINT "fishing_log_entries_session_id_fishing_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."fishing_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_consents" ADD CONSTRAINT "research_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_links" ADD CONSTRAINT "friend_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_links" ADD CONSTRAINT "friend_links_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catches_entry_time_idx" ON "catches" USING btree ("entry_id","caught_at","id");--> statement-breakpoint
CREATE INDEX "catches_species_entry_idx" ON "catches" USING btree ("species_id","entry_id");--> statement-breakpoint
CREATE INDEX "catches_owner_species_idx" ON "catches" USING btree ("owner_id","species_id");--> statement-breakpoint
CREATE INDEX "dnr_access_log_dnr_time_idx" ON "dnr_access_log" USING btree ("dnr_user_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "dnr_access_subjects_user_idx" ON "dnr_access_subjects" USING btree ("user_id","access_id");--> statement-breakpoint
CREATE INDEX "fishing_sessions_owner_time_idx" ON "fishing_sessions" USING btree ("owner_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_time_idx" ON "fishing_log_entries" USING btree ("owner_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_visibility_time_idx" ON "fishing_log_entries" USING btree ("owner_id","visibility","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fishing_log_entries_public_time_idx" ON "fishing_log_entries" USING btree ("occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE visibility = 'Public';--> statement-breakpoint
CREATE INDEX "fishing_log_entries_session_idx" ON "fishing_log_entries" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "circle_members_member_idx" ON "circle_members" USING btree ("member_id","owner_id");--> statement-breakpoint
CREATE INDEX "friend_links_friend_idx" ON "friend_links" USING btree ("friend_id","user_id");