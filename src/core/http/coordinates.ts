import type { FastifyRequest } from 'fastify';
import { Type, type TSchemaOptions } from 'typebox';

/**
 * One spelling of a place across the API's bodies and responses: `location: { latitude, longitude }`
 * (WGS 84 degrees), plus `precision` where a viewer may be shown a blurred point. Query parameters
 * of the near searches stay `lat`, `lon`, `radiusKm` (src/core/db/geo.ts).
 *
 * Bodies that once spelled the point at their top level (`lat`/`lon`, or `latitude`/`longitude`)
 * keep accepting it for one release (deprecated, as the enums' older spellings are): the route's
 * `preValidation: legacyPoint(...)` moves the old keys into `location` before the body is checked.
 */

export const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Degrees north, WGS 84' });
export const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'Degrees east, WGS 84' });

/** A point a client sends. */
export function PointBody(options: TSchemaOptions = {}) {
  return Type.Object({ latitude: Latitude, longitude: Longitude }, { additionalProperties: false, ...options });
}

/** A point as a response shows it. */
export function PointView(options: TSchemaOptions = {}) {
  return Type.Object({ latitude: Type.Number({ description: 'Degrees north, WGS 84' }), longitude: Type.Number({ description: 'Degrees east, WGS 84' }) }, { additionalProperties: false, ...options });
}

export const PRECISION_DESCRIPTION = 'Exact, or Approximate: snapped to a 0.01° grid (about 1 km) to protect the place';

/** A point as a viewer is shown it: exact, or snapped for those who may not see the place itself. */
export const ShownLocation = Type.Object(
  {
    latitude: Type.Number({ description: 'Degrees north, WGS 84', examples: [46.2291] }),
    longitude: Type.Number({ description: 'Degrees east, WGS 84', examples: [-93.6557] }),
    precision: Type.Union([Type.Literal('Exact'), Type.Literal('Approximate')], { description: PRECISION_DESCRIPTION }),
  },
  { additionalProperties: false },
);

export interface Point {
  latitude: number;
  longitude: number;
}

/** The location `exact` allows: the point itself, or the public (snapped) one. */
export function shownLocation(exact: boolean, point: Point, publicPoint: Point) {
  return exact
    ? { latitude: point.latitude, longitude: point.longitude, precision: 'Exact' as const }
    : { latitude: publicPoint.latitude, longitude: publicPoint.longitude, precision: 'Approximate' as const };
}

/** The sentence a body's `location` description ends with where the old spelling is still accepted. */
export function legacyPointNote(latitude: string, longitude: string): string {
  return `The older top-level \`${latitude}\`/\`${longitude}\` are still accepted (deprecated).`;
}

/**
 * A route's preValidation hook: a body that spells its point the old way (top-level `latitude` and
 * `longitude` keys under the given names) and sends no `location` gets them moved into `location`
 * (either may be missing: a merge patch may change one). A body that sends both spellings keeps
 * them, and the validation refuses the unknown old keys.
 */
export function legacyPoint(latitude: string, longitude: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const record = body as Record<string, unknown>;
    if (!(latitude in record) && !(longitude in record)) return;
    if ('location' in record) return;
    const location: Record<string, unknown> = {};
    if (latitude in record) location.latitude = record[latitude];
    if (longitude in record) location.longitude = record[longitude];
    delete record[latitude];
    delete record[longitude];
    record.location = location;
  };
}
