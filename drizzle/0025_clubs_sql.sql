-- Geographic search of clubs (cube + earthdistance, 0009); one owner per club.
CREATE INDEX IF NOT EXISTS clubs_earth_idx ON clubs USING gist (ll_to_earth(lat, lon));--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS club_members_one_owner ON club_members (club_id) WHERE role = 'owner';
