ALTER TABLE "catches" ADD COLUMN "lure_item_id" uuid;--> statement-breakpoint
ALTER TABLE "catches" ADD CONSTRAINT "catches_lure_item_id_gear_items_id_fk" FOREIGN KEY ("lure_item_id") REFERENCES "public"."gear_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catches_lure_item_idx" ON "catches" USING btree ("lure_item_id") WHERE lure_item_id IS NOT NULL;