import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';

/**
 * Geographic search shared by the modules that place records on the map (spots, fishing
 * reports, events, clubs). PostgreSQL's `cube` and `earthdistance` contrib extensions (no
 * PostGIS): a table indexes `ll_to_earth(lat, lon)` with GiST (custom migration), a search
 * narrows with `earth_box(centre, r) @> ll_to_earth(lat, lon)` (the index) and then keeps and
 * orders by the exact great-circle distance `earth_distance` (metres, on a sphere of radius
 * 6,378,168 m: within 0.5 % of the ellipsoidal distance).
 *
 * The index expression and the query expression must be the same text for the planner to use
 * the index: `earthPoint(lat, lon)` writes it for both.
 */

export const MAX_RADIUS_KM = 100;
export const EXTENSIONS = ['cube', 'earthdistance'] as const;

/** Query fields of a "near" search: all three or none. */
export const nearProperties = {
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude of the centre (WGS 84 degrees)', examples: [46.2291] })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude of the centre (WGS 84 degrees)', examples: [-93.6557] })),
  radiusKm: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: `Search radius in kilometres (at most ${MAX_RADIUS_KM})`, examples: [25] }),
  ),
};

export interface Near {
  lat: number;
  lon: number;
  radiusKm: number;
}

/** The `ll_to_earth` point of two columns (or values): the indexed expression. */
export function earthPoint(lat: AnyPgColumn | number, lon: AnyPgColumn | number): SQL {
  return sql`ll_to_earth(${lat}, ${lon})`;
}

function centre(near: Pick<Near, 'lat' | 'lon'>): SQL {
  return sql`ll_to_earth(${near.lat}::float8, ${near.lon}::float8)`;
}

/** Rows within `near.radiusKm` of the centre: the index-backed box, then the exact distance. */
export function withinRadius(lat: AnyPgColumn, lon: AnyPgColumn, near: Near): SQL {
  const radiusM = near.radiusKm * 1000;
  return sql`(earth_box(${centre(near)}, ${radiusM}::float8) @> ${earthPoint(lat, lon)} AND earth_distance(${centre(near)}, ${earthPoint(lat, lon)}) <= ${radiusM}::float8)`;
}

/** The exact distance in metres from the centre, for ordering and display. */
export function distanceFrom(lat: AnyPgColumn, lon: AnyPgColumn, near: Pick<Near, 'lat' | 'lon'>): SQL<number> {
  return sql<number>`earth_distance(${centre(near)}, ${earthPoint(lat, lon)})`;
}

/** Metres to kilometres with 3 decimals (to the metre). */
export function toKm(metres: number): number {
  return Math.round(metres) / 1000;
}

/** A "near" filter from optional query fields: undefined when none is given, 400 detail when only some are. */
export function nearFromQuery(query: { lat?: number | undefined; lon?: number | undefined; radiusKm?: number | undefined }, defaultRadiusKm = 25): Near | undefined | 'incomplete' {
  const { lat, lon, radiusKm } = query;
  if (lat === undefined && lon === undefined && radiusKm === undefined) return undefined;
  if (lat === undefined || lon === undefined) return 'incomplete';
  return { lat, lon, radiusKm: radiusKm ?? defaultRadiusKm };
}

/** Grid of the approximate locations: 0.01° (about 1.1 km north-south, 0.8 km east-west at 45°). */
export const GRID_DEGREES = 0.01;

/** A coordinate pair snapped to the ~1 km grid (private locations shown to others). */
export function snapToGrid(lat: number, lon: number): { lat: number; lon: number } {
  const snap = (v: number) => Math.round(Math.round(v / GRID_DEGREES) * GRID_DEGREES * 1e6) / 1e6;
  return { lat: snap(lat), lon: snap(lon) };
}

/** What a start-up check needs of a connection. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export class GeoExtensionsMissing extends Error {}

/**
 * Fails with a clear message when the server cannot provide `cube` and `earthdistance` (an
 * external PostgreSQL without the contrib package). Run before the migrations that create them.
 */
export async function assertGeoExtensionsAvailable(client: Queryable): Promise<void> {
  const { rows } = await client.query('SELECT name FROM pg_available_extensions WHERE name = ANY($1::text[])', [[...EXTENSIONS]]);
  const available = new Set(rows.map((r) => String(r.name)));
  const missing = EXTENSIONS.filter((name) => !available.has(name));
  if (missing.length > 0) {
    throw new GeoExtensionsMissing(
      `the PostgreSQL server does not provide the ${missing.join(' and ')} extension${missing.length > 1 ? 's' : ''}, which the geographic search needs. ` +
        'Install the server\'s contrib package (e.g. "apt-get install postgresql-contrib" or the postgresql<version>-contrib RPM; ' +
        'managed services such as Amazon RDS and Cloud SQL include them), then start again: the migrations create them with CREATE EXTENSION.',
    );
  }
}
