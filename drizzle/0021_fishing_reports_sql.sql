-- Geographic search of fishing reports on the location everyone is shown (cube + earthdistance, 0009).
CREATE INDEX IF NOT EXISTS fishing_reports_public_earth_idx ON fishing_reports USING gist (ll_to_earth(public_lat, public_lon));
