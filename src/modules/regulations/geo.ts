/**
 * GeoJSON boundaries of zones: validation (closed rings, at most MAX_POINTS vertices in all, no
 * self-intersection, WGS 84 ranges), conversion to PostgreSQL polygon text and planar area.
 * Holes are not supported (an inner ring is refused): special-regulation waters are outer rings.
 */

export const MAX_POINTS = 10_000;

export type Position = [number, number];
export type Ring = Position[];

export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: number[][][];
}
export interface GeoJsonMultiPolygon {
  type: 'MultiPolygon';
  coordinates: number[][][][];
}
export type Boundary = GeoJsonPolygon | GeoJsonMultiPolygon;

export interface GeoProblem {
  pointer: string;
  detail: string;
}

type Segment = { a: Position; b: Position; index: number; minX: number; maxX: number };

function orientation(p: Position, q: Position, r: Position): number {
  const v = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1]);
  return v === 0 ? 0 : v > 0 ? 1 : 2;
}

function onSegment(p: Position, q: Position, r: Position): boolean {
  return q[0] <= Math.max(p[0], r[0]) && q[0] >= Math.min(p[0], r[0]) && q[1] <= Math.max(p[1], r[1]) && q[1] >= Math.min(p[1], r[1]);
}

function intersects(s: Segment, t: Segment): boolean {
  const [p1, q1, p2, q2] = [s.a, s.b, t.a, t.b];
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, q2, q1)) || (o3 === 0 && onSegment(p2, p1, q2)) || (o4 === 0 && onSegment(p2, q1, q2));
}

/** The index of the first edge crossing another (non-adjacent) edge of the closed ring, or -1. */
export function selfIntersection(ring: Ring): number {
  const n = ring.length - 1; // edges; the last position repeats the first
  const segments: Segment[] = [];
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    segments.push({ a, b, index: i, minX: Math.min(a[0], b[0]), maxX: Math.max(a[0], b[0]) });
  }
  segments.sort((s, t) => s.minX - t.minX);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    for (let j = i + 1; j < segments.length && segments[j]!.minX <= s.maxX; j++) {
      const t = segments[j]!;
      const gap = Math.abs(s.index - t.index);
      if (gap === 1 || gap === n - 1) continue; // neighbours share a vertex
      if (intersects(s, t)) return Math.min(s.index, t.index);
    }
  }
  return -1;
}

/** Shoelace area in square degrees (planar; used only to rank how specific a zone is). */
export function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return Math.abs(sum) / 2;
}

/** The outer rings of a boundary, or the problems found (JSON pointers relative to the boundary). */
export function validateBoundary(boundary: Boundary, base = ''): { rings: Ring[]; problems: GeoProblem[] } {
  const polygons = boundary.type === 'Polygon' ? [boundary.coordinates] : boundary.coordinates;
  const prefix = (p: number) => (boundary.type === 'Polygon' ? `${base}/coordinates` : `${base}/coordinates/${p}`);
  const problems: GeoProblem[] = [];
  const rings: Ring[] = [];
  let points = 0;
  polygons.forEach((polygon, p) => {
    if (polygon.length !== 1) {
      problems.push({ pointer: prefix(p), detail: polygon.length === 0 ? 'has no ring' : 'has inner rings (holes), which are not supported: upload the outer ring only' });
      return;
    }
    const raw = polygon[0]!;
    const pointer = `${prefix(p)}/0`;
    points += raw.length;
    if (raw.length < 4) {
      problems.push({ pointer, detail: 'a ring needs at least 4 positions (3 corners and the first one again)' });
      return;
    }
    const bad = raw.findIndex((pos) => pos.length < 2 || !(Math.abs(pos[0]!) <= 180) || !(Math.abs(pos[1]!) <= 90));
    if (bad >= 0) {
      problems.push({ pointer: `${pointer}/${bad}`, detail: 'is not a [longitude, latitude] position within ±180, ±90' });
      return;
    }
    const ring = raw.map((pos) => [pos[0]!, pos[1]!] as Position);
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) {
      problems.push({ pointer, detail: 'is not closed: the last position must repeat the first' });
      return;
    }
    const crossing = selfIntersection(ring);
    if (crossing >= 0) {
      problems.push({ pointer: `${pointer}/${crossing}`, detail: `the edge from this position crosses another edge: the ring intersects itself` });
      return;
    }
    if (ringArea(ring) === 0) {
      problems.push({ pointer, detail: 'encloses no area' });
      return;
    }
    rings.push(ring);
  });
  if (points > MAX_POINTS) problems.unshift({ pointer: `${base}/coordinates`, detail: `has ${points} positions; at most ${MAX_POINTS} are accepted (simplify the boundary)` });
  return { rings, problems };
}

/** PostgreSQL polygon text of a closed ring (the repeated last position dropped). */
export function polygonText(ring: Ring): string {
  return `(${ring
    .slice(0, -1)
    .map(([x, y]) => `(${x},${y})`)
    .join(',')})`;
}

export function pointCount(rings: readonly Ring[]): number {
  return rings.reduce((n, r) => n + r.length, 0);
}
