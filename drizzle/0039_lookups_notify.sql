-- Every process caches the lookup values its modules check fields against. Any change to them,
-- whoever makes it (API, seeds, CLI, SQL), tells every process at commit.
CREATE OR REPLACE FUNCTION fishlog_notify_lookups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fishlog_lookups', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lookup_values_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON lookup_values FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_lookups();
