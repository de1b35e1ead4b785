ALTER TABLE "catches" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "catches" ADD COLUMN "create_digest" text;--> statement-breakpoint
ALTER TABLE "fishing_sessions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fishing_sessions" ADD COLUMN "create_digest" text;--> statement-breakpoint
ALTER TABLE "fishing_log_entries" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fishing_log_entries" ADD COLUMN "create_digest" text;--> statement-breakpoint
ALTER TABLE "boats" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "boats" ADD COLUMN "create_digest" text;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "gear_setups" ADD COLUMN "create_digest" text;--> statement-breakpoint
-- Row versions (issue 45): entries, catches, sessions, boats and gear setups answer an ETag from their
-- `version`, and `If-Match` compares it in the UPDATE's or DELETE's WHERE (core/http/conditional.ts).
-- Every UPDATE of a row makes it one more, whoever writes it (the API, a foreign key's SET NULL, SQL):
-- the trigger sets it, so no statement can forget it or set it back.
-- `create_digest`: the digest of the create request of a record whose id the client chose
-- (core/http/client-ids.ts); null for the rows so far, whose ids the server chose.
CREATE OR REPLACE FUNCTION fishlog_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER catches_version BEFORE UPDATE ON catches FOR EACH ROW EXECUTE FUNCTION fishlog_bump_version();
--> statement-breakpoint
CREATE TRIGGER fishing_log_entries_version BEFORE UPDATE ON fishing_log_entries FOR EACH ROW EXECUTE FUNCTION fishlog_bump_version();
--> statement-breakpoint
CREATE TRIGGER fishing_sessions_version BEFORE UPDATE ON fishing_sessions FOR EACH ROW EXECUTE FUNCTION fishlog_bump_version();
--> statement-breakpoint
CREATE TRIGGER boats_version BEFORE UPDATE ON boats FOR EACH ROW EXECUTE FUNCTION fishlog_bump_version();
--> statement-breakpoint
CREATE TRIGGER gear_setups_version BEFORE UPDATE ON gear_setups FOR EACH ROW EXECUTE FUNCTION fishlog_bump_version();
--> statement-breakpoint
-- An entry's representation lists its catches, a session's its entries (title, time): a child added,
-- changed or removed is a new version of the parent, so If-None-Match never answers 304 for a stale copy.
-- (A parent deleted in the same statement, by a cascade, is no longer seen: the UPDATE finds nothing.)
CREATE OR REPLACE FUNCTION fishlog_bump_entry_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE fishing_log_entries SET version = version + 1 WHERE id = OLD.entry_id;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE fishing_log_entries SET version = version + 1 WHERE id = NEW.entry_id;
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.entry_id IS DISTINCT FROM OLD.entry_id THEN
      UPDATE fishing_log_entries SET version = version + 1 WHERE id = NEW.entry_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fishlog_bump_session_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD.session_id IS NOT NULL THEN
      UPDATE fishing_sessions SET version = version + 1 WHERE id = OLD.session_id;
    END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.session_id IS NOT NULL THEN
      UPDATE fishing_sessions SET version = version + 1 WHERE id = NEW.session_id;
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.session_id IS NOT NULL AND NEW.session_id IS DISTINCT FROM OLD.session_id THEN
      UPDATE fishing_sessions SET version = version + 1 WHERE id = NEW.session_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER catches_entry_version AFTER INSERT OR UPDATE OR DELETE ON catches FOR EACH ROW EXECUTE FUNCTION fishlog_bump_entry_version();
--> statement-breakpoint
CREATE TRIGGER fishing_log_entries_session_version AFTER INSERT OR DELETE OR UPDATE OF session_id, title, occurred_at ON fishing_log_entries FOR EACH ROW EXECUTE FUNCTION fishlog_bump_session_version();
