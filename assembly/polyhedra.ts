// Convex polyhedra of "Hit Detection with Polyhedra" (seed 001): each is a list of halfspaces
// n . x <= offset (unit outward normals), stored in one halfspace array with per-polyhedron starts.
// A ball of radius r is inside when n . p - offset - r <= 0 for every halfspace (the seed's point
// test with every face moved out by r); it is then pushed out along the nearest face and loses the
// velocity component into it: the seed's `deflect`, folded over all polyhedra (`foldr`: highest id
// first). Unbounded polyhedra (the ground as one halfspace) are allowed. Layout:
// layout/platforms.ts; mirrored in bindings/baseline/platforms.ts.
import { HIT_POLYHEDRON, HS_STRIDE, P_HALFSPACES, P_POLY_CELLS, P_POLY_EXTENT, P_POLY_ITEMS, P_POLY_START } from "../layout/platforms.ts";
import { ballVX, ballVY, ballX, ballY, cellAt, countCandidate, countContact, ph, setBall } from "./platform_grid.ts";
import { offerHit } from "./surfaces.ts";

const REC = HS_STRIDE << 2;

/** Point-in-polyhedron for a ball: every face moved out by r; exits at the first face it is beyond. */
export function insidePolyhedron(k: i32, px: f64, py: f64, r: f64): bool {
  const starts = ph(P_POLY_START);
  const end = load<i32>(starts + (k << 2), 4);
  let h = ph(P_HALFSPACES) + load<i32>(starts + (k << 2)) * REC;
  const last = ph(P_HALFSPACES) + end * REC;
  for (; h < last; h += REC) {
    if (px * <f64>load<f32>(h) + py * <f64>load<f32>(h, 4) - <f64>load<f32>(h, 8) - r > 0) return false;
  }
  return true;
}

/** The seed's `deflect` for polyhedron k: true when the ball was inside (and so was pushed out). */
function deflectPolyhedron(k: i32, r: f64): bool {
  const starts = ph(P_POLY_START);
  let h = ph(P_HALFSPACES) + load<i32>(starts + (k << 2)) * REC;
  const last = ph(P_HALFSPACES) + load<i32>(starts + (k << 2), 4) * REC;
  if (h >= last) return false;
  const px = ballX, py = ballY;
  let best = -Infinity;
  let bx: f64 = 0, by: f64 = 0;
  for (; h < last; h += REC) {
    const nx = <f64>load<f32>(h), ny = <f64>load<f32>(h, 4);
    const dist = px * nx + py * ny - <f64>load<f32>(h, 8) - r;
    if (dist > 0) return false; // early exit: outside this face
    // maximumBy keeps the last of equal maxima.
    if (dist >= best) { best = dist; bx = nx; by = ny; }
  }
  countContact();
  const vn = bx * ballVX + by * ballVY;
  const vx = vn <= 0 ? ballVX - vn * bx : ballVX;
  const vy = vn <= 0 ? ballVY - vn * by : ballVY;
  setBall(px - best * bx, py - best * by, vx, vy);
  return true;
}

/**
 * Folds every polyhedron over the ball, highest id first, as the seed's `multideflect`. Only
 * polyhedra listed in the ball's cell can contain it; after a push-out moves the ball to another
 * cell, the fold continues in that cell's list below the current id, so the result equals the
 * fold over all polyhedra.
 */
export function foldPolyhedra(r: f64): void {
  const starts = ph(P_POLY_CELLS), items = ph(P_POLY_ITEMS);
  let cell = cellAt(ballX, ballY);
  let s0 = load<i32>(starts + (cell << 2));
  let j = load<i32>(starts + (cell << 2), 4) - 1;
  while (j >= s0) {
    const k = load<i32>(items + (j << 2));
    countCandidate();
    if (deflectPolyhedron(k, r)) {
      const moved = cellAt(ballX, ballY);
      if (moved != cell) {
        cell = moved;
        s0 = load<i32>(starts + (cell << 2));
        // First entry >= k in the new cell's ascending list; continue just below it.
        let lo = s0, hi = load<i32>(starts + (cell << 2), 4);
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (load<i32>(items + (mid << 2)) < k) lo = mid + 1;
          else hi = mid;
        }
        j = lo - 1;
        continue;
      }
    }
    j--;
  }
}

/**
 * First contact of a circle of radius r moving from p by d (t in [0, 1]) with polyhedron k (faces
 * moved out by r): Cyrus-Beck clipping. A start already inside is not a hit.
 */
export function castPolyhedron(k: i32, px: f64, py: f64, dx: f64, dy: f64, r: f64): void {
  const starts = ph(P_POLY_START);
  let h = ph(P_HALFSPACES) + load<i32>(starts + (k << 2)) * REC;
  const last = ph(P_HALFSPACES) + load<i32>(starts + (k << 2), 4) * REC;
  let tIn = -Infinity, tOut = Infinity;
  let fx: f64 = 0, fy: f64 = 0;
  let entering = false;
  for (; h < last; h += REC) {
    const nx = <f64>load<f32>(h), ny = <f64>load<f32>(h, 4);
    const num = <f64>load<f32>(h, 8) + r - (px * nx + py * ny);
    const den = dx * nx + dy * ny;
    if (den == 0) {
      if (num < 0) return; // parallel and outside this face
      continue;
    }
    const t = num / den;
    if (den < 0) {
      if (t > tIn) { tIn = t; fx = nx; fy = ny; entering = true; }
    } else if (t < tOut) {
      tOut = t;
    }
    if (tIn > tOut) return;
  }
  if (!entering || tIn < 0 || tIn > 1 || tIn > tOut) return;
  offerHit(tIn, fx, fy, HIT_POLYHEDRON, k);
}

// Cyrus-Beck state of the current swept-box clip: the latest entry (and its face), the earliest exit.
let cbIn: f64 = -Infinity;
let cbOut: f64 = Infinity;
let cbNx: f64 = 0;
let cbNy: f64 = 0;
let cbEntering = false;

export function clipReset(): void {
  cbIn = -Infinity; cbOut = Infinity; cbNx = 0; cbNy = 0; cbEntering = false;
}

/**
 * Clips p + t d against the halfspace n . x <= off; false once the interval is empty. Ties keep
 * the earlier face, so the order of the calls is part of the contract (the baseline and the
 * reference clip in the same order). A NaN or infinite offset (an unbounded axis) never clips.
 */
export function clipHalfspace(nx: f64, ny: f64, off: f64, px: f64, py: f64, dx: f64, dy: f64): bool {
  const num = off - (px * nx + py * ny);
  const den = dx * nx + dy * ny;
  if (den == 0) return !(num < 0); // parallel: all or nothing
  const t = num / den;
  if (den < 0) {
    if (t > cbIn) { cbIn = t; cbNx = nx; cbNy = ny; cbEntering = true; }
  } else if (t < cbOut) {
    cbOut = t;
  }
  return !(cbIn > cbOut);
}

/** Entry t of the last clip in [0, 1], or -1: a start already inside (or only touching while leaving) is not a hit. */
export function clipEntry(): f64 {
  if (!cbEntering || cbIn < 0 || cbIn > 1 || cbIn > cbOut) return -1;
  return cbIn;
}

export function clipNx(): f64 { return cbNx; }
export function clipNy(): f64 { return cbNy; }

/**
 * First contact of a box of half extents (hw, hh) whose centre moves from p by d (t in [0, 1]) with
 * polyhedron k, exactly: the centre is clipped against the Minkowski sum of the polyhedron and the
 * box, whose faces are the polyhedron's faces moved out by the box's support |nx| hw + |ny| hh,
 * then the box's own four axes moved out by the polyhedron's extent (infinite, so never clipping,
 * where it is unbounded). A start already inside is not a hit.
 */
export function castPolyhedronBox(k: i32, px: f64, py: f64, dx: f64, dy: f64, hw: f64, hh: f64): void {
  const starts = ph(P_POLY_START);
  let h = ph(P_HALFSPACES) + load<i32>(starts + (k << 2)) * REC;
  const last = ph(P_HALFSPACES) + load<i32>(starts + (k << 2), 4) * REC;
  clipReset();
  for (; h < last; h += REC) {
    const nx = <f64>load<f32>(h), ny = <f64>load<f32>(h, 4);
    if (!clipHalfspace(nx, ny, <f64>load<f32>(h, 8) + (Math.abs(nx) * hw + Math.abs(ny) * hh), px, py, dx, dy)) return;
  }
  const e = ph(P_POLY_EXTENT) + (k << 4);
  if (!clipHalfspace(1, 0, <f64>load<f32>(e, 8) + hw, px, py, dx, dy)) return;
  if (!clipHalfspace(-1, 0, hw - <f64>load<f32>(e), px, py, dx, dy)) return;
  if (!clipHalfspace(0, 1, <f64>load<f32>(e, 12) + hh, px, py, dx, dy)) return;
  if (!clipHalfspace(0, -1, hh - <f64>load<f32>(e, 4), px, py, dx, dy)) return;
  const t = clipEntry();
  if (t >= 0) offerHit(t, cbNx, cbNy, HIT_POLYHEDRON, k);
}
