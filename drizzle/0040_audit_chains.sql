ALTER TABLE "audit_log" ADD COLUMN "chain" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_chain_idx" ON "audit_log" USING btree ("chain","id");