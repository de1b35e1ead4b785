-- Geographic search (spots, fishing reports, events, clubs): the cube and earthdistance contrib
-- extensions provide ll_to_earth, earth_box and earth_distance, indexed with GiST on
-- ll_to_earth(lat, lon). Both are trusted extensions (the database owner may create them); the
-- server checks at start that the PostgreSQL server provides them. Idempotent: other modules may
-- create them too.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
