// Surfaces of "Hit Detection for Spheres and Platforms" (seed 000): one-sided line segments with a
// unit normal and offset, bounded by two 45-degree normals. A ball of radius r touches a surface
// when its centre is in the hit region: the seed's trapezium (three dot products) or the exact
// rounded region (the front half of the capsule the segment sweeps with the ball). Touching
// surfaces remove the velocity component into them, folded over all of them as the seed's
// `foldr deflect` does (last surface first). Layout: layout/platforms.ts.
import { HIT_SURFACE, P_SURF_CELLS, P_SURF_ITEMS, P_SURFACES, SURF_STRIDE } from "../layout/platforms.ts";
import { ballVX, ballVY, countCandidate, countContact, ph, setBall, ballX, ballY } from "./platform_grid.ts";
import { clipEntry, clipHalfspace, clipNx, clipNy, clipReset } from "./polyhedra.ts";

const REC = SURF_STRIDE << 2;

/** Is the centre (px, py) in surface s's hit region for radius r? The seed's `detect`, or the rounded region when exact. */
export function surfaceTouches(s: i32, px: f64, py: f64, r: f64, exact: bool): bool {
  const p = ph(P_SURFACES) + s * REC;
  const nx = <f64>load<f32>(p), ny = <f64>load<f32>(p, 4), o = <f64>load<f32>(p, 8);
  const d = px * nx + py * ny;
  // Front side only, within r: the band every region shares.
  if (!(o <= d && d <= o + r)) return false;
  if (!exact) {
    const k = r * Math.SQRT1_2;
    return px * <f64>load<f32>(p, 12) + py * <f64>load<f32>(p, 16) <= <f64>load<f32>(p, 20) + k
      && px * <f64>load<f32>(p, 24) + py * <f64>load<f32>(p, 28) <= <f64>load<f32>(p, 32) + k;
  }
  // Exact: distance to the segment at most r (the rounded ends replace the 45-degree cuts).
  const x0 = <f64>load<f32>(p, 36), y0 = <f64>load<f32>(p, 40);
  const ex = <f64>load<f32>(p, 44) - x0, ey = <f64>load<f32>(p, 48) - y0;
  const qx = px - x0, qy = py - y0;
  let t = (qx * ex + qy * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = qx - t * ex, dy = qy - t * ey;
  return dx * dx + dy * dy <= r * r;
}

/** The seed's `deflect`: drop the velocity component into the surface, only when moving toward it. */
// @ts-ignore: decorator
@inline function deflectSurface(s: i32): void {
  const p = ph(P_SURFACES) + s * REC;
  const nx = <f64>load<f32>(p), ny = <f64>load<f32>(p, 4);
  const vn = ballVX * nx + ballVY * ny;
  if (vn <= 0) setBall(ballX, ballY, ballVX - vn * nx, ballVY - vn * ny);
}

/** Folds every surface touching the ball (ballX, ballY) into its velocity, highest id first; cell from cellAt. */
export function foldSurfaces(cell: i32, r: f64, exact: bool): void {
  const starts = ph(P_SURF_CELLS), items = ph(P_SURF_ITEMS);
  const s0 = load<i32>(starts + (cell << 2));
  const px = ballX, py = ballY; // surfaces never move the ball
  for (let j = load<i32>(starts + (cell << 2), 4) - 1; j >= s0; j--) {
    const s = load<i32>(items + (j << 2));
    countCandidate();
    if (surfaceTouches(s, px, py, r, exact)) {
      countContact();
      deflectSurface(s);
    }
  }
}

// Best hit of the current cast (set by the cast functions, read by the caller).
export let castT: f64 = Infinity;
export let castNX: f64 = 0;
export let castNY: f64 = 0;
export let castKind: i32 = 0;
export let castId: i32 = 0;

export function resetCast(): void {
  castT = Infinity; castNX = 0; castNY = 0; castKind = 0; castId = 0;
}

/** Keeps (t, kind, id) if it is earlier than the best, ties going to the lower kind, then the lower id. */
export function offerHit(t: f64, nx: f64, ny: f64, kind: i32, id: i32): void {
  if (t < castT || (t == castT && (kind < castKind || (kind == castKind && id < castId)))) {
    castT = t; castNX = nx; castNY = ny; castKind = kind; castId = id;
  }
}

/** Entering root in [0, 1] of |p + t d - c|^2 = r^2 on the front half of the end cap, or -1. */
// @ts-ignore: decorator
@inline function capHit(px: f64, py: f64, dx: f64, dy: f64, cx: f64, cy: f64, r: f64, nx: f64, ny: f64, s: i32): void {
  const fx = px - cx, fy = py - cy;
  const a = dx * dx + dy * dy;
  const b = fx * dx + fy * dy;
  const c = fx * fx + fy * fy - r * r;
  if (c < 0 || b >= 0) return; // starts inside the cap, or moves away from it
  const disc = b * b - a * c;
  if (disc < 0) return;
  const t = (-b - Math.sqrt(disc)) / a;
  if (t < 0 || t > 1) return;
  const hx = fx + t * dx, hy = fy + t * dy;
  if (hx * nx + hy * ny < 0) return; // back half: surfaces are one-sided
  offerHit(t, hx / r, hy / r, HIT_SURFACE, s);
}

/**
 * First contact of a circle of radius r moving from p by d (t in [0, 1]) with the front of surface s.
 * r = 0 is a ray or segment cast. Surfaces are hit only while moving toward their front (d . n < 0);
 * a start already touching the region is not a hit.
 */
export function castSurface(s: i32, px: f64, py: f64, dx: f64, dy: f64, r: f64): void {
  const p = ph(P_SURFACES) + s * REC;
  const nx = <f64>load<f32>(p), ny = <f64>load<f32>(p, 4), o = <f64>load<f32>(p, 8);
  const den = dx * nx + dy * ny;
  if (!(den < 0)) return;
  const x0 = <f64>load<f32>(p, 36), y0 = <f64>load<f32>(p, 40);
  const x1 = <f64>load<f32>(p, 44), y1 = <f64>load<f32>(p, 48);
  // The face: the segment's line moved out by r.
  const t = (o + r - (px * nx + py * ny)) / den;
  if (t >= 0 && t <= 1) {
    const ex = x1 - x0, ey = y1 - y0;
    const u = ((px + t * dx - x0) * ex + (py + t * dy - y0) * ey) / (ex * ex + ey * ey);
    if (u >= 0 && u <= 1) {
      offerHit(t, nx, ny, HIT_SURFACE, s);
      return; // the face is the first contact: the caps lie behind it along d
    }
  }
  if (r > 0) {
    capHit(px, py, dx, dy, x0, y0, r, nx, ny, s);
    capHit(px, py, dx, dy, x1, y1, r, nx, ny, s);
  }
}

/**
 * First contact of a box of half extents (hw, hh) whose centre moves from p by d (t in [0, 1]) with
 * the front of surface s: the centre is clipped against the Minkowski sum of the segment and the
 * box (its line moved out both ways by the box's support |nx| hw + |ny| hh, then the box's axes
 * past the segment's ends). As the circle casts: only while moving toward the front (d . n < 0),
 * and an entry through a side counts only with the centre in front of the segment's line (the
 * box's analogue of the front half of the rounded end). A start already inside is not a hit.
 */
export function castSurfaceBox(s: i32, px: f64, py: f64, dx: f64, dy: f64, hw: f64, hh: f64): void {
  const p = ph(P_SURFACES) + s * REC;
  const nx = <f64>load<f32>(p), ny = <f64>load<f32>(p, 4), o = <f64>load<f32>(p, 8);
  if (!(dx * nx + dy * ny < 0)) return;
  const x0 = <f64>load<f32>(p, 36), y0 = <f64>load<f32>(p, 40);
  const x1 = <f64>load<f32>(p, 44), y1 = <f64>load<f32>(p, 48);
  const sup = Math.abs(nx) * hw + Math.abs(ny) * hh;
  clipReset();
  if (!clipHalfspace(nx, ny, o + sup, px, py, dx, dy)) return;
  if (!clipHalfspace(-nx, -ny, sup - o, px, py, dx, dy)) return;
  if (!clipHalfspace(1, 0, max(x0, x1) + hw, px, py, dx, dy)) return;
  if (!clipHalfspace(-1, 0, hw - min(x0, x1), px, py, dx, dy)) return;
  if (!clipHalfspace(0, 1, max(y0, y1) + hh, px, py, dx, dy)) return;
  if (!clipHalfspace(0, -1, hh - min(y0, y1), px, py, dx, dy)) return;
  const t = clipEntry();
  if (t < 0) return;
  const fx = clipNx(), fy = clipNy();
  if ((fx != nx || fy != ny) && (px + t * dx) * nx + (py + t * dy) * ny < o) return; // behind the line: the back
  offerHit(t, fx, fy, HIT_SURFACE, s);
}
