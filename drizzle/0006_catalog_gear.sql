CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"website" text,
	"description" text,
	"gear_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "boats" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"make" text,
	"model" text,
	"year" smallint,
	"length_cm" numeric(6, 1),
	"hull_type" text,
	"hull_material" text,
	"motor" text,
	"horsepower" numeric(5, 1),
	"home_water" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gear_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"slug" text NOT NULL,
	"brand_id" uuid NOT NULL,
	"name" text NOT NULL,
	"product_line" text,
	"model_number" text,
	"description" text,
	"price_usd" numeric(8, 2),
	"search_text" text DEFAULT '' NOT NULL,
	"rod_type" text,
	"length_in" smallint,
	"power" text,
	"action" text,
	"pieces" smallint,
	"line_min_lb" numeric(5, 1),
	"line_max_lb" numeric(5, 1),
	"lure_min_g" numeric(6, 1),
	"lure_max_g" numeric(6, 1),
	"fly_line_weight" smallint,
	"material" text,
	"reel_type" text,
	"size" text,
	"gear_ratio" numeric(3, 1),
	"max_drag_kg" numeric(4, 1),
	"bearings" text,
	"retrieve_cm" numeric(5, 1),
	"weight_g" numeric(7, 1),
	"line_type" text,
	"test_lb" numeric(5, 1),
	"diameter_mm" numeric(5, 3),
	"spool_length_m" numeric(6, 1),
	"colour" text,
	"lure_type" text,
	"length_cm" numeric(5, 1),
	"diving_depth_min_m" numeric(4, 1),
	"diving_depth_max_m" numeric(4, 1),
	"apparel_type" text,
	"sizes" text[],
	"gender" text,
	"waterproof" boolean,
	"colours" text[],
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gear_items_rod_fields" CHECK (kind <> 'rod' OR (rod_type IS NOT NULL AND length_in IS NOT NULL AND action IS NOT NULL AND pieces IS NOT NULL AND (power IS NOT NULL OR (rod_type = 'Fly' AND fly_line_weight IS NOT NULL)))),
	CONSTRAINT "gear_items_reel_fields" CHECK (kind <> 'reel' OR (reel_type IS NOT NULL AND gear_ratio IS NOT NULL AND weight_g IS NOT NULL AND max_drag_kg IS NOT NULL)),
	CONSTRAINT "gear_items_line_fields" CHECK (kind <> 'line' OR (line_type IS NOT NULL AND test_lb IS NOT NULL AND diameter_mm IS NOT NULL)),
	CONSTRAINT "gear_items_lure_fields" CHECK (kind <> 'lure' OR (lure_type IS NOT NULL AND colour IS NOT NULL AND (weight_g IS NOT NULL OR lure_type = 'Soft plastic'))),
	CONSTRAINT "gear_items_apparel_fields" CHECK (kind <> 'apparel' OR (apparel_type IS NOT NULL AND cardinality(sizes) > 0))
);
--> statement-breakpoint
CREATE TABLE "gear_lure_species" (
	"lure_id" uuid NOT NULL,
	"species_id" uuid NOT NULL,
	CONSTRAINT "gear_lure_species_lure_id_species_id_pk" PRIMARY KEY("lure_id","species_id")
);
--> statement-breakpoint
CREATE TABLE "gear_setup_lures" (
	"setup_id" uuid NOT NULL,
	"lure_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "gear_setup_lures_setup_id_lure_id_pk" PRIMARY KEY("setup_id","lure_id")
);
--> statement-breakpoint
CREATE TABLE "gear_setups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"rod_id" uuid,
	"reel_id" uuid,
	"line_id" uuid,
	"technique" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fish_taxa" (
	"id" uuid PRIMARY KEY NOT NULL,
	"rank" text NOT NULL,
	"name" text NOT NULL,
	"common_name" text,
	"parent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fish_taxa_parent_rank" CHECK (("fish_taxa"."rank" = 'order') = ("fish_taxa"."parent_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "other_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "water_types" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "genus_id" uuid;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "updated_by" uuid;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fish_species" ADD COLUMN "deactivated_by" uuid;--> statement-breakpoint
ALTER TABLE "boats" ADD CONSTRAINT "boats_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_items" ADD CONSTRAINT "gear_items_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_lure_species" ADD CONSTRAINT "gear_lure_species_lure_id_gear_items_id_fk" FOREIGN KEY ("lure_id") REFERENCES "public"."gear_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_lure_species" ADD CONSTRAINT "gear_lure_species_species_id_fish_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."fish_species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setup_lures" ADD CONSTRAINT "gear_setup_lures_setup_id_gear_setups_id_fk" FOREIGN KEY ("setup_id") REFERENCES "public"."gear_setups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setup_lures" ADD CONSTRAINT "gear_setup_lures_lure_id_gear_items_id_fk" FOREIGN KEY ("lure_id") REFERENCES "public"."gear_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD CONSTRAINT "gear_setups_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD CONSTRAINT "gear_setups_rod_id_gear_items_id_fk" FOREIGN KEY ("rod_id") REFERENCES "public"."gear_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD CONSTRAINT "gear_setups_reel_id_gear_items_id_fk" FOREIGN KEY ("reel_id") REFERENCES "public"."gear_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD CONSTRAINT "gear_setups_line_id_gear_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."gear_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fish_taxa" ADD CONSTRAINT "fish_taxa_parent_id_fish_taxa_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."fish_taxa"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_key" ON "brands" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "brands_name_trgm_idx" ON "brands" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "brands_active_name_idx" ON "brands" USING btree ("name","id") WHERE is_active;--> statement-breakpoint
CREATE INDEX "boats_owner_name_idx" ON "boats" USING btree ("owner_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "gear_items_slug_key" ON "gear_items" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "gear_items_kind_brand_name_key" ON "gear_items" USING btree ("kind","brand_id",lower("name"));--> statement-breakpoint
CREATE INDEX "gear_items_search_trgm_idx" ON "gear_items" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "gear_items_kind_active_name_idx" ON "gear_items" USING btree ("kind","name","id") WHERE is_active;--> statement-breakpoint
CREATE INDEX "gear_items_brand_kind_idx" ON "gear_items" USING btree ("brand_id","kind");--> statement-breakpoint
CREATE INDEX "gear_lure_species_species_idx" ON "gear_lure_species" USING btree ("species_id","lure_id");--> statement-breakpoint
CREATE INDEX "gear_setup_lures_lure_idx" ON "gear_setup_lures" USING btree ("lure_id","setup_id");--> statement-breakpoint
CREATE INDEX "gear_setups_owner_name_idx" ON "gear_setups" USING btree ("owner_id","name","id");--> statement-breakpoint
CREATE INDEX "gear_setups_rod_idx" ON "gear_setups" USING btree ("rod_id");--> statement-breakpoint
CREATE INDEX "gear_setups_reel_idx" ON "gear_setups" USING btree ("reel_id");--> statement-breakpoint
CREATE INDEX "gear_setups_line_idx" ON "gear_setups" USING btree ("line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fish_taxa_rank_name_key" ON "fish_taxa" USING btree ("rank",lower("name"));--> statement-breakpoint
CREATE INDEX "fish_taxa_parent_idx" ON "fish_taxa" USING btree ("parent_id");--> statement-breakpoint
ALTER TABLE "catches" ADD CONSTRAINT "catches_gear_setup_id_gear_setups_id_fk" FOREIGN KEY ("gear_setup_id") REFERENCES "public"."gear_setups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fish_species" ADD CONSTRAINT "fish_species_genus_id_fish_taxa_id_fk" FOREIGN KEY ("genus_id") REFERENCES "public"."fish_taxa"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catches_gear_setup_idx" ON "catches" USING btree ("gear_setup_id") WHERE gear_setup_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "fish_species_search_trgm_idx" ON "fish_species" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "fish_species_genus_idx" ON "fish_species" USING btree ("genus_id");--> statement-breakpoint
CREATE INDEX "fish_species_water_types_idx" ON "fish_species" USING gin ("water_types");--> statement-breakpoint
CREATE INDEX "fish_species_active_name_idx" ON "fish_species" USING btree ("common_name","id") WHERE is_active;