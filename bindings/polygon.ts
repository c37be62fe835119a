// Load-time polygon work for the platforms part, shared by both backends (plain TS, no dependency:
// the browser entry must load unbundled): cleaning and validating vertex lists, and splitting
// non-convex polygons into convex parts by ear clipping followed by the Hertel-Mehlhorn merge
// (drop each diagonal whose two sides still form a convex polygon; at most 4x the optimal number
// of parts). Never runs per frame.
import { HitcoreError, MAX_COORD } from "./validate.js";

function fail(code: string, message: string): never {
  throw new HitcoreError(code, message);
}

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Twice the signed area (positive: counter-clockwise with y up). */
export function signedArea2(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  let a = 0;
  const n = xs.length;
  for (let i = 0, j = n - 1; i < n; j = i++) a += xs[j] * ys[i] - xs[i] * ys[j];
  return a;
}

/** Do segments ab and cd cross or touch? */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = cross(cx, cy, dx, dy, ax, ay), d2 = cross(cx, cy, dx, dy, bx, by);
  const d3 = cross(ax, ay, bx, by, cx, cy), d4 = cross(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  return (d1 === 0 && on(cx, cy, dx, dy, ax, ay)) || (d2 === 0 && on(cx, cy, dx, dy, bx, by))
    || (d3 === 0 && on(ax, ay, bx, by, cx, cy)) || (d4 === 0 && on(ax, ay, bx, by, dx, dy));
}

/** A cleaned simple polygon, counter-clockwise, as coordinate arrays. */
export interface CleanPolygon {
  xs: number[];
  ys: number[];
}

/**
 * Validates a flat [x0, y0, x1, y1, ...] vertex list of either winding and cleans it: repeated
 * points (zero-length edges) and collinear runs are removed. Throws DEGENERATE_POLYGON for fewer
 * than three distinct corners or zero area, SELF_INTERSECTING when edges cross or touch.
 */
export function cleanPolygon(method: string, points: ArrayLike<number>): CleanPolygon {
  if (points === null || typeof points !== "object" || typeof points.length !== "number") {
    fail("INVALID_POLYGON", `${method}: points must be a flat array [x0, y0, x1, y1, ...], got ${String(points)}.`);
  }
  if (points.length % 2 !== 0) {
    fail("INVALID_POLYGON", `${method}: points must hold x, y pairs, got an odd length ${points.length}. Pass [x0, y0, x1, y1, ...].`);
  }
  for (let i = 0; i < points.length; i++) {
    const v = points[i];
    if (typeof v !== "number" || !Number.isFinite(v) || Math.abs(v) > MAX_COORD) {
      fail("INVALID_NUMBER", `${method}: coordinate ${i} must be a finite number of magnitude at most ${MAX_COORD}, got ${String(v)}. Check the vertex list for NaN or Infinity.`);
    }
  }
  let xs: number[] = [], ys: number[] = [];
  for (let i = 0; i < points.length; i += 2) {
    // Coordinates are stored as f32: clean what will be stored.
    const x = Math.fround(points[i]), y = Math.fround(points[i + 1]);
    const n = xs.length;
    if (n > 0 && xs[n - 1] === x && ys[n - 1] === y) continue; // zero-length edge
    xs.push(x);
    ys.push(y);
  }
  while (xs.length > 1 && xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) { xs.pop(); ys.pop(); }
  // Collinear runs (including spikes that double back) until none is left.
  for (let changed = true; changed && xs.length >= 3;) {
    changed = false;
    for (let i = 0; i < xs.length && xs.length >= 3; i++) {
      const p = (i + xs.length - 1) % xs.length, q = (i + 1) % xs.length;
      if (cross(xs[p], ys[p], xs[i], ys[i], xs[q], ys[q]) === 0) {
        xs.splice(i, 1);
        ys.splice(i, 1);
        changed = true;
        i--;
      }
    }
  }
  if (xs.length < 3) {
    fail("DEGENERATE_POLYGON", `${method}: the polygon has fewer than three distinct, non-collinear corners (${points.length / 2} points given). Give at least three corners that enclose an area.`);
  }
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    for (let j = i + 1; j < n; j++) {
      const j1 = (j + 1) % n;
      if (j === i1 || j1 === i) continue; // neighbours share a corner
      if (segmentsMeet(xs[i], ys[i], xs[i1], ys[i1], xs[j], ys[j], xs[j1], ys[j1])) {
        fail("SELF_INTERSECTING", `${method}: edges ${i} and ${j} of the polygon cross or touch. List the outline once, without crossings; split a figure-eight into two polygons.`);
      }
    }
  }
  const area = signedArea2(xs, ys);
  if (!(Math.abs(area) > 0)) fail("DEGENERATE_POLYGON", `${method}: the polygon encloses no area. Give corners that enclose an area.`);
  if (area < 0) { xs = xs.reverse(); ys = ys.reverse(); }
  return { xs, ys };
}

/** Is the counter-clockwise index ring convex (every turn strictly left)? */
function convexRing(xs: number[], ys: number[], ring: number[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[(i + n - 1) % n], b = ring[i], c = ring[(i + 1) % n];
    if (cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) < 0) return false;
  }
  return true;
}

function pointInTriangle(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return cross(ax, ay, bx, by, px, py) >= 0 && cross(bx, by, cx, cy, px, py) >= 0 && cross(cx, cy, ax, ay, px, py) >= 0;
}

/** Ear clipping of a simple counter-clockwise polygon: triangles as index triples. */
function triangulate(xs: number[], ys: number[]): number[][] {
  const left = xs.map((_, i) => i);
  const triangles: number[][] = [];
  while (left.length > 3) {
    let clipped = false;
    for (let k = 0; k < left.length; k++) {
      const a = left[(k + left.length - 1) % left.length], b = left[k], c = left[(k + 1) % left.length];
      if (cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) <= 0) continue; // reflex or flat corner
      let ear = true;
      for (const p of left) {
        if (p === a || p === b || p === c) continue;
        if (pointInTriangle(xs[p], ys[p], xs[a], ys[a], xs[b], ys[b], xs[c], ys[c])) { ear = false; break; }
      }
      if (!ear) continue;
      triangles.push([a, b, c]);
      left.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) fail("DEGENERATE_POLYGON", "the polygon could not be split into convex parts (nearly touching edges). Simplify the outline or split it yourself.");
  }
  triangles.push([left[0], left[1], left[2]]);
  return triangles;
}

/** Hertel-Mehlhorn: merge parts across shared diagonals while the union stays convex. */
function mergeConvex(xs: number[], ys: number[], parts: number[][]): number[][] {
  for (let merged = true; merged;) {
    merged = false;
    search: for (let p = 0; p < parts.length; p++) {
      const A = parts[p];
      for (let q = p + 1; q < parts.length; q++) {
        const B = parts[q];
        for (let i = 0; i < A.length; i++) {
          const u = A[i], v = A[(i + 1) % A.length];
          const j = B.indexOf(v);
          if (j < 0 || B[(j + 1) % B.length] !== u) continue;
          // Shared edge u -> v in A, v -> u in B: splice B's other corners between u and v.
          const ring = A.slice(0, i + 1);
          for (let k = 2; k < B.length; k++) ring.push(B[(j + k) % B.length]);
          ring.push(...A.slice(i + 1));
          if (!convexRing(xs, ys, ring)) continue;
          parts[p] = ring;
          parts.splice(q, 1);
          merged = true;
          break search;
        }
      }
    }
  }
  return parts;
}

/** Drops corners where the ring goes straight on (left by a merge). */
function dropStraight(xs: number[], ys: number[], ring: number[]): number[] {
  return ring.filter((b, i) => {
    const a = ring[(i + ring.length - 1) % ring.length], c = ring[(i + 1) % ring.length];
    return cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) !== 0;
  });
}

/**
 * Convex parts of a cleaned counter-clockwise polygon, each a flat counter-clockwise vertex list.
 * A convex polygon comes back whole.
 */
export function convexParts(poly: CleanPolygon): number[][] {
  const { xs, ys } = poly;
  const all = xs.map((_, i) => i);
  const rings = convexRing(xs, ys, all) ? [all] : mergeConvex(xs, ys, triangulate(xs, ys));
  return rings.map((ring) => dropStraight(xs, ys, ring).flatMap((i) => [xs[i], ys[i]]));
}
