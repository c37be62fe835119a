// The seed's five intersection tests, exact as written in "Basic Collision Detection in Games":
// point in rect and point in circle are strict, two rects touching edge to edge overlap (the seed
// rejects only when one side is strictly beyond the other), circles must be strictly closer than
// the sum of their radii. Tests run in f64 on the stored f32 values, so the wasm core, its js
// build and a brute-force reference give bit-identical answers on any input.
import { H_A, H_B, H_KIND, H_X, H_Y, KIND_CIRCLE, KIND_POINT, KIND_RECT } from "../layout/grid.ts";
import { hdr } from "./header.ts";
import { f32At, u8At } from "./memory.ts";

/** Point strictly inside the rect [left, right] x [top, bottom]. */
// @ts-ignore: decorator
@inline export function pointInRect(px: f64, py: f64, left: f64, top: f64, right: f64, bottom: f64): bool {
  return px > left && px < right && py > top && py < bottom;
}

/** Point strictly inside the circle. */
// @ts-ignore: decorator
@inline export function pointInCircle(px: f64, py: f64, cx: f64, cy: f64, r: f64): bool {
  const dx = px - cx;
  const dy = py - cy;
  return dx * dx + dy * dy < r * r;
}

/** Rects overlap unless one is strictly beyond a side of the other (touching counts). */
// @ts-ignore: decorator
@inline export function rectRect(
  l1: f64, t1: f64, r1: f64, b1: f64, l2: f64, t2: f64, r2: f64, b2: f64
): bool {
  return !(r1 < l2 || l1 > r2 || b1 < t2 || t1 > b2);
}

/** Circles strictly closer than the sum of their radii. */
// @ts-ignore: decorator
@inline export function circleCircle(x1: f64, y1: f64, ra: f64, x2: f64, y2: f64, rb: f64): bool {
  const dx = x1 - x2;
  const dy = y1 - y2;
  const s = ra + rb;
  return dx * dx + dy * dy < s * s;
}

/** The seed's rect-circle test: a bounding-square reject, then the corner test in the corner regions. */
export function rectCircle(left: f64, top: f64, right: f64, bottom: f64, cx: f64, cy: f64, r: f64): bool {
  if (cx + r < left) return false;
  if (cx - r > right) return false;
  if (cy + r < top) return false;
  if (cy - r > bottom) return false;
  let dx: f64 = 0;
  let dy: f64 = 0;
  let corner = false;
  if (cx < left) {
    if (cy < top) { dx = cx - left; dy = cy - top; corner = true; }
    else if (cy > bottom) { dx = cx - left; dy = cy - bottom; corner = true; }
  } else if (cx > right) {
    if (cy < top) { dx = cx - right; dy = cy - top; corner = true; }
    else if (cy > bottom) { dx = cx - right; dy = cy - bottom; corner = true; }
  }
  if (corner) return dx * dx + dy * dy < r * r;
  return true;
}

/** Do two shapes overlap? Kinds are KIND_*; (a, b) is (radius, 0) for circles and (w, h) for rects; point-point means equal. */
export function overlapShapes(
  ki: i32, xi: f64, yi: f64, ai: f64, bi: f64, kj: i32, xj: f64, yj: f64, aj: f64, bj: f64,
): bool {
  if (ki > kj) {
    return overlapShapes(kj, xj, yj, aj, bj, ki, xi, yi, ai, bi);
  }
  if (ki == KIND_POINT) {
    if (kj == KIND_POINT) return xi == xj && yi == yj;
    if (kj == KIND_CIRCLE) return pointInCircle(xi, yi, xj, yj, aj);
    return pointInRect(xi, yi, xj, yj, xj + aj, yj + bj);
  }
  if (ki == KIND_CIRCLE) {
    if (kj == KIND_CIRCLE) return circleCircle(xi, yi, ai, xj, yj, aj);
    return rectCircle(xj, yj, xj + aj, yj + bj, xi, yi, ai);
  }
  if (ki == KIND_RECT && kj == KIND_RECT) return rectRect(xi, yi, xi + ai, yi + bi, xj, yj, xj + aj, yj + bj);
  return false;
}

/** Do the entities in slots i and j overlap? */
export function overlapSlots(i: i32, j: i32): bool {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  return overlapShapes(
    u8At(kp + i), f32At(xp + (i << 2)), f32At(yp + (i << 2)), f32At(ap + (i << 2)), f32At(bp + (i << 2)),
    u8At(kp + j), f32At(xp + (j << 2)), f32At(yp + (j << 2)), f32At(ap + (j << 2)), f32At(bp + (j << 2)),
  );
}
