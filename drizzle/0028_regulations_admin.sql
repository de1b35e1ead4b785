CREATE TABLE "ma_program_revisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"program_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"reason" text NOT NULL,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ma_programs" ADD COLUMN "updated_by" uuid;--> statement-breakpoint
ALTER TABLE "ma_programs" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reg_jurisdictions" ADD COLUMN "updated_by" uuid;--> statement-breakpoint
ALTER TABLE "reg_rule_sets" ADD COLUMN "effective_to" date;--> statement-breakpoint
ALTER TABLE "ma_program_revisions" ADD CONSTRAINT "ma_program_revisions_program_id_ma_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."ma_programs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ma_program_revisions_key" ON "ma_program_revisions" USING btree ("program_id","revision");