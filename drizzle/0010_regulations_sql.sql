-- Regulations: what drizzle cannot express.

-- Point-in-polygon lookup of zones: a GiST index on the native polygon type (poly_ops). The
-- lookup filters with `ring && polygon(box(p, p))` (indexable) and rechecks `ring @> p`.
CREATE INDEX IF NOT EXISTS reg_zone_rings_ring_gist ON reg_zone_rings USING gist (ring);
--> statement-breakpoint
ALTER TABLE reg_rule_sets ADD CONSTRAINT reg_rule_sets_slot_check CHECK (slot_from_in IS NULL OR slot_to_in IS NULL OR slot_from_in < slot_to_in);
--> statement-breakpoint
ALTER TABLE reg_rule_sets ADD CONSTRAINT reg_rule_sets_limits_check CHECK (
  (daily_bag IS NULL OR daily_bag >= 0) AND (possession_limit IS NULL OR possession_limit >= 0) AND (combined_bag IS NULL OR combined_bag >= 0)
  AND (version >= 1) AND ((combined_group IS NULL) = (combined_bag IS NULL)) AND ((one_over_in IS NULL) = (one_over_count IS NULL)));
--> statement-breakpoint
ALTER TABLE reg_emergency_orders ADD CONSTRAINT reg_emergency_orders_range_check CHECK (starts_on <= ends_on);
--> statement-breakpoint
ALTER TABLE reg_license_years ADD CONSTRAINT reg_license_years_range_check CHECK (starts_on < ends_on);
--> statement-breakpoint
ALTER TABLE ma_submissions ADD CONSTRAINT ma_submissions_attempt_check CHECK (attempt IN (1, 2));
--> statement-breakpoint
-- Rule sets are versions: never edited in place. Only the deactivation columns (and updated_at)
-- may change; a change of a rule is a new version.
CREATE OR REPLACE FUNCTION reg_rule_sets_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'reg_rule_sets rows are never deleted (deactivate the version instead)' USING ERRCODE = 'P0001';
  END IF;
  IF (to_jsonb(NEW) - ARRAY['is_active','deactivated_at','deactivated_by','deactivation_reason','updated_at'])
     IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['is_active','deactivated_at','deactivated_by','deactivation_reason','updated_at']) THEN
    RAISE EXCEPTION 'reg_rule_sets rows are never edited in place: add a new version' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER reg_rule_sets_immutable BEFORE UPDATE OR DELETE ON reg_rule_sets FOR EACH ROW EXECUTE FUNCTION reg_rule_sets_immutable();
