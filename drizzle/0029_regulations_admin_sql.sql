-- Regulations administration: what drizzle cannot express.

-- A version's range is closed by the next version (effective_to = the day before it starts).
ALTER TABLE reg_rule_sets ADD CONSTRAINT reg_rule_sets_effective_range_check CHECK (effective_to IS NULL OR effective_to >= effective_from);
--> statement-breakpoint
-- Rule sets stay immutable; besides deactivation, only effective_to changes (closing or
-- re-opening the range when a later version is added, deactivated or reactivated).
CREATE OR REPLACE FUNCTION reg_rule_sets_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'reg_rule_sets rows are never deleted (deactivate the version instead)' USING ERRCODE = 'P0001';
  END IF;
  IF (to_jsonb(NEW) - ARRAY['is_active','deactivated_at','deactivated_by','deactivation_reason','updated_at','effective_to'])
     IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['is_active','deactivated_at','deactivated_by','deactivation_reason','updated_at','effective_to']) THEN
    RAISE EXCEPTION 'reg_rule_sets rows are never edited in place: add a new version' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
ALTER TABLE ma_program_revisions ADD CONSTRAINT ma_program_revisions_revision_check CHECK (revision >= 1);
