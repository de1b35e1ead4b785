-- Offline sync's friends table shows a friend's username: a rename (new claims from the identity provider, or an
-- erasure's "former angler") stamps the user's change_xid (0051's trigger function), so the friends of the renamed
-- user get them in their next pull. Only a change of the username stamps it: a sign-in or any other change of the
-- users row does not make every friend's device pull its friends again.
ALTER TABLE users ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE TRIGGER users_sync_stamp BEFORE UPDATE OF username ON users FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username) EXECUTE FUNCTION fishlog_sync_stamp();
