CREATE TABLE "sync_horizon" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"purged_through" "xid8" DEFAULT '0'::xid8 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_tombstones" (
	"owner_id" uuid,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sync_tombstones_owner_xid_idx" ON "sync_tombstones" USING btree ("owner_id","change_xid");--> statement-breakpoint
CREATE INDEX "sync_tombstones_deleted_at_idx" ON "sync_tombstones" USING btree ("deleted_at");--> statement-breakpoint
-- Offline sync (issue 45, src/modules/sync). The change cursor is the writing transaction's id, not the clock
-- and not a sequence: a pull reads in a REPEATABLE READ snapshot and answers `pg_snapshot_xmin` of it as its
-- timestamp; every transaction below that id had ended when the snapshot was taken (its rows are in the
-- pull), and every one at or above it has a change_xid at or above it (the next pull, `change_xid >=
-- lastPulledAt`, sees it). A sequence value is taken before the commit, so a smaller one could commit after
-- a pull had gone past it. Rows at the boundary may come twice; none is skipped.
INSERT INTO sync_horizon (id, purged_through) VALUES (1, '0');--> statement-breakpoint
CREATE OR REPLACE FUNCTION fishlog_sync_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
--> statement-breakpoint
-- A deleted row of a synced table: TG_ARGV[0] the protocol's table name, [1] the owner column (none for the
-- shared tables), [2] the id column (default id).
CREATE OR REPLACE FUNCTION fishlog_sync_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
BEGIN
  INSERT INTO sync_tombstones (owner_id, table_name, record_id)
  VALUES (CASE WHEN TG_NARGS > 1 THEN (old_row ->> TG_ARGV[1])::uuid END, TG_ARGV[0], (old_row ->> COALESCE(TG_ARGV[2], 'id'))::uuid);
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('fishing_sessions', 'sessions', 'owner_id', 'id'),
    ('fishing_log_entries', 'entries', 'owner_id', 'id'),
    ('catches', 'catches', 'owner_id', 'id'),
    ('boats', 'boats', 'owner_id', 'id'),
    ('gear_setups', 'gear_setups', 'owner_id', 'id'),
    ('personal_best_criteria', 'personal_best_criteria', 'owner_id', 'id'),
    ('photos', 'photos', 'owner_id', 'id'),
    ('user_profiles', 'profiles', 'user_id', 'user_id'),
    ('friend_links', 'friends', 'user_id', 'friend_id'),
    ('fish_species', 'species', NULL, 'id'),
    ('lookup_values', 'lookup_values', NULL, 'id'),
    ('gear_items', 'gear_items', NULL, 'id'),
    ('brands', 'brands', NULL, 'id')
  ) AS v(tbl, protocol, owner_col, id_col) LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()', t.tbl);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION fishlog_sync_stamp()', t.tbl || '_sync_stamp', t.tbl);
    IF t.owner_col IS NULL THEN
      EXECUTE format('CREATE INDEX %I ON %I (change_xid)', t.tbl || '_change_xid_idx', t.tbl);
      EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I FOR EACH ROW EXECUTE FUNCTION fishlog_sync_tombstone(%L)', t.tbl || '_sync_tombstone', t.tbl, t.protocol);
    ELSE
      EXECUTE format('CREATE INDEX %I ON %I (%I, change_xid)', t.tbl || '_owner_change_xid_idx', t.tbl, t.owner_col);
      EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I FOR EACH ROW EXECUTE FUNCTION fishlog_sync_tombstone(%L, %L, %L)', t.tbl || '_sync_tombstone', t.tbl, t.protocol, t.owner_col, t.id_col);
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- A friendship is two edges (each user's row): the other's edge, added or removed, changes the caller's list too.
CREATE INDEX friend_links_friend_change_xid_idx ON friend_links (friend_id, change_xid);
