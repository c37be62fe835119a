// The seed's single-shape tests for callers that test one pair at a time, in plain JavaScript: the
// f64 arithmetic of the core's own tests (assembly/shapes.ts, which every query runs on either
// backend), so a pair tested here agrees with the world's queries bit for bit (tests/primitives).
// The core's file cannot be imported here: the facade loads no part of the js core statically.
// Each export runs its arithmetic as it is and turns what only an argument that is no number can
// throw (a symbol, a BigInt, an object whose valueOf throws) into a HitcoreError; a try costs
// nothing on the path that does not throw.
import { KIND_CIRCLE, KIND_POINT, KIND_RECT } from "../layout/grid.js";
import { describe, HitcoreError } from "./validate.js";

/** INVALID_NUMBER for a test whose arithmetic threw: names the first argument that is no number. */
function refuse(method: string, names: string, args: unknown[], e: unknown): HitcoreError {
  const at = args.findIndex((v) => typeof v !== "number"), name = names.split(",")[at] ?? "an argument";
  return new HitcoreError("INVALID_NUMBER", `${method}: ${name} must be a number, got ${at >= 0 ? describe(args[at]) : "one that threw " + describe(e)}. Pass numbers.`);
}

/** Point strictly inside the rect [left, right] x [top, bottom]. */
export function pointInRect(px: number, py: number, left: number, top: number, right: number, bottom: number): boolean {
  try {
    return pointInRectOf(px, py, left, top, right, bottom);
  } catch (e) {
    throw refuse("pointInRect", "px,py,left,top,right,bottom", [px, py, left, top, right, bottom], e);
  }
}

function pointInRectOf(px: number, py: number, left: number, top: number, right: number, bottom: number): boolean {
  return px > left && px < right && py > top && py < bottom;
}

/** Point strictly inside the circle. */
export function pointInCircle(px: number, py: number, cx: number, cy: number, r: number): boolean {
  try {
    return pointInCircleOf(px, py, cx, cy, r);
  } catch (e) {
    throw refuse("pointInCircle", "px,py,cx,cy,r", [px, py, cx, cy, r], e);
  }
}

function pointInCircleOf(px: number, py: number, cx: number, cy: number, r: number): boolean {
  const dx = px - cx;
  const dy = py - cy;
  return dx * dx + dy * dy < r * r;
}

/** Rects overlap unless one is strictly beyond a side of the other (touching counts). */
export function rectRect(
  l1: number, t1: number, r1: number, b1: number, l2: number, t2: number, r2: number, b2: number,
): boolean {
  try {
    return rectRectOf(l1, t1, r1, b1, l2, t2, r2, b2);
  } catch (e) {
    throw refuse("rectRect", "l1,t1,r1,b1,l2,t2,r2,b2", [l1, t1, r1, b1, l2, t2, r2, b2], e);
  }
}

function rectRectOf(
  l1: number, t1: number, r1: number, b1: number, l2: number, t2: number, r2: number, b2: number,
): boolean {
  return !(r1 < l2 || l1 > r2 || b1 < t2 || t1 > b2);
}

/** Circles strictly closer than the sum of their radii. */
export function circleCircle(x1: number, y1: number, ra: number, x2: number, y2: number, rb: number): boolean {
  try {
    return circleCircleOf(x1, y1, ra, x2, y2, rb);
  } catch (e) {
    throw refuse("circleCircle", "x1,y1,ra,x2,y2,rb", [x1, y1, ra, x2, y2, rb], e);
  }
}

function circleCircleOf(x1: number, y1: number, ra: number, x2: number, y2: number, rb: number): boolean {
  const dx = x1 - x2;
  const dy = y1 - y2;
  const s = ra + rb;
  return dx * dx + dy * dy < s * s;
}

/** The seed's rect-circle test: a bounding-square reject, then the corner test in the corner regions. */
export function rectCircle(
  left: number, top: number, right: number, bottom: number, cx: number, cy: number, r: number,
): boolean {
  try {
    return rectCircleOf(left, top, right, bottom, cx, cy, r);
  } catch (e) {
    throw refuse("rectCircle", "left,top,right,bottom,cx,cy,r", [left, top, right, bottom, cx, cy, r], e);
  }
}

function rectCircleOf(
  left: number, top: number, right: number, bottom: number, cx: number, cy: number, r: number,
): boolean {
  if (cx + r < left) return false;
  if (cx - r > right) return false;
  if (cy + r < top) return false;
  if (cy - r > bottom) return false;
  let dx = 0;
  let dy = 0;
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

/** Do two shapes overlap? Kinds are KIND_*; (a, b) is (radius, 0) for circles and (w, h) for rects. */
export function overlapShapes(
  ki: number, xi: number, yi: number, ai: number, bi: number,
  kj: number, xj: number, yj: number, aj: number, bj: number,
): boolean {
  try {
    return overlapShapesOf(ki, xi, yi, ai, bi, kj, xj, yj, aj, bj);
  } catch (e) {
    throw refuse("overlapShapes", "ki,xi,yi,ai,bi,kj,xj,yj,aj,bj", [ki, xi, yi, ai, bi, kj, xj, yj, aj, bj], e);
  }
}

function overlapShapesOf(
  ki: number, xi: number, yi: number, ai: number, bi: number,
  kj: number, xj: number, yj: number, aj: number, bj: number,
): boolean {
  if (ki > kj) return overlapShapesOf(kj, xj, yj, aj, bj, ki, xi, yi, ai, bi);
  if (ki === KIND_POINT) {
    if (kj === KIND_POINT) return xi === xj && yi === yj;
    if (kj === KIND_CIRCLE) return pointInCircleOf(xi, yi, xj, yj, aj);
    return pointInRectOf(xi, yi, xj, yj, xj + aj, yj + bj);
  }
  if (ki === KIND_CIRCLE) {
    if (kj === KIND_CIRCLE) return circleCircleOf(xi, yi, ai, xj, yj, aj);
    return rectCircleOf(xj, yj, xj + aj, yj + bj, xi, yi, ai);
  }
  if (ki === KIND_RECT && kj === KIND_RECT) return rectRectOf(xi, yi, xi + ai, yi + bi, xj, yj, xj + aj, yj + bj);
  return false;
}
