CREATE TABLE "fishing_report_helpful" (
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fishing_report_helpful_report_id_user_id_pk" PRIMARY KEY("report_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "fishing_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"water_body" text NOT NULL,
	"state_code" text,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"public_lat" double precision NOT NULL,
	"public_lon" double precision NOT NULL,
	"exact_location" boolean DEFAULT false NOT NULL,
	"fished_on" date NOT NULL,
	"water_temp_c" numeric(4, 1),
	"clarity" text,
	"sky" text,
	"wind_kmh" numeric(5, 1),
	"wind_direction" text,
	"species" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"moderation_reason" text,
	"moderated_at" timestamp with time zone,
	"helpful_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fishing_reports_coordinates" CHECK ("fishing_reports"."lat" BETWEEN -90 AND 90 AND "fishing_reports"."lon" BETWEEN -180 AND 180)
);
--> statement-breakpoint
ALTER TABLE "fishing_report_helpful" ADD CONSTRAINT "fishing_report_helpful_report_id_fishing_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."fishing_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fishing_report_helpful" ADD CONSTRAINT "fishing_report_helpful_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fishing_reports" ADD CONSTRAINT "fishing_reports_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fishing_reports_author_idx" ON "fishing_reports" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "fishing_reports_pending_idx" ON "fishing_reports" USING btree ("created_at") WHERE status = 'PendingReview';