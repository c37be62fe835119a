// Surfaces of "Hit Detection for Spheres and Platforms" (seed 000): one-sided line segments with a
// unit normal and offset, bounded by two 45-degree normals. A ball of radius r touches a surface
// when its centre is in the hit region: the seed's trapezium (three dot products) or the exact
// rounded region (the front half of the capsule the segment sweeps with the ball). Touching
// surfaces remove the velocity component into them, folded over all of them as the seed's
// `foldr deflect` does (last surface first). The core only takes dot products with the stored
// normals, so it knows no up or down: the facade's normals make the level y-down
// (bindings/platforms.ts). Layout: layout/platforms.ts.
import { SURF_STRIDE } from "../layout/platforms.ts";
import { PART_NONE, PART_SURFACES } from "../layout/moves.ts";
import {
  AT_SURF_CELLS, AT_SURF_ITEMS, AT_SURFACES, BALL_R, BALL_VX, BALL_VY, BALL_X, BALL_Y, BEST_NX, BEST_NY, BEST_T, BOX_HH,
  BOX_HW, CAST_DX, CAST_DY, CAST_R, CAST_X, CAST_Y, count,
} from "./platform_grid.ts";
import { f32At, f64At, i32At, setF64 } from "./memory.ts";

const REC = SURF_STRIDE << 2;

/**
 * Is the ball's centre (BALL_X, BALL_Y) in surface s's hit region for its radius BALL_R?
 * The seed's `detect`, or the rounded region when exact.
 */
export function surfaceTouches(s: i32, exact: bool): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const p = i32At(AT_SURFACES) + s * REC;
  const d = px * <f64>f32At(p) + py * <f64>f32At(p + 4), o = <f64>f32At(p + 8);
  // Front side only, within r: the band every region shares. Few candidates pass it, so the
  // bounds read their fields in functions of their own (see platform_grid.ts).
  return o <= d && d <= o + r && (exact ? inRoundedEnds(p) : inTrapezium(p));
}

/** The seed's bounds for the ball (BALL_*) in the band of the surface at p: both 45-degree normals, moved out by r / sqrt 2. */
function inTrapezium(p: i32): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const n0x = <f64>f32At(p + 12), n0y = <f64>f32At(p + 16), c0 = <f64>f32At(p + 20);
  const n1x = <f64>f32At(p + 24), n1y = <f64>f32At(p + 28), c1 = <f64>f32At(p + 32);
  const k = r * Math.SQRT1_2;
  return px * n0x + py * n0y <= c0 + k && px * n1x + py * n1y <= c1 + k;
}

/** Exact bounds for the ball (BALL_*) in the band of the surface at p: distance to the segment at most r (rounded ends replace the 45-degree cuts). */
function inRoundedEnds(p: i32): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const x0 = <f64>f32At(p + 36), y0 = <f64>f32At(p + 40);
  const ex = <f64>f32At(p + 44) - x0, ey = <f64>f32At(p + 48) - y0;
  const qx = px - x0, qy = py - y0;
  let t = (qx * ex + qy * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = qx - t * ex, dy = qy - t * ey;
  return dx * dx + dy * dy <= r * r;
}

/** The seed's `deflect`: drop the velocity component into the surface, only when moving toward it. */
// @ts-ignore: decorator
@inline function deflectSurface(s: i32): void {
  const p = i32At(AT_SURFACES) + s * REC;
  const nx = <f64>f32At(p), ny = <f64>f32At(p + 4);
  const vx = f64At(BALL_VX), vy = f64At(BALL_VY);
  const vn = vx * nx + vy * ny;
  // Stored either way: a store on a rarely taken branch could box the double (platform_grid.ts).
  setF64(BALL_VX, vn <= 0 ? vx - vn * nx : vx);
  setF64(BALL_VY, vn <= 0 ? vy - vn * ny : vy);
}

/** Folds every surface of `cell` touching the ball (BALL_*) into its velocity, highest id first. */
export function foldSurfaces(cell: i32, exact: bool): void {
  const starts = i32At(AT_SURF_CELLS), items = i32At(AT_SURF_ITEMS), surfaces = i32At(AT_SURFACES);
  // surfaceTouches with the ball read once: surfaces never move it, only turn its velocity.
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const s0 = i32At(starts + (cell << 2)), end = i32At(starts + (cell << 2) + 4);
  let touched = 0;
  for (let j = end - 1; j >= s0; j--) {
    const s = i32At(items + (j << 2));
    const p = surfaces + s * REC;
    const d = px * <f64>f32At(p) + py * <f64>f32At(p + 4), o = <f64>f32At(p + 8);
    if (o <= d && d <= o + r && (exact ? inRoundedEnds(p) : inTrapezium(p))) {
      touched++;
      deflectSurface(s);
    }
  }
  count(end - s0, touched);
}

// Part (PART_SURFACES or PART_POLYHEDRA) and id of the best hit of the current cast (its t and normal are BEST_*).
export let castPart: i32 = 0;
export let castId: i32 = 0;

/** Starts the current cast (CAST_*): no hit yet. */
export function resetCast(): void {
  setF64(BEST_T, Infinity);
  setF64(BEST_NX, 0);
  setF64(BEST_NY, 0);
  castPart = PART_NONE;
  castId = 0;
}

/** Keeps (t, part, id) if it is earlier than the best, ties going to the lower part (surfaces), then the lower id. */
export function offerHit(t: f64, nx: f64, ny: f64, part: i32, id: i32): void {
  const best = f64At(BEST_T);
  if (t < best || (t == best && (part < castPart || (part == castPart && id < castId)))) {
    setF64(BEST_T, t); setF64(BEST_NX, nx); setF64(BEST_NY, ny);
    castPart = part; castId = id;
  }
}

/**
 * The cast's circle (CAST_*) against the front half of the rounded end `end` (0: p0, 1: p1) of the
 * surface record at p: the entering root in [0, 1] of |p + t d - c|^2 = r^2, offered as a hit.
 */
// @ts-ignore: decorator
@inline function capHit(p: i32, end: i32, s: i32): void {
  const px = f64At(CAST_X), py = f64At(CAST_Y), dx = f64At(CAST_DX), dy = f64At(CAST_DY), r = f64At(CAST_R);
  const nx = <f64>f32At(p), ny = <f64>f32At(p + 4);
  const c = p + 36 + (end << 3);
  const fx = px - <f64>f32At(c), fy = py - <f64>f32At(c + 4);
  const a = dx * dx + dy * dy;
  const b = fx * dx + fy * dy;
  const k = fx * fx + fy * fy - r * r;
  if (k < 0 || b >= 0) return; // starts inside the cap, or moves away from it
  const disc = b * b - a * k;
  if (disc < 0) return;
  const t = (-b - Math.sqrt(disc)) / a;
  if (t < 0 || t > 1) return;
  const hx = fx + t * dx, hy = fy + t * dy;
  if (hx * nx + hy * ny < 0) return; // back half: surfaces are one-sided
  offerHit(t, hx / r, hy / r, PART_SURFACES, s);
}

/**
 * First contact of the current cast (CAST_*: a circle of radius r moving from p by d, t in
 * [0, 1]) with the front of surface s. r = 0 is a ray or segment cast. Surfaces are hit only while
 * moving toward their front (d . n < 0); a start already touching the region is not a hit.
 */
export function castSurface(s: i32): void {
  const dx = f64At(CAST_DX), dy = f64At(CAST_DY);
  const p = i32At(AT_SURFACES) + s * REC;
  const nx = <f64>f32At(p), ny = <f64>f32At(p + 4);
  const den = dx * nx + dy * ny;
  if (!(den < 0)) return;
  const px = f64At(CAST_X), py = f64At(CAST_Y), r = f64At(CAST_R), o = <f64>f32At(p + 8);
  const x0 = <f64>f32At(p + 36), y0 = <f64>f32At(p + 40);
  const x1 = <f64>f32At(p + 44), y1 = <f64>f32At(p + 48);
  // The face: the segment's line moved out by r.
  const t = (o + r - (px * nx + py * ny)) / den;
  if (t >= 0 && t <= 1) {
    const ex = x1 - x0, ey = y1 - y0;
    const u = ((px + t * dx - x0) * ex + (py + t * dy - y0) * ey) / (ex * ex + ey * ey);
    if (u >= 0 && u <= 1) {
      offerHit(t, nx, ny, PART_SURFACES, s);
      return; // the face is the first contact: the caps lie behind it along d
    }
  }
  if (r > 0) {
    capHit(p, 0, s);
    capHit(p, 1, s);
  }
}

/**
 * First contact of the current swept box (half extents BOX_HW, BOX_HH; its centre moves from
 * CAST_X, CAST_Y by CAST_DX, CAST_DY, t in [0, 1]) with the front of surface s: the centre
 * is clipped against the Minkowski sum of the segment and the box (its line moved out both ways
 * by the box's support |nx| hw + |ny| hh, then the box's axes past the segment's ends). As the
 * circle casts: only while moving toward the front (d . n < 0), and an entry through a side
 * counts only with the centre in front of the segment's line (the box's analogue of the front
 * half of the rounded end). A start already inside is not a hit.
 */
export function castSurfaceBox(s: i32): void {
  const dx = f64At(CAST_DX), dy = f64At(CAST_DY);
  const p = i32At(AT_SURFACES) + s * REC;
  const nx = <f64>f32At(p), ny = <f64>f32At(p + 4);
  if (!(dx * nx + dy * ny < 0)) return;
  const px = f64At(CAST_X), py = f64At(CAST_Y), hw = f64At(BOX_HW), hh = f64At(BOX_HH), o = <f64>f32At(p + 8);
  const x0 = <f64>f32At(p + 36), y0 = <f64>f32At(p + 40);
  const x1 = <f64>f32At(p + 44), y1 = <f64>f32At(p + 48);
  const sup = Math.abs(nx) * hw + Math.abs(ny) * hh;
  const mx = -nx, my = -ny;
  // Cyrus-Beck against the sum's six faces n . x <= off, in this order (ties keep the earlier
  // face), written out face by face: a loop over them cost the wasm core a third of this cast, and
  // a helper would pass doubles through calls the js backend may not inline (platform_grid.ts).
  let tIn = -Infinity, tOut = Infinity, fx: f64 = 0, fy: f64 = 0;
  let num: f64, den: f64, t: f64;
  // The line moved out by the box's support: its front,
  num = o + sup - (px * nx + py * ny);
  den = dx * nx + dy * ny;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = nx; fy = ny; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // and its back;
  num = sup - o - (px * mx + py * my);
  den = dx * mx + dy * my;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = mx; fy = my; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // the box's axes past the segment's ends: +x,
  num = Math.max(x0, x1) + hw - (px * 1.0 + py * 0.0);
  den = dx * 1.0 + dy * 0.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 1.0; fy = 0.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // -x,
  num = hw - Math.min(x0, x1) - (px * -1.0 + py * 0.0);
  den = dx * -1.0 + dy * 0.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = -1.0; fy = 0.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // +y,
  num = Math.max(y0, y1) + hh - (px * 0.0 + py * 1.0);
  den = dx * 0.0 + dy * 1.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 0.0; fy = 1.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // -y.
  num = hh - Math.min(y0, y1) - (px * 0.0 + py * -1.0);
  den = dx * 0.0 + dy * -1.0;
  if (den == 0) {
    if (num < 0) return; // parallel and outside
  } else {
    t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = 0.0; fy = -1.0; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return;
  }
  // A start already inside (or only touching while leaving) is not a hit.
  if (tIn < 0 || tIn > 1) return; // also no entry at all (tIn = -Infinity)
  if ((fx != nx || fy != ny) && (px + tIn * dx) * nx + (py + tIn * dy) * ny < o) return; // behind the line: the back
  offerHit(tIn, fx, fy, PART_SURFACES, s);
}
