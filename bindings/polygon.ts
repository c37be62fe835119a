// Load-time polygon work for the platforms part, shared by both backends (plain TS, no dependency:
// the browser entry loads unbundled): cleaning and validating vertex lists, and splitting
// non-convex polygons into convex parts. Never runs per frame, but a level editor's smooth hill
// has tens of thousands of points and a map file may be hostile, so every step is O(n log n):
//   - cleaning (repeated points, collinear runs, spikes that double back) is one stack pass;
//   - the simplicity check is a Shamos-Hoey sweep over a treap of the edges the line crosses;
//   - triangulation is the textbook sweep (de Berg et al., ch. 3): split into y-monotone pieces
//     with the same treap, then each piece by the linear stack walk down its two chains;
//   - the convex merge is Hertel-Mehlhorn over a half-edge mesh of the triangles: drop each
//     diagonal whose two sides still form a convex polygon (checked at its two ends only), at
//     most 4x the optimal number of parts.
// Not earcut: it is the usual library and quick on building footprints, but each candidate ear
// scans every corner in the z-order range of its box, and on a round outline its ears fan out
// across the polygon, so it measured O(n^2): 2.0 s for a 20,000-point circle, 3.6 s for a
// 40,000-point star, 16 s for a 100,000-point comb, 45 s for a 100,000-point star (earcut 3.2.4,
// Node 20), where this sweep takes well under a second for each.
import { coordOk, describe, HitcoreError, MAX_COORD } from "./validate.js";

function fail(code: string, message: string): never {
  throw new HitcoreError(code, message);
}

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Twice the signed area (positive: counter-clockwise with y up, clockwise as drawn with y down). */
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
 * `mirrorY` reads every y negated (see convexPartsYDown). O(n log n).
 */
export function cleanPolygon(method: string, points: ArrayLike<number>, mirrorY = false): CleanPolygon {
  let { xs, ys } = cleanRing(method, points, mirrorY);
  const crossing = findCrossing(xs, ys);
  if (crossing !== null) {
    fail("SELF_INTERSECTING", `${method}: edges ${crossing[0]} and ${crossing[1]} of the polygon cross or touch. List the outline once, without crossings; split a figure-eight into two polygons.`);
  }
  const area = signedArea2(xs, ys);
  if (!(Math.abs(area) > 0)) fail("DEGENERATE_POLYGON", `${method}: the polygon encloses no area. Give corners that enclose an area.`);
  if (area < 0) { xs = xs.reverse(); ys = ys.reverse(); }
  return { xs, ys };
}

/**
 * cleanPolygon's linear first half: the checked, f32-rounded ring without repeated points or
 * straight corners, in the winding given, not yet checked for crossings. `mirrorY` reads every y
 * negated (after the checks, so messages quote the values given).
 */
export function cleanRing(method: string, points: ArrayLike<number>, mirrorY = false): CleanPolygon {
  if (points === null || typeof points !== "object" || typeof points.length !== "number") {
    fail("INVALID_POLYGON", `${method}: points must be a flat array [x0, y0, x1, y1, ...], got ${describe(points)}.`);
  }
  if (points.length % 2 !== 0) {
    fail("INVALID_POLYGON", `${method}: points must hold x, y pairs, got an odd length ${points.length}. Pass [x0, y0, x1, y1, ...].`);
  }
  for (let i = 0; i < points.length; i++) {
    const v = points[i];
    if (!coordOk(v)) {
      fail("INVALID_NUMBER", `${method}: coordinate ${i} must be a finite number of magnitude at most ${MAX_COORD} (as an f32, as stored), got ${describe(v)}. Check the vertex list for NaN or Infinity.`);
    }
  }
  // One stack pass: a point joins only if it turns off the line of the two before it, and popping
  // a straight (or doubling-back) corner can only make the corner below it straight, so every
  // consecutive triple on the stack turns. Coordinates are stored as f32: clean what will be stored.
  let xs: number[] = [], ys: number[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const x = Math.fround(points[i]) + 0, y = Math.fround(mirrorY ? -points[i + 1] : points[i + 1]) + 0; // + 0: no -0 to order apart from 0
    let n = xs.length;
    if (n > 0 && xs[n - 1] === x && ys[n - 1] === y) continue; // zero-length edge
    while (n >= 2 && cross(xs[n - 2], ys[n - 2], xs[n - 1], ys[n - 1], x, y) === 0) { xs.pop(); ys.pop(); n--; }
    xs.push(x);
    ys.push(y);
  }
  // The seam: the corners at the last and the first point, until both turn (each step drops one).
  let head = 0, tail = xs.length - 1;
  for (let changed = true; changed && tail - head >= 2;) {
    changed = false;
    if (cross(xs[tail - 1], ys[tail - 1], xs[tail], ys[tail], xs[head], ys[head]) === 0) { tail--; changed = true; }
    if (tail - head >= 2 && cross(xs[tail], ys[tail], xs[head], ys[head], xs[head + 1], ys[head + 1]) === 0) { head++; changed = true; }
  }
  if (tail - head < 2) {
    fail("DEGENERATE_POLYGON", `${method}: the polygon has fewer than three distinct, non-collinear corners (${points.length / 2} points given). Give at least three corners that enclose an area.`);
  }
  if (head > 0 || tail < xs.length - 1) { xs = xs.slice(head, tail + 1); ys = ys.slice(head, tail + 1); }
  return { xs, ys };
}

/**
 * An ordered set of edges (ids 0..n-1) for the sweeps: a treap with parent links, so an edge is
 * removed and its neighbours found by id alone, without comparing (the order of two edges is only
 * defined where the sweep line is). Callers descend from `root` with their own comparison and
 * attach with `insert`. Priorities come from a fixed LCG: the same shape every run.
 */
class EdgeTreap {
  root = -1;
  readonly left: Int32Array;
  readonly right: Int32Array;
  private readonly parent: Int32Array;
  private readonly priority: Int32Array;

  constructor(n: number) {
    this.left = new Int32Array(n).fill(-1);
    this.right = new Int32Array(n).fill(-1);
    this.parent = new Int32Array(n).fill(-1);
    this.priority = new Int32Array(n);
    let seed = 0x2545f491;
    for (let e = 0; e < n; e++) { seed = (Math.imul(seed, 1664525) + 1013904223) | 0; this.priority[e] = seed; }
  }

  /** Attaches e as the left or right child of the leaf position `at` (-1: the empty tree), then restores the heap order. */
  insert(e: number, at: number, asLeft: boolean): void {
    this.parent[e] = at;
    if (at < 0) this.root = e; else if (asLeft) this.left[at] = e; else this.right[at] = e;
    while (this.parent[e] >= 0 && this.priority[this.parent[e]] < this.priority[e]) this.rotateUp(e);
  }

  remove(e: number): void {
    const { left, right, priority } = this;
    while (left[e] >= 0 && right[e] >= 0) this.rotateUp(priority[left[e]] > priority[right[e]] ? left[e] : right[e]);
    this.replace(this.parent[e], e, left[e] >= 0 ? left[e] : right[e]);
    left[e] = right[e] = this.parent[e] = -1;
  }

  /** The edge just before e in the order, or -1. */
  before(e: number): number {
    const { left, right, parent } = this;
    if (left[e] >= 0) { e = left[e]; while (right[e] >= 0) e = right[e]; return e; }
    while (parent[e] >= 0 && left[parent[e]] === e) e = parent[e];
    return parent[e];
  }

  /** The edge just after e in the order, or -1. */
  after(e: number): number {
    const { left, right, parent } = this;
    if (right[e] >= 0) { e = right[e]; while (left[e] >= 0) e = left[e]; return e; }
    while (parent[e] >= 0 && right[parent[e]] === e) e = parent[e];
    return parent[e];
  }

  private replace(p: number, old: number, child: number): void {
    if (p < 0) this.root = child; else if (this.left[p] === old) this.left[p] = child; else this.right[p] = child;
    if (child >= 0) this.parent[child] = p;
  }

  /** Rotates x above its parent. */
  private rotateUp(x: number): void {
    const { left, right, parent } = this;
    const p = parent[x], g = parent[p];
    if (left[p] === x) {
      const b = right[x];
      left[p] = b; if (b >= 0) parent[b] = p;
      right[x] = p;
    } else {
      const b = left[x];
      right[p] = b; if (b >= 0) parent[b] = p;
      left[x] = p;
    }
    parent[p] = x;
    this.replace(g, p, x);
  }
}

/**
 * The first pair of non-neighbouring edges (edge i runs from corner i to corner i + 1) that cross
 * or touch, smaller index first, or null for a simple polygon. Shamos-Hoey: corners in (x, y)
 * order are the events; the edges the sweep line crosses are kept ordered bottom to top, and only
 * edges that become neighbours there are tested, since two edges meeting first at some point are
 * neighbours (or separated only by others meeting there) just before it. A corner listed twice is
 * a touch found in the sort; after that, every event point belongs to exactly its two edges, so an
 * edge sharing the new edge's left end is its neighbour on the outline and any other edge through
 * that point touches it. O(n log n).
 */
export function findCrossing(xs: ArrayLike<number>, ys: ArrayLike<number>): [number, number] | null {
  const n = xs.length;
  const order = sortedCorners(n, xs, false, ys);
  const pair = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);
  for (let k = 1; k < n; k++) {
    const a = order[k - 1], b = order[k];
    if (xs[a] === xs[b] && ys[a] === ys[b]) return pair(a, b);
  }
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) rank[order[k]] = k;
  // Edge e's left (earlier) and right end.
  const lo = new Int32Array(n), hi = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    const f = e + 1 === n ? 0 : e + 1;
    if (rank[e] < rank[f]) { lo[e] = e; hi[e] = f; } else { lo[e] = f; hi[e] = e; }
  }
  const neighbours = (a: number, b: number) => a === b + 1 || b === a + 1 || (a === 0 && b === n - 1) || (b === 0 && a === n - 1);
  const meet = (a: number, b: number) => a >= 0 && b >= 0 && !neighbours(a, b)
    && segmentsMeet(xs[lo[a]], ys[lo[a]], xs[hi[a]], ys[hi[a]], xs[lo[b]], ys[lo[b]], xs[hi[b]], ys[hi[b]]);
  const status = new EdgeTreap(n);
  for (let k = 0; k < n; k++) {
    const v = order[k];
    const e0 = v === 0 ? n - 1 : v - 1, e1 = v; // the two edges at corner v
    // Edges ending here leave first: their old neighbours become neighbours.
    for (let j = 0; j < 2; j++) {
      const e = j === 0 ? e0 : e1;
      if (hi[e] !== v) continue;
      const below = status.before(e), above = status.after(e);
      status.remove(e);
      if (meet(below, above)) return pair(below, above);
    }
    for (let j = 0; j < 2; j++) {
      const e = j === 0 ? e0 : e1;
      if (lo[e] !== v) continue;
      const px = xs[v], py = ys[v], rx = xs[hi[e]], ry = ys[hi[e]];
      // Descend: is e above edge s where the sweep line is?
      let at = -1, s = status.root, asLeft = false;
      while (s >= 0) {
        let side: number;
        if (lo[s] === v) side = cross(px, py, xs[hi[s]], ys[hi[s]], rx, ry); // the other edge of this corner: by slope
        else {
          side = cross(xs[lo[s]], ys[lo[s]], xs[hi[s]], ys[hi[s]], px, py);
          if (side === 0) return pair(e, s); // the corner lies on s
        }
        at = s;
        asLeft = side < 0;
        s = asLeft ? status.left[s] : status.right[s];
      }
      status.insert(e, at, asLeft);
      const below = status.before(e), above = status.after(e);
      if (meet(e, below)) return pair(e, below);
      if (meet(e, above)) return pair(e, above);
    }
  }
  return null;
}

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer); // [low, high] on every engine that runs wasm (little-endian)

/** Corners up to which sortedCorners sorts by insertion: a radix pass costs 65,536 counters. */
const FEW_CORNERS = 64;

/**
 * Corner indices 0..n-1 sorted by `primary` (descending if `down`), ties by `secondary`
 * ascending, then by index. Up to FEW_CORNERS an insertion sort; above, an LSD radix sort over the
 * doubles' bits, 16 at a time (a comparison sort through a callback took a fifth of a
 * 100,000-point split). Digits every key shares are skipped, so f32 coordinates cost about four
 * passes. Exported for its test.
 */
export function sortedCorners(n: number, primary: ArrayLike<number>, down: boolean, secondary: ArrayLike<number>): Int32Array {
  if (n <= FEW_CORNERS) return fewSorted(n, primary, down, secondary);
  let order = new Int32Array(n), spare = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const words = new Uint32Array(n);
  const count = new Int32Array(65537);
  // Least significant first: the secondary key's low and high words, then the primary's.
  for (let pass = 0; pass < 4; pass++) {
    const values = pass < 2 ? secondary : primary, flip = pass >= 2 && down, high = (pass & 1) === 1;
    for (let i = 0; i < n; i++) {
      f64[0] = values[i] + 0;
      let hi = f64Words[1], lo = f64Words[0];
      // Order-preserving as unsigned: negatives flip every bit, positives the sign bit.
      if (hi & 0x80000000) { hi = ~hi >>> 0; lo = ~lo >>> 0; } else hi = (hi | 0x80000000) >>> 0;
      const w = high ? hi : lo;
      words[i] = flip ? ~w >>> 0 : w;
    }
    for (let shift = 0; shift < 32; shift += 16) {
      count.fill(0);
      for (let i = 0; i < n; i++) count[((words[order[i]] >>> shift) & 0xffff) + 1]++;
      if (count[((words[order[0]] >>> shift) & 0xffff) + 1] === n) continue; // one digit for all: nothing to move
      for (let d = 0; d < 65536; d++) count[d + 1] += count[d];
      for (let i = 0; i < n; i++) { const c = order[i]; spare[count[(words[c] >>> shift) & 0xffff]++] = c; }
      const t = order; order = spare; spare = t;
    }
  }
  return order;
}

/** sortedCorners' order by insertion (stable, so equal keys keep their index order). */
function fewSorted(n: number, primary: ArrayLike<number>, down: boolean, secondary: ArrayLike<number>): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = primary[i], q = secondary[i];
    let j = i;
    for (; j > 0; j--) {
      const c = order[j - 1], pc = primary[c];
      if (!(down ? pc < p : pc > p) && !(pc === p && secondary[c] > q)) break;
      order[j] = c;
    }
    order[j] = i;
  }
  return order;
}

/** Is the counter-clockwise ring convex (every turn left or straight)? */
function convex(xs: number[], ys: number[]): boolean {
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    const a = i === 0 ? n - 1 : i - 1, c = i + 1 === n ? 0 : i + 1;
    if (cross(xs[a], ys[a], xs[i], ys[i], xs[c], ys[c]) < 0) return false;
  }
  return true;
}

/**
 * Convex parts of a cleaned counter-clockwise polygon, each a flat counter-clockwise vertex list
 * without straight corners. A convex polygon comes back whole. O(n log n).
 */
export function convexParts(poly: CleanPolygon): number[][] {
  const { xs, ys } = poly;
  if (convex(xs, ys)) return [flat(xs, ys, Int32Array.from(xs.keys()))];
  const tri = triangulate(xs, ys);
  // The triangles must cover the polygon: a sweep fed a polygon that only just passes the
  // simplicity check (edges closer than rounding) could leave a part out.
  const n = xs.length, ox = xs[0], oy = ys[0];
  let covered = 0, area = 0;
  for (let t = 0; t < tri.length; t += 3) {
    const a = tri[t], b = tri[t + 1], c = tri[t + 2];
    const c2 = cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]);
    if (c2 < 0) { tri[t + 1] = c; tri[t + 2] = b; } // counter-clockwise, as the merge expects
    covered += Math.abs(c2);
  }
  for (let i = 0, j = n - 1; i < n; j = i++) area += (xs[j] - ox) * (ys[i] - oy) - (xs[i] - ox) * (ys[j] - oy); // about a corner: no cancellation far from the origin
  if (tri.length !== 3 * (n - 2) || !(Math.abs(covered - area) <= 1e-9 * area)) {
    fail("DEGENERATE_POLYGON", "the polygon could not be split into convex parts (nearly touching edges). Simplify the outline or split it yourself.");
  }
  const parts: number[][] = [];
  for (const ring of mergeConvex(xs, ys, tri)) {
    const part = flat(xs, ys, ring);
    if (part.length >= 6) parts.push(part); // a sliver of collinear corners covers nothing
  }
  return parts;
}

/**
 * Convex parts of a polygon given in y-down coordinates (the platforms' frame) as a flat vertex
 * list of either winding, each part a flat list running counter-clockwise as drawn on a y-down
 * screen (a negative signedArea2) without straight corners. The sweeps above work in the y-up
 * sense (their "above" is greater y), so the polygon goes through them as its mirror image (y
 * negated as it is read, which is exact) and its parts come back mirrored: a polygon and its
 * mirror image are split into mirror-image parts, corner for corner. O(n log n).
 */
export function convexPartsYDown(method: string, points: ArrayLike<number>): number[][] {
  const parts = convexParts(cleanPolygon(method, points, true));
  for (const part of parts) for (let i = 1; i < part.length; i += 2) part[i] = 0 - part[i]; // 0 - y: exact, and no -0
  return parts;
}

/**
 * Triangles (counter-clockwise index triples, flat) of a simple counter-clockwise polygon without
 * straight corners. "Above" is (y, then -x) order, which makes every corner distinct in height.
 * The sweep goes down the corners, keeping the edges with the inside on their right (east) in a
 * treap by x, each with a helper corner; split and merge corners get a diagonal to a helper, which
 * cuts the polygon into y-monotone pieces (de Berg et al., Computational Geometry, ch. 3), and the
 * pieces are triangulated by a stack walk down their two chains.
 */
function triangulate(xs: number[], ys: number[]): number[] {
  const n = xs.length;
  const above = (a: number, b: number) => ys[a] > ys[b] || (ys[a] === ys[b] && xs[a] < xs[b]);
  const order = sortedCorners(n, ys, true, xs);
  const prevOf = (v: number) => (v === 0 ? n - 1 : v - 1), nextOf = (v: number) => (v + 1 === n ? 0 : v + 1);
  const merge = new Uint8Array(n);
  const helper = new Int32Array(n);
  const status = new EdgeTreap(n); // edge i runs from corner i down to corner i + 1
  const diagonals: number[] = [];
  // v is east of edge e (which runs down from e to e + 1).
  const eastOf = (e: number, v: number) => cross(xs[e], ys[e], xs[nextOf(e)], ys[nextOf(e)], xs[v], ys[v]) > 0;
  const edgeWestOf = (v: number) => {
    let best = -1;
    for (let s = status.root; s >= 0;) {
      if (eastOf(s, v)) { best = s; s = status.right[s]; } else s = status.left[s];
    }
    if (best < 0) fail("DEGENERATE_POLYGON", "the polygon could not be split into convex parts (nearly touching edges). Simplify the outline or split it yourself.");
    return best;
  };
  const insert = (e: number) => {
    let at = -1, asLeft = false;
    for (let s = status.root; s >= 0;) { at = s; asLeft = !eastOf(s, e); s = asLeft ? status.left[s] : status.right[s]; }
    status.insert(e, at, asLeft);
    helper[e] = e;
  };
  const fixUp = (e: number, v: number) => { if (merge[helper[e]]) diagonals.push(v, helper[e]); };
  for (let k = 0; k < n; k++) {
    const v = order[k], p = prevOf(v), q = nextOf(v);
    const pBelow = above(v, p), qBelow = above(v, q);
    const reflex = cross(xs[p], ys[p], xs[v], ys[v], xs[q], ys[q]) < 0;
    if (pBelow && qBelow) {
      if (reflex) { // split: connect to the helper of the edge west of it
        const w = edgeWestOf(v);
        diagonals.push(v, helper[w]);
        helper[w] = v;
      }
      insert(v); // start or split: edge v runs down from here with the inside east of it
    } else if (!pBelow && !qBelow) {
      fixUp(p, v); // end or merge: edge p ends here
      status.remove(p);
      if (reflex) { // merge
        const w = edgeWestOf(v);
        fixUp(w, v);
        helper[w] = v;
        merge[v] = 1;
      }
    } else if (!pBelow) { // regular, going down: the inside is east
      fixUp(p, v);
      status.remove(p);
      insert(v);
    } else { // regular, going up: the inside is west
      const w = edgeWestOf(v);
      fixUp(w, v);
      helper[w] = v;
    }
  }
  return triangulatePieces(xs, ys, diagonals, above);
}

/**
 * Splits the polygon along the diagonals into faces (around each corner its neighbours sorted
 * counter-clockwise; a face turns to the neighbour just clockwise of where it came from) and
 * triangulates each y-monotone face by the stack walk.
 */
function triangulatePieces(xs: number[], ys: number[], diagonals: number[], above: (a: number, b: number) => boolean): number[] {
  const n = xs.length;
  // Undirected edges: the outline (edge v joins v and v + 1), then the diagonals.
  const edges = n + diagonals.length / 2;
  const endA = new Int32Array(edges), endB = new Int32Array(edges);
  for (let v = 0; v < n; v++) { endA[v] = v; endB[v] = v + 1 === n ? 0 : v + 1; }
  for (let d = 0; d < diagonals.length; d += 2) { endA[n + d / 2] = diagonals[d]; endB[n + d / 2] = diagonals[d + 1]; }
  // Around each corner (CSR), its edges by direction counter-clockwise: the upper half-plane first
  // (from +x), then the lower, by cross product within a half. A half-edge is a slot: corner
  // owner[s] to corner to[s] along edge edgeOf[s].
  const start = new Int32Array(n + 1);
  for (let k = 0; k < edges; k++) { start[endA[k] + 1]++; start[endB[k] + 1]++; }
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const slots = start[n];
  const fill = start.slice(0, n), edgeOf = new Int32Array(slots), to = new Int32Array(slots), owner = new Int32Array(slots);
  for (let k = 0; k < edges; k++) {
    const a = endA[k], b = endB[k];
    edgeOf[fill[a]] = k; to[fill[a]] = b; owner[fill[a]++] = a;
    edgeOf[fill[b]] = k; to[fill[b]] = a; owner[fill[b]++] = b;
  }
  for (let v = 0; v < n; v++) {
    if (start[v + 1] - start[v] === 2) continue; // two directions: either order is a cycle
    const half = (w: number) => (ys[w] > ys[v] || (ys[w] === ys[v] && xs[w] > xs[v]) ? 0 : 1);
    const list = Array.from(edgeOf.subarray(start[v], start[v + 1]));
    const other = (k: number) => (endA[k] === v ? endB[k] : endA[k]);
    list.sort((a, b) => half(other(a)) - half(other(b)) || -cross(xs[v], ys[v], xs[other(a)], ys[other(a)], xs[other(b)], ys[other(b)]));
    for (let i = 0; i < list.length; i++) { edgeOf[start[v] + i] = list[i]; to[start[v] + i] = other(list[i]); }
  }
  // Each edge's two slots: at its end A and at its end B.
  const slotAtA = new Int32Array(edges), slotAtB = new Int32Array(edges);
  for (let s = 0; s < slots; s++) { if (owner[s] === endA[edgeOf[s]]) slotAtA[edgeOf[s]] = s; else slotAtB[edgeOf[s]] = s; }
  const twin = (s: number) => (owner[s] === endA[edgeOf[s]] ? slotAtB[edgeOf[s]] : slotAtA[edgeOf[s]]);
  const used = new Uint8Array(slots);
  // The outline's clockwise half-edges (v + 1 -> v, at end B of edge v) bound the outside: never a face.
  for (let v = 0; v < n; v++) used[slotAtB[v]] = 1;
  const tris: number[] = [];
  const face: number[] = [];
  for (let h = 0; h < slots; h++) {
    if (used[h]) continue;
    face.length = 0;
    for (let g = h; !used[g];) {
      used[g] = 1;
      face.push(owner[g]);
      const back = twin(g), w = owner[back]; // w -> back where we came from, then one step clockwise around w
      g = back === start[w] ? start[w + 1] - 1 : back - 1;
    }
    triangulateMonotone(xs, ys, face, above, tris);
  }
  return tris;
}

/** Triangulates a y-monotone counter-clockwise face (corner ids) by the stack walk, appending to `tris`. */
function triangulateMonotone(xs: number[], ys: number[], face: number[], above: (a: number, b: number) => boolean, tris: number[]): void {
  const m = face.length;
  if (m === 3) { tris.push(face[0], face[1], face[2]); return; }
  let top = 0, bottom = 0;
  for (let i = 1; i < m; i++) {
    if (above(face[i], face[top])) top = i;
    if (above(face[bottom], face[i])) bottom = i;
  }
  // Counter-clockwise from the top runs down the west chain, clockwise down the east one: merge
  // the two chains into one downward order, the bottom last.
  const sorted: number[] = [face[top]], west: boolean[] = [true];
  let w = (top + 1) % m, e = (top + m - 1) % m;
  while (w !== bottom || e !== bottom) {
    if (e === bottom || (w !== bottom && above(face[w], face[e]))) { sorted.push(face[w]); west.push(true); w = (w + 1) % m; }
    else { sorted.push(face[e]); west.push(false); e = (e + m - 1) % m; }
  }
  sorted.push(face[bottom]); west.push(true);
  const stack: number[] = [0, 1];
  const turn = (a: number, b: number, c: number) => cross(xs[sorted[a]], ys[sorted[a]], xs[sorted[b]], ys[sorted[b]], xs[sorted[c]], ys[sorted[c]]);
  for (let j = 2; j < m - 1; j++) {
    const t = stack[stack.length - 1];
    if (west[j] !== west[t]) {
      // Across: fan from j over the whole stack.
      for (let i = 0; i + 1 < stack.length; i++) tris.push(sorted[j], sorted[stack[i]], sorted[stack[i + 1]]);
      stack.length = 0;
      stack.push(t, j);
    } else {
      // Same chain: cut off corners while the diagonal from j stays inside.
      let last = stack.pop()!;
      while (stack.length > 0) {
        const s = stack[stack.length - 1], c = turn(j, last, s);
        if (west[j] ? c >= 0 : c <= 0) break;
        tris.push(sorted[j], sorted[last], sorted[s]);
        last = stack.pop()!;
      }
      stack.push(last, j);
    }
  }
  for (let i = 0; i + 1 < stack.length; i++) tris.push(sorted[m - 1], sorted[stack[i]], sorted[stack[i + 1]]);
}

/**
 * Hertel-Mehlhorn on a half-edge mesh of the triangles: half-edge h = 3t + k runs from corner
 * tri[h] to the next corner of triangle t; a diagonal is a half-edge with a twin. Removing one
 * joins two convex faces, and the union is convex exactly when the corners at the diagonal's two
 * ends still turn left (or go straight), so each diagonal costs O(1).
 */
function mergeConvex(xs: number[], ys: number[], tri: number[]): Int32Array[] {
  const m = tri.length, n = xs.length;
  const next = new Int32Array(m), prev = new Int32Array(m), twin = new Int32Array(m).fill(-1);
  const alive = new Uint8Array(m).fill(1);
  for (let h = 0; h < m; h++) {
    const base = h - (h % 3);
    next[h] = base + ((h % 3) + 1) % 3;
    prev[h] = base + ((h % 3) + 2) % 3;
  }
  // Twins: half-edges sorted by (lower corner, higher corner) with two counting sorts (linear);
  // an interior edge's two half-edges then sit side by side.
  const lowEnd = (h: number) => Math.min(tri[h], tri[next[h]]), highEnd = (h: number) => Math.max(tri[h], tri[next[h]]);
  const byHigh = countingSort(m, n, highEnd, null), byBoth = countingSort(m, n, lowEnd, byHigh);
  for (let k = 1; k < m; k++) {
    const a = byBoth[k - 1], b = byBoth[k];
    if (lowEnd(a) === lowEnd(b) && highEnd(a) === highEnd(b)) { twin[a] = b; twin[b] = a; }
  }
  const turns = (a: number, b: number, c: number) => cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) >= 0;
  for (let h = 0; h < m; h++) {
    const t = twin[h];
    if (t < h) continue; // boundary edge, or a diagonal seen from its other side
    // h runs u -> v in one face, t runs v -> u in the other; joined, u sits between prev[h]'s
    // start and next[t]'s end, v between prev[t]'s start and next[h]'s end.
    const u = tri[h], v = tri[t];
    if (!turns(tri[prev[h]], u, tri[next[next[t]]]) || !turns(tri[prev[t]], v, tri[next[next[h]]])) continue;
    next[prev[h]] = next[t]; prev[next[t]] = prev[h];
    next[prev[t]] = next[h]; prev[next[h]] = prev[t];
    alive[h] = alive[t] = 0;
  }
  const rings: Int32Array[] = [];
  const seen = new Uint8Array(m);
  const ring: number[] = [];
  for (let h = 0; h < m; h++) {
    if (!alive[h] || seen[h]) continue;
    ring.length = 0;
    for (let g = h; !seen[g]; g = next[g]) { seen[g] = 1; ring.push(tri[g]); }
    rings.push(Int32Array.from(ring));
  }
  return rings;
}

/** Items 0..m-1 (or `items` in their order) stably sorted by an integer key in [0, n). */
function countingSort(m: number, n: number, key: (item: number) => number, items: Int32Array | null): Int32Array {
  const count = new Int32Array(n + 1);
  for (let i = 0; i < m; i++) count[key(items ? items[i] : i) + 1]++;
  for (let k = 0; k < n; k++) count[k + 1] += count[k];
  const out = new Int32Array(m);
  for (let i = 0; i < m; i++) { const item = items ? items[i] : i; out[count[key(item)]++] = item; }
  return out;
}

/** The ring's corners as a flat vertex list, straight corners (left by a merge) dropped. */
function flat(xs: number[], ys: number[], ring: Int32Array): number[] {
  const out: number[] = [];
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[i === 0 ? n - 1 : i - 1], b = ring[i], c = ring[i + 1 === n ? 0 : i + 1];
    if (cross(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) !== 0) out.push(xs[b], ys[b]);
  }
  return out;
}
