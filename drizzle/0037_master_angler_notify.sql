-- Every process caches the Master Angler minimums (programs, their species minimums, the
-- jurisdictions they belong to) for the eligibility check of catch writes. Any change to those
-- tables, whoever makes it (API, seeds, CLI, SQL), tells every process at commit.
CREATE OR REPLACE FUNCTION fishlog_notify_master_angler() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fishlog_master_angler', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ma_programs_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ma_programs FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_master_angler();
--> statement-breakpoint
CREATE TRIGGER ma_program_species_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ma_program_species FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_master_angler();
--> statement-breakpoint
CREATE TRIGGER reg_jurisdictions_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reg_jurisdictions FOR EACH STATEMENT EXECUTE FUNCTION fishlog_notify_master_angler();
