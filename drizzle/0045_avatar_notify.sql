-- The own profile (GET /api/userprofile/me, kept by every server process: see 0041) shows the
-- user's avatar, a photo of kind 'Avatar' whose owner is the user. Any change to one (uploaded,
-- replaced, deleted, hidden; by the API, the CLI or SQL) tells every process at commit: the
-- owner's id, or '' when the photos are truncated. Other photos fire no trigger (WHEN).
CREATE OR REPLACE FUNCTION fishlog_notify_profile_of_avatar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'old' THEN
    PERFORM pg_notify('fishlog_profiles', OLD.owner_id::text);
  ELSE
    PERFORM pg_notify('fishlog_profiles', NEW.owner_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER photos_avatar_notify AFTER INSERT OR UPDATE ON photos FOR EACH ROW WHEN (NEW.kind = 'Avatar') EXECUTE FUNCTION fishlog_notify_profile_of_avatar('new');
--> statement-breakpoint
CREATE TRIGGER photos_avatar_gone_notify AFTER UPDATE OR DELETE ON photos FOR EACH ROW WHEN (OLD.kind = 'Avatar') EXECUTE FUNCTION fishlog_notify_profile_of_avatar('old');
--> statement-breakpoint
CREATE TRIGGER photos_truncate_notify AFTER TRUNCATE ON photos FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_profiles_all();
