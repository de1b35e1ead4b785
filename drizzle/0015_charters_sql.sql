-- Distance search of charter listings: earthdistance (with cube) ships with PostgreSQL's contrib
-- modules, also in the embedded server. A GiST index on the listing's earth point serves
-- earth_box(...) @> ll_to_earth(latitude, longitude).
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE INDEX IF NOT EXISTS charter_listings_earth_idx ON charter_listings USING gist (ll_to_earth(latitude, longitude)) WHERE is_active;
