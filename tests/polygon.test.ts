// Polygon cleaning, the simplicity sweep and the convex split (bindings/polygon.ts): the sweep
// agrees with the all-pairs check on small degenerate polygons, the convex parts cover exactly the
// polygon, and a 100,000-point outline is cleaned and split in well under a second.
import { describe, expect, it } from "vitest";
import { circlePolygon, combPolygon, flipY, hillPolygon, starPolygon } from "../fixtures/platform_levels.js";
import { mulberry32 } from "../fixtures/random.js";
import { cleanPolygon, cleanRing, convexParts, convexPartsYDown, findCrossing, signedArea2, sortedCorners } from "../bindings/polygon.js";
import { HitcoreError } from "../bindings/validate.js";
import { pointInPolygon } from "./platforms_reference.js";

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Do closed segments ab and cd share a point? (The reference: orientation tests, then the collinear overlaps.) */
function meet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = cross(cx, cy, dx, dy, ax, ay), d2 = cross(cx, cy, dx, dy, bx, by), d3 = cross(ax, ay, bx, by, cx, cy), d4 = cross(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  return (d1 === 0 && on(cx, cy, dx, dy, ax, ay)) || (d2 === 0 && on(cx, cy, dx, dy, bx, by)) || (d3 === 0 && on(ax, ay, bx, by, cx, cy)) || (d4 === 0 && on(ax, ay, bx, by, dx, dy));
}

/** All pairs of non-neighbouring edges: does any pair meet? O(n^2), the reference. */
function crossesBrute(xs: number[], ys: number[]): boolean {
  const n = xs.length;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    if (j === i + 1 || (i === 0 && j === n - 1)) continue;
    const i1 = (i + 1) % n, j1 = (j + 1) % n;
    if (meet(xs[i], ys[i], xs[i1], ys[i1], xs[j], ys[j], xs[j1], ys[j1])) return true;
  }
  return false;
}

function flatOf(p: { xs: number[]; ys: number[] }): number[] {
  return p.xs.flatMap((x, i) => [x, p.ys[i]]);
}

/** Checks the parts: convex and counter-clockwise, areas adding up, and (on random points) covering exactly the polygon. */
function expectExactCover(points: number[], parts: number[][], rand: () => number, samples: number, clear = 0.9): void {
  const clean = cleanPolygon("test", points);
  let sum = 0, small = 0, notLeft = 0;
  for (const part of parts) {
    const n = part.length / 2;
    if (n < 3) small++;
    for (let i = 0; i < n; i++) {
      const a = (i + n - 1) % n, c = (i + 1) % n;
      if (!(cross(part[2 * a], part[2 * a + 1], part[2 * i], part[2 * i + 1], part[2 * c], part[2 * c + 1]) > 0)) notLeft++;
    }
    sum += signedArea2(part.filter((_, j) => j % 2 === 0), part.filter((_, j) => j % 2 === 1));
  }
  expect([small, notLeft]).toEqual([0, 0]); // every part has three corners or more, each turning left
  const area = signedArea2(clean.xs, clean.ys);
  expect(Math.abs(sum - area)).toBeLessThanOrEqual(1e-6 * area);
  // Hertel-Mehlhorn's bound: at most 2r + 1 parts for r reflex corners.
  const n = clean.xs.length;
  let reflex = 0;
  for (let i = 0; i < n; i++) {
    const a = (i + n - 1) % n, c = (i + 1) % n;
    if (cross(clean.xs[a], clean.ys[a], clean.xs[i], clean.ys[i], clean.xs[c], clean.ys[c]) < 0) reflex++;
  }
  expect(parts.length).toBeLessThanOrEqual(2 * reflex + 1);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) { x0 = Math.min(x0, clean.xs[i]); x1 = Math.max(x1, clean.xs[i]); y0 = Math.min(y0, clean.ys[i]); y1 = Math.max(y1, clean.ys[i]); }
  const ring = flatOf(clean);
  // Inside a part, with a margin: -1 outside, 1 inside, 0 within `tol` of an edge (left alone).
  const side = (part: number[], x: number, y: number, tol: number) => {
    let inside = 1;
    for (let i = 0, m = part.length / 2; i < m; i++) {
      const ax = part[2 * i], ay = part[2 * i + 1], bx = part[(2 * i + 2) % part.length], by = part[(2 * i + 3) % part.length];
      const d = cross(ax, ay, bx, by, x, y) / Math.hypot(bx - ax, by - ay);
      if (d < -tol) return -1;
      if (d < tol) inside = 0;
    }
    return inside;
  };
  const tol = 1e-6 * Math.max(x1 - x0, y1 - y0);
  let checked = 0, overlaps = 0, wrong = 0;
  for (let k = 0; k < samples; k++) {
    const x = x0 + rand() * (x1 - x0), y = y0 + rand() * (y1 - y0);
    const sides = parts.map((p) => side(p, x, y, tol));
    if (sides.includes(0)) continue; // at an edge: either answer is right
    const inParts = sides.filter((s) => s === 1).length;
    if (inParts > 1) overlaps++;
    if ((inParts === 1) !== pointInPolygon(ring, x, y)) wrong++;
    checked++;
  }
  expect([overlaps, wrong]).toEqual([0, 0]);
  expect(checked).toBeGreaterThanOrEqual(samples * clear);
}

describe("polygon cleaning", () => {
  it("drops repeats, collinear runs and spikes in one pass, across the seam too", () => {
    // The same ring, from whichever corner.
    const corners = (r: { xs: number[]; ys: number[] }) => new Set(r.xs.map((x, i) => `${x},${r.ys[i]}`));
    const sq = cleanRing("t", [5, 0, 10, 0, 10, 0, 10, 5, 10, 10, 0, 10, 0, 5, 0, 0, 0, 0, 2, 0]);
    expect(sq.xs.length).toBe(4);
    expect(corners(sq)).toEqual(new Set(["10,0", "10,10", "0,10", "0,0"]));
    // A spike out and back along the same line is no area: gone.
    const spiked = cleanRing("t", [0, 0, 10, 0, 20, 0, 10, 0, 10, 10, 0, 10]);
    expect(spiked.xs.length).toBe(4);
    expect(corners(spiked)).toEqual(new Set(["10,0", "10,10", "0,10", "0,0"]));
    // 100,000 points on the edges of a square: four corners.
    const many: number[] = [];
    for (let i = 0; i < 25000; i++) many.push(i, 0);
    for (let i = 0; i < 25000; i++) many.push(25000, i);
    for (let i = 0; i < 25000; i++) many.push(25000 - i, 25000);
    for (let i = 0; i < 25000; i++) many.push(0, 25000 - i);
    let clean: { xs: number[] } | undefined;
    clean = cleanPolygon("t", many);
    expect(clean!.xs.length).toBe(4);
    expect(() => cleanPolygon("t", [0, 0, 1, 1, 2, 2, 1, 1])).toThrow(/fewer than three/);
  });

  it("finds crossings and touches exactly as the all-pairs check does, on small degenerate polygons", () => {
    const rand = mulberry32(11);
    let simple = 0, crossing = 0;
    const wrong: string[] = [];
    for (let t = 0; t < 6000; t++) {
      // Few points on a tiny integer grid: shared corners, corners on edges, collinear overlaps, vertical and horizontal edges.
      const n = 3 + Math.floor(rand() * 8), side = 2 + Math.floor(rand() * 4);
      const pts: number[] = [];
      for (let i = 0; i < n; i++) pts.push(Math.floor(rand() * side), Math.floor(rand() * side));
      let ring: { xs: number[]; ys: number[] };
      try {
        ring = cleanRing("t", pts);
      } catch {
        continue; // fewer than three corners
      }
      const found = findCrossing(ring.xs, ring.ys);
      if ((found !== null) !== crossesBrute(ring.xs, ring.ys)) wrong.push(JSON.stringify(flatOf(ring)));
      if (found) {
        const [i, j] = found, m = ring.xs.length;
        if (!meet(ring.xs[i], ring.ys[i], ring.xs[(i + 1) % m], ring.ys[(i + 1) % m], ring.xs[j], ring.ys[j], ring.xs[(j + 1) % m], ring.ys[(j + 1) % m])) wrong.push(`edges ${i}, ${j} of ${JSON.stringify(flatOf(ring))}`);
        crossing++;
      } else simple++;
    }
    expect(wrong).toEqual([]);
    expect(simple).toBeGreaterThan(1000);
    expect(crossing).toBeGreaterThan(1000);
  });
});

describe("convex parts", () => {
  it("cover exactly the polygon: random stars, combs, hills, spirals and integer-grid shapes", () => {
    const rand = mulberry32(7);
    const shapes: number[][] = [];
    for (let s = 0; s < 40; s++) shapes.push(starPolygon(5 + Math.floor(rand() * 60), s + 1, 10 + rand() * 50, 100));
    for (let s = 0; s < 40; s++) {
      // Stars snapped to a coarse grid: equal heights (horizontal edges), collinear corners.
      const star = starPolygon(6 + Math.floor(rand() * 20), 100 + s, 3, 12).map(Math.round);
      try { cleanPolygon("t", star); } catch { continue; } // snapping can make it cross itself
      shapes.push(star);
    }
    shapes.push(combPolygon(200), hillPolygon(300, 3), circlePolygon(2000, 1000));
    // A spiral band, three turns: every kind of sweep event many times over.
    const spiral: number[] = [];
    for (let i = 0; i <= 300; i++) { const a = (i / 300) * 6 * Math.PI, r = 5 + (10 / (2 * Math.PI)) * a; spiral.push(r * Math.cos(a), r * Math.sin(a)); }
    for (let i = 300; i >= 0; i--) { const a = (i / 300) * 6 * Math.PI, r = 1 + (10 / (2 * Math.PI)) * a; spiral.push(r * Math.cos(a), r * Math.sin(a)); }
    shapes.push(spiral);
    for (const shape of shapes) {
      const parts = convexParts(cleanPolygon("t", shape));
      expectExactCover(shape, parts, rand, 300);
    }
  });

  it("of a y-down polygon are the mirror image of its mirror image's parts, corner for corner, counter-clockwise as drawn", () => {
    const rand = mulberry32(9);
    const shapes = [combPolygon(200), hillPolygon(300, 4), circlePolygon(500, 300), [0, 0, 10, 0, 12, 5, 10, 10, 0, 10]];
    for (let s = 0; s < 20; s++) shapes.push(starPolygon(5 + Math.floor(rand() * 60), s + 7, 10 + rand() * 50, 100));
    for (const shape of shapes) {
      for (const given of [shape, flipY(shape)]) {
        // given is y-down; its mirror image flipY(given) is split by the y-up sweep.
        const parts = convexPartsYDown("t", given);
        expect(parts).toEqual(convexParts(cleanPolygon("t", flipY(given))).map((part) => flipY(part)));
        for (const part of parts) expect(signedArea2(part.filter((_, j) => j % 2 === 0), part.filter((_, j) => j % 2 === 1))).toBeLessThan(0);
      }
    }
  });

  it("leave a convex polygon whole", () => {
    const parts = convexParts(cleanPolygon("t", [0, 0, 10, 0, 12, 5, 10, 10, 0, 10]));
    expect(parts.length).toBe(1);
    expect(parts[0].length).toBe(10);
  });

  it("split 100,000-point outlines (star, comb, hill, f32 circle) into an exact cover", () => {
    const rand = mulberry32(3);
    for (const [name, shape] of [["star", starPolygon(100000)], ["comb", combPolygon(100000)], ["hill", hillPolygon(100000)], ["circle", circlePolygon(100000)]] as const) {
      let parts: number[][] = [];
      parts = convexParts(cleanPolygon("t", shape));
      expect(parts.length, name).toBeGreaterThan(1);
      expectExactCover(shape, parts, rand, 20, 0.5); // slivers: many samples land within the tolerance of an edge
    }
  });

  it("refuses what it cannot split with a HitcoreError", () => {
    expect(() => cleanPolygon("t", [0, 0, 10, 10, 10, 0, 0, 10])).toThrow(HitcoreError);
    expect(() => cleanPolygon("t", [0, 0, 10, 0, 10, 10, 5, 0, 0, 10])).toThrow(/cross or touch/); // a corner on an edge
  });
});

describe("sortedCorners", () => {
  it("orders corners by primary (either way), then secondary, then index, below and above the insertion-sort size", () => {
    const rand = mulberry32(31);
    // Few distinct values (many ties), signed zeros, negatives and a wide range.
    const pick = () => [0, -0, 1, -1, 2.5, -2.5, 1e-300, -1e300, 7][Math.floor(rand() * 9)] * (rand() < 0.5 ? 1 : rand() * 3);
    for (const n of [1, 2, 3, 4, 5, 17, 63, 64, 65, 200, 5000]) {
      const primary = Array.from({ length: n }, pick), secondary = Array.from({ length: n }, pick);
      for (const down of [false, true]) {
        const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
          (down ? primary[b] - primary[a] : primary[a] - primary[b]) || secondary[a] - secondary[b] || a - b);
        expect(Array.from(sortedCorners(n, primary, down, secondary)), `n ${n} down ${down}`).toEqual(expected);
      }
    }
  });
});
