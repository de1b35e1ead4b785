-- Geographic search of spots on the coordinates everyone is shown (cube + earthdistance, 0009).
CREATE INDEX IF NOT EXISTS spots_public_earth_idx ON spots USING gist (ll_to_earth(public_lat, public_lon));
