ALTER TABLE "spots" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ma_program_species" ADD COLUMN "data_year" integer;--> statement-breakpoint
ALTER TABLE "ma_program_species" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "spots" ADD COLUMN "county" text;--> statement-breakpoint
ALTER TABLE "spots" ADD COLUMN "agency" text;--> statement-breakpoint
ALTER TABLE "spots" ADD COLUMN "source_record_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "spots_source_record_key" ON "spots" USING btree ("source_record_id");