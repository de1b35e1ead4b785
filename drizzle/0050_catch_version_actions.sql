-- A catch changed by a foreign key's action (its gear setup deleted: ON DELETE SET NULL) no longer makes its
-- entry's version one more (0049): that UPDATE of the entry, from the setup's deletion, which does not hold the
-- owner's personal-best lock, locked the entry after the catch, the opposite order of an entry's deletion (the
-- entry, then its catches), and the two deadlocked. Such an action leaves updated_at as it was, which every
-- change of a catch through the API sets. The catch's own version still changes (its BEFORE trigger); its
-- entry keeps its version (the catch's gearSetupId in the entry's view is shown to the owner only).
CREATE OR REPLACE FUNCTION fishlog_bump_entry_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
      RETURN NULL;
    END IF;
  END IF;
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
