-- Geographic search of events (cube + earthdistance, 0009).
CREATE INDEX IF NOT EXISTS events_earth_idx ON events USING gist (ll_to_earth(lat, lon));
