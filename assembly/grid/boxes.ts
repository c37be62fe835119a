// Boxes of shapes and entry records, and the cells they fall in: the f32 arithmetic every pass
// shares, computed with the same operations everywhere, so a box test met before an exact test is
// never less conservative than it, and "small" (homeOf) is decided with the same monotone cellOf
// the queries use: exact touching and f32 rounding cannot lose a pair.
import { KIND_CIRCLE, KIND_RECT, REACH_EXACT } from "../../layout/grid.ts";
import { bit, i32At, minI32, pick, setI32, toF32, toI32 } from "../memory.ts";
import { circleCircle, overlapShapes, rectRect } from "../shapes.ts";

// The box of a shape (kind k, x, y, a, b), one coordinate at a time: point (x, y, x, y), circle
// (x - a, y - a, x + a, y + a), rect (x, y, x + a, y + b). Selects instead of branches, so the
// hot loops keep boxes in locals: V8 keeps wasm globals in memory, and passing boxes through
// globals would cost a store and a load per coordinate. Adding or taking 0 leaves a coordinate as it is.
// @ts-ignore: decorator
@inline export function boxLo(k: i32, v: f32, a: f32): f32 { return toF32(v - pick<f32>(a, 0, k == KIND_CIRCLE)); }

// @ts-ignore: decorator
@inline export function boxX1(k: i32, x: f32, a: f32): f32 { return toF32(x + pick<f32>(a, 0, k >= KIND_CIRCLE)); }

// @ts-ignore: decorator
@inline export function boxY1(k: i32, y: f32, a: f32, b: f32): f32 { return toF32(y + pick<f32>(b, pick<f32>(a, 0, k == KIND_CIRCLE), k == KIND_RECT)); }

/**
 * Whether a slot's numbers are within the facade's rule (bindings/validate.ts coordOk): x, y and
 * the sizes its kind has (a circle's radius, a rect's width and height) of magnitude at most
 * MAX_COORD as stored, sizes not negative; NaN fails every comparison. `most` is MAX_COORD as an
 * f32 (it rounds up): an f32 below it is one at most MAX_COORD. Every pass that reads a slot's
 * numbers tests them with this (shapeOk4 by lane) and skips and notes a slot it refuses, so the
 * boxes the passes build are finite: no sum of two such numbers overflows an f32.
 */
// @ts-ignore: decorator
@inline export function shapeOk(k: i32, x: f32, y: f32, a: f32, b: f32, most: f32): bool {
  const as = pick<f32>(a, 0, k >= KIND_CIRCLE), bs = pick<f32>(b, 0, k == KIND_RECT);
  return (bit(Mathf.abs(x) < most) & bit(Mathf.abs(y) < most) & bit(as >= 0) & bit(as < most) & bit(bs >= 0) & bit(bs < most)) != 0;
}

/**
 * Cell column (or row) of coordinate v, clamped into the grid; compared as a float first, so huge
 * and NaN values clamp before any conversion (the js backend's lowering of the saturating
 * conversion gives INT_MIN past i32's range, where wasm saturates).
 */
// @ts-ignore: decorator
@inline export function cellOf(v: f32, origin: f32, inv: f32, n: i32): i32 {
  const t = toF32(toF32(v - origin) * inv);
  return !(t >= 1) ? 0 : t >= <f32>n ? n - 1 : toI32(t);
}

/**
 * Whether the box of entry record (k, x, y, a, b) overlaps x0..y1 (edges touching count). The
 * record's box is computed as boxLo..boxY1 compute a shape's (same f32 operations), so the test stays
 * conservative for the exact test that follows. Bitwise: one branch at the caller, taken only on
 * an overlap (rare), instead of four unpredictable ones.
 */
// @ts-ignore: decorator
@inline export function recordOverlaps(k: i32, x: f32, y: f32, a: f32, b: f32, x0: f32, y0: f32, x1: f32, y1: f32): bool {
  return (bit(x1 >= boxLo(k, x, a)) & bit(boxX1(k, x, a) >= x0) & bit(y1 >= boxLo(k, y, a)) & bit(boxY1(k, y, a, b) >= y0)) != 0;
}

/**
 * overlapShapes with the two same-kind tests the pair loops mostly meet (circle-circle,
 * rect-rect) inline: the same f64 arithmetic, without a call per box overlap.
 */
// @ts-ignore: decorator
@inline export function overlapInline(ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, k: i32, x: f32, y: f32, a: f32, b: f32): bool {
  if (ki == k && k == KIND_CIRCLE) return circleCircle(xi, yi, ai, x, y, a);
  if (ki == k && k == KIND_RECT) {
    return rectRect(xi, yi, <f64>xi + <f64>ai, <f64>yi + <f64>bi, x, y, <f64>x + <f64>a, <f64>y + <f64>b);
  }
  return overlapShapes(ki, xi, yi, ai, bi, k, x, y, a, b);
}

/**
 * REACH_EXACT when shape (k, x, y, a, b) is a rect whose f32 edges (x + a and y + b in f32) are its
 * f64 edges, the ones the exact test uses; else 0.
 */
// @ts-ignore: decorator
@inline export function rectExact(k: i32, x: f32, y: f32, a: f32, b: f32): i32 {
  return pick(REACH_EXACT, 0, k == KIND_RECT && <f64>toF32(x + a) == <f64>x + <f64>a && <f64>toF32(y + b) == <f64>y + <f64>b);
}

/**
 * Coordinate v moved left (or up) by extent `ext`, and a little more: a probe's box starts at
 * least ext before the far edge of any box it overlaps, but its width was rounded to f32, so the
 * margin covers that rounding and this one. Computed in f64, rounded once.
 */
// @ts-ignore: decorator
@inline export function reachLo(v: f32, ext: f32): f32 {
  const lo = <f64>v - <f64>ext * (1 + 1.0 / 1048576);
  return toF32(lo - Math.abs(lo) * (1.0 / 4194304));
}

/** Adds one to the i32 at p. */
// @ts-ignore: decorator
@inline export function bump(p: i32): void {
  setI32(p, i32At(p) + 1);
}
