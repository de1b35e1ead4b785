import { describe, expect, it } from 'vitest';
import { MAX_POINTS, polygonText, ringArea, selfIntersection, validateBoundary, type Boundary } from './geo.js';

const square = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];

describe('GeoJSON boundary validation', () => {
  it.each<[string, Boundary, string | null]>([
    ['a closed square', { type: 'Polygon', coordinates: [square] }, null],
    ['an open ring', { type: 'Polygon', coordinates: [square.slice(0, 4)] }, 'is not closed'],
    [
      'a bow tie',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      },
      'intersects itself',
    ],
    ['a hole', { type: 'Polygon', coordinates: [square, square] }, 'inner rings'],
    ['too few positions', { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [0, 0]]] }, 'at least 4'],
    ['a latitude out of range', { type: 'Polygon', coordinates: [[[0, 0], [1, 95], [1, 1], [0, 0]]] }, '±180, ±90'],
    ['a multipolygon of two squares', { type: 'MultiPolygon', coordinates: [[square], [square.map(([x, y]) => [x! + 5, y!])]] }, null],
  ])('%s', (_name, boundary, problem) => {
    const { rings, problems } = validateBoundary(boundary);
    if (problem === null) {
      expect(problems).toEqual([]);
      expect(rings.length).toBeGreaterThan(0);
    } else {
      expect(problems[0]!.detail).toContain(problem);
    }
  });

  it(`refuses more than ${MAX_POINTS} positions`, () => {
    const n = MAX_POINTS + 1;
    const ring = Array.from({ length: n }, (_, i) => [Math.cos((2 * Math.PI * i) / n), Math.sin((2 * Math.PI * i) / n)]);
    ring.push(ring[0]!);
    const { problems } = validateBoundary({ type: 'Polygon', coordinates: [ring] });
    expect(problems[0]).toEqual({ pointer: '/coordinates', detail: `has ${n + 1} positions; at most ${MAX_POINTS} are accepted (simplify the boundary)` });
  });

  it('checks a 9,999-vertex ring quickly', () => {
    const n = 9_998;
    const ring = Array.from({ length: n }, (_, i) => [Math.cos((2 * Math.PI * i) / n), Math.sin((2 * Math.PI * i) / n)] as [number, number]);
    ring.push(ring[0]!);
    const started = performance.now();
    expect(selfIntersection(ring)).toBe(-1);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('area and polygon text', () => {
    expect(ringArea(square as [number, number][])).toBe(1);
    expect(polygonText(square as [number, number][])).toBe('((0,0),(1,0),(1,1),(0,1))');
  });
});
