ALTER TABLE "fishing_log_entries" ADD COLUMN "species_ids" uuid[] DEFAULT '{}'::uuid[];--> statement-breakpoint
-- The species of an entry's catches on the entry (distinct, sorted; null past 64, an index entry's size being
-- limited), kept by the trigger that already makes the entry's version one more when one of its catches changes
-- (0049, 0050): the same one UPDATE of the entry. The feeds' species filter reads them from the feed indexes.
CREATE OR REPLACE FUNCTION fishlog_entry_species(entry uuid) RETURNS uuid[] LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN count(DISTINCT species_id) > 64 THEN NULL ELSE coalesce(array_agg(DISTINCT species_id ORDER BY species_id), '{}') END
  FROM catches WHERE entry_id = entry
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fishlog_bump_entry_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE fishing_log_entries SET version = version + 1, species_ids = fishlog_entry_species(OLD.entry_id) WHERE id = OLD.entry_id;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE fishing_log_entries SET version = version + 1, species_ids = fishlog_entry_species(NEW.entry_id) WHERE id = NEW.entry_id;
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.entry_id IS DISTINCT FROM OLD.entry_id THEN
      UPDATE fishing_log_entries SET version = version + 1, species_ids = fishlog_entry_species(NEW.entry_id) WHERE id = NEW.entry_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The entries so far, without their triggers: nothing an angler or a device sees changes (no new version, no sync change).
ALTER TABLE "fishing_log_entries" DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE "fishing_log_entries" e SET "species_ids" = s.ids
FROM (SELECT entry_id, CASE WHEN count(DISTINCT species_id) > 64 THEN NULL ELSE array_agg(DISTINCT species_id ORDER BY species_id) END AS ids FROM catches GROUP BY entry_id) s
WHERE s.entry_id = e.id;
--> statement-breakpoint
ALTER TABLE "fishing_log_entries" ENABLE TRIGGER USER;
--> statement-breakpoint
-- The feed indexes carry the species too (0052 made them carry the coordinates).
DROP INDEX IF EXISTS "fishing_log_entries_owner_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_time_idx" ON "fishing_log_entries" ("owner_id", "occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("latitude", "longitude", "share_exact_location", "species_ids");--> statement-breakpoint
DROP INDEX IF EXISTS "fishing_log_entries_owner_visibility_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_owner_visibility_time_idx" ON "fishing_log_entries" ("owner_id", "visibility", "occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("latitude", "longitude", "share_exact_location", "species_ids");--> statement-breakpoint
DROP INDEX IF EXISTS "fishing_log_entries_public_time_idx";--> statement-breakpoint
CREATE INDEX "fishing_log_entries_public_time_idx" ON "fishing_log_entries" ("occurred_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("owner_id", "latitude", "longitude", "share_exact_location", "species_ids") WHERE "visibility" = 'Public';
