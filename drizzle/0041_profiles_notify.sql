-- Every server process keeps its users' own profiles (GET /api/userprofile/me: profile, favourite
-- species' name, research consent) in memory while it hears their changes. Any change to what
-- that view reads, whoever makes it (API, seeds, CLI, SQL), tells every process at commit: the
-- user's id, or '' when a change may touch many users (a species renamed, a table truncated).
CREATE OR REPLACE FUNCTION fishlog_notify_profile_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('fishlog_profiles', OLD.user_id::text);
  ELSE
    PERFORM pg_notify('fishlog_profiles', NEW.user_id::text);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('fishlog_profiles', OLD.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fishlog_notify_profiles_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fishlog_profiles', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_profiles_notify AFTER INSERT OR UPDATE OR DELETE ON user_profiles FOR EACH ROW EXECUTE FUNCTION fishlog_notify_profile_of_row();
--> statement-breakpoint
CREATE TRIGGER user_profiles_truncate_notify AFTER TRUNCATE ON user_profiles FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_profiles_all();
--> statement-breakpoint
CREATE TRIGGER research_consents_notify AFTER INSERT OR UPDATE OR DELETE ON research_consents FOR EACH ROW EXECUTE FUNCTION fishlog_notify_profile_of_row();
--> statement-breakpoint
CREATE TRIGGER research_consents_truncate_notify AFTER TRUNCATE ON research_consents FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_profiles_all();
--> statement-breakpoint
CREATE TRIGGER fish_species_name_notify AFTER UPDATE OF common_name ON fish_species FOR EACH ROW WHEN (OLD.common_name IS DISTINCT FROM NEW.common_name) EXECUTE FUNCTION fishlog_notify_profiles_all();
