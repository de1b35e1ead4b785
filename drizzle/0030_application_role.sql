-- Least privilege: the request path runs as fishlog_app (see src/core/db/client.ts), which owns
-- nothing. It reads and writes the application's rows, appends to the audit log, and cannot
-- update, delete or truncate the audit log, disable its triggers (only the table owner can),
-- create tables, roles or extensions. Migrations and seeds keep running as the owner (the role
-- of DATABASE_URL). Role names are cluster-wide: creating it is guarded for concurrent migrations
-- of several databases in one cluster.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fishlog_app') THEN
    BEGIN
      CREATE ROLE fishlog_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  -- The owner must be able to SET ROLE fishlog_app (a superuser always can; a managed
  -- service's owner user, which has CREATEROLE, becomes a member here).
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_user AND rolsuper)
     AND NOT pg_has_role(current_user, 'fishlog_app', 'MEMBER') THEN
    EXECUTE format('GRANT fishlog_app TO %I', current_user);
  END IF;
END
$$;--> statement-breakpoint
REVOKE CREATE ON SCHEMA public FROM PUBLIC;--> statement-breakpoint
-- public: the application's tables; idp: the embedded identity provider's users, sessions and keys.
GRANT USAGE ON SCHEMA public, idp TO fishlog_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public, idp TO fishlog_app;--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public, idp TO fishlog_app;--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM fishlog_app;--> statement-breakpoint
-- Readiness (/health/ready) compares the applied migrations with the build's: read-only.
GRANT USAGE ON SCHEMA drizzle TO fishlog_app;--> statement-breakpoint
GRANT SELECT ON drizzle.__drizzle_migrations TO fishlog_app;--> statement-breakpoint
-- Tables and sequences that later migrations create (as this owner) get the same grants.
ALTER DEFAULT PRIVILEGES IN SCHEMA public, idp GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO fishlog_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public, idp GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO fishlog_app;
