// Convex polyhedra of "Hit Detection with Polyhedra" (seed 001): each is a list of halfspaces
// n . x <= offset (unit outward normals), stored in one halfspace array with per-polyhedron starts.
// A ball of radius r is inside when n . p - offset - r <= 0 for every halfspace (the seed's point
// test with every face moved out by r); it is then pushed out along the nearest face and loses the
// velocity component into it: the seed's `deflect`, folded over all polyhedra (`foldr`: highest id
// first). Unbounded polyhedra (the ground as one halfspace) are allowed. Layout:
// layout/platforms.ts.
import { HS_STRIDE } from "../layout/platforms.ts";
import { PART_POLYHEDRA } from "../layout/moves.ts";
import {
  AT_HALFSPACES, AT_POLY_CELLS, AT_POLY_EXTENT, AT_POLY_ITEMS, AT_POLY_START, BALL_R, BALL_VX, BALL_VY, BALL_X, BALL_Y,
  BOX_HH, BOX_HW, CAST_DX, CAST_DY, CAST_R, CAST_X, CAST_Y, cellOf, count,
} from "./platform_grid.ts";
import { f32At, f64At, i32At, setF64 } from "./memory.ts";
import { offerHit } from "./surfaces.ts";

const REC = HS_STRIDE << 2;

/** Point-in-polyhedron for the ball (BALL_*): every face moved out by r; exits at the first face it is beyond. */
export function insidePolyhedron(k: i32): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const starts = i32At(AT_POLY_START);
  const end = i32At(starts + (k << 2) + 4);
  let h = i32At(AT_HALFSPACES) + i32At(starts + (k << 2)) * REC;
  const last = i32At(AT_HALFSPACES) + end * REC;
  for (; h < last; h += REC) {
    if (px * <f64>f32At(h) + py * <f64>f32At(h + 4) - <f64>f32At(h + 8) - r > 0) return false;
  }
  return true;
}

/** The seed's `deflect` for polyhedron k and the ball (BALL_*): true when it was inside (and so was pushed out). */
function deflectPolyhedron(k: i32): bool {
  const starts = i32At(AT_POLY_START);
  let h = i32At(AT_HALFSPACES) + i32At(starts + (k << 2)) * REC;
  const last = i32At(AT_HALFSPACES) + i32At(starts + (k << 2) + 4) * REC;
  if (h >= last) return false;
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  let best = -Infinity;
  let face = h; // dist is finite (a finite ball, validated faces), so the first face sets it
  for (; h < last; h += REC) {
    const dist = px * <f64>f32At(h) + py * <f64>f32At(h + 4) - <f64>f32At(h + 8) - r;
    if (dist > 0) return false; // early exit: outside this face
    // maximumBy keeps the last of equal maxima.
    if (dist >= best) { best = dist; face = h; }
  }
  pushOut(face);
  return true;
}

/**
 * Moves the ball (BALL_*) out along the face at h (its nearest: dist <= 0 is the same double
 * deflectPolyhedron found) and drops its velocity component into that face. A function of its
 * own, reading what it needs, so the js backend passes no double through the rarely taken call.
 */
function pushOut(h: i32): void {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const bvx = f64At(BALL_VX), bvy = f64At(BALL_VY);
  const nx = <f64>f32At(h), ny = <f64>f32At(h + 4);
  const dist = px * nx + py * ny - <f64>f32At(h + 8) - r;
  const vn = nx * bvx + ny * bvy;
  setF64(BALL_X, px - dist * nx);
  setF64(BALL_Y, py - dist * ny);
  setF64(BALL_VX, vn <= 0 ? bvx - vn * nx : bvx);
  setF64(BALL_VY, vn <= 0 ? bvy - vn * ny : bvy);
}

/**
 * Folds every polyhedron over the ball (BALL_*), highest id first, as the seed's
 * `multideflect`, starting in its cell (cellOf(BALL_X)). Only polyhedra listed in the ball's cell
 * can contain it; after a push-out moves the ball to another cell, the fold continues in that
 * cell's list below the current id, so the result equals the fold over all polyhedra.
 */
export function foldPolyhedra(start: i32): void {
  const starts = i32At(AT_POLY_CELLS), items = i32At(AT_POLY_ITEMS);
  let cell = start;
  let s0 = i32At(starts + (cell << 2));
  let j = i32At(starts + (cell << 2) + 4) - 1;
  let tested = 0, touched = 0;
  while (j >= s0) {
    const k = i32At(items + (j << 2));
    tested++;
    if (deflectPolyhedron(k)) {
      touched++;
      const moved = cellOf(BALL_X);
      if (moved != cell) {
        cell = moved;
        s0 = i32At(starts + (cell << 2));
        j = below(cell, k);
        continue;
      }
    }
    j--;
  }
  count(tested, touched);
}

/** Where the fold goes on in `cell` after polyhedron k: just below the first entry >= k in its ascending list. */
function below(cell: i32, k: i32): i32 {
  const starts = i32At(AT_POLY_CELLS), items = i32At(AT_POLY_ITEMS);
  let lo = i32At(starts + (cell << 2)), hi = i32At(starts + (cell << 2) + 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (i32At(items + (mid << 2)) < k) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * First contact of the current cast (CAST_*: a circle of radius r moving from p by d, t in
 * [0, 1]) with polyhedron k (faces moved out by r): Cyrus-Beck clipping. A start already inside
 * is not a hit.
 */
export function castPolyhedron(k: i32): void {
  const px = f64At(CAST_X), py = f64At(CAST_Y), dx = f64At(CAST_DX), dy = f64At(CAST_DY), r = f64At(CAST_R);
  const starts = i32At(AT_POLY_START);
  let h = i32At(AT_HALFSPACES) + i32At(starts + (k << 2)) * REC;
  const last = i32At(AT_HALFSPACES) + i32At(starts + (k << 2) + 4) * REC;
  let tIn = -Infinity, tOut = Infinity;
  let fx: f64 = 0, fy: f64 = 0;
  let entering = false;
  for (; h < last; h += REC) {
    const nx = <f64>f32At(h), ny = <f64>f32At(h + 4);
    const num = <f64>f32At(h + 8) + r - (px * nx + py * ny);
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
  offerHit(tIn, fx, fy, PART_POLYHEDRA, k);
}

/**
 * First contact of the current swept box (BOX_*, CAST_*: half extents (hw, hh), its centre
 * moving from p by d, t in [0, 1]) with polyhedron k, exactly: the centre is clipped against the
 * Minkowski sum of the polyhedron and the box, whose faces are the polyhedron's faces moved out
 * by the box's support |nx| hw + |ny| hh, then the box's own four axes moved out by the
 * polyhedron's extent (infinite, so never clipping, where it is unbounded). A start already
 * inside is not a hit.
 */
export function castPolyhedronBox(k: i32): void {
  const px = f64At(CAST_X), py = f64At(CAST_Y), dx = f64At(CAST_DX), dy = f64At(CAST_DY);
  const hw = f64At(BOX_HW), hh = f64At(BOX_HH);
  const starts = i32At(AT_POLY_START);
  let h = i32At(AT_HALFSPACES) + i32At(starts + (k << 2)) * REC;
  const last = i32At(AT_HALFSPACES) + i32At(starts + (k << 2) + 4) * REC;
  const e = i32At(AT_POLY_EXTENT) + (k << 4);
  const right = <f64>f32At(e + 8) + hw, left = hw - <f64>f32At(e);
  const top = <f64>f32At(e + 12) + hh, bottom = hh - <f64>f32At(e + 4);
  // Cyrus-Beck against the sum's faces n . x <= off, in this order (ties keep the earlier face),
  // with the state in locals: the js backend then passes no double through a call (a helper per
  // face would, in calls V8 may not inline; platform_grid.ts). A NaN or infinite offset (an
  // unbounded axis) never clips.
  let tIn = -Infinity, tOut = Infinity, fx: f64 = 0, fy: f64 = 0;
  let num: f64, den: f64, t: f64;
  // The polyhedron's faces, moved out by the box's support;
  for (; h < last; h += REC) {
    const nx = <f64>f32At(h), ny = <f64>f32At(h + 4);
    num = <f64>f32At(h + 8) + (Math.abs(nx) * hw + Math.abs(ny) * hh) - (px * nx + py * ny);
    den = dx * nx + dy * ny;
    if (den == 0) {
      if (num < 0) return; // parallel and outside
    } else {
      t = num / den;
      if (den < 0) { if (t > tIn) { tIn = t; fx = nx; fy = ny; } } else if (t < tOut) tOut = t;
      if (tIn > tOut) return;
    }
  }
  // the box's axes past the polyhedron's extent: +x,
  num = right - (px * 1.0 + py * 0.0);
  den = dx * 1.0 + dy * 0.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 1.0; fy = 0.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // -x,
  num = left - (px * -1.0 + py * 0.0);
  den = dx * -1.0 + dy * 0.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = -1.0; fy = 0.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // +y,
  num = top - (px * 0.0 + py * 1.0);
  den = dx * 0.0 + dy * 1.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 0.0; fy = 1.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // -y.
  num = bottom - (px * 0.0 + py * -1.0);
  den = dx * 0.0 + dy * -1.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 0.0; fy = -1.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // A start already inside (or only touching while leaving) is not a hit; nor is no entry (tIn = -Infinity).
  if (tIn >= 0 && tIn <= 1) offerHit(tIn, fx, fy, PART_POLYHEDRA, k);
}
