// Ray and segment casts, swept boxes and swept circles against the level's rectangles, and the
// anti-tunneling projectile step built on them (the seed's "ray-casting each frame ... acting on
// whatever collision point was found closest"). Layout: layout/rects.ts.
//
// - A swept box is a segment cast against each rect grown by the box's half extents (Minkowski
//   sum); a swept circle is a segment cast against the rect rounded by the radius: the grown rect,
//   except that an entry in a corner square must also hit the corner's circle.
// - Candidates come from the quadtree with the bounding box of the whole sweep, so a cast costs
//   the pieces near its path, not the level.
// - Closest hit wins; equal distances go to the lower instance, then the lower rect, so the answer
//   does not depend on traversal order (the brute force and the tree agree).
// - A cast that starts inside a rect reports t = 0 and a zero normal.
import {
  CAST_BOX, CAST_CIRCLE, CAST_OUT_WORDS, PF_HIT, PF_INSIDE, RH_CANDS, RH_CAST_INSTANCE, RH_CAST_OUT,
  RH_CAST_RECT, RH_PFLAGS, RH_PR, RH_PVX, RH_PVY, RH_PX, RH_PY,
  SEARCH_TREE,
} from "../layout/rects.ts";
import {
  findCandidates, flushStats, rectEnd, rectStart, countRectTests, resetStats, rh, setRh, WORLD_RECT, worldRect,
} from "./rect_level.ts";

// The hit of the last castRect call, and the best hit of the current cast.
let ht: f64 = 0;
let hnx: f64 = 0;
let hny: f64 = 0;
export let bestT: f64 = 0;
export let bestNx: f64 = 0;
export let bestNy: f64 = 0;
export let bestInst = -1;
export let bestRect = -1;

/**
 * Segment p + t d, t in [0, 1], against the box (x0, y0, x1, y1) grown by (a, b) (and rounded by
 * `a` for a circle). On a hit sets ht, hnx, hny and returns true. Touching counts as a hit.
 */
export function castRect(mode: i32, px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  const gx0 = x0 - a, gx1 = x1 + a, gy0 = y0 - b, gy1 = y1 + b;
  let tn: f64 = -Infinity, tf: f64 = Infinity, nx: f64 = 0, ny: f64 = 0;
  // Slabs: the entry is the later of the two axes' entries (x wins ties), the exit the earlier exit.
  if (dx == 0) {
    if (px < gx0 || px > gx1) return false;
  } else {
    const t0 = (gx0 - px) / dx, t1 = (gx1 - px) / dx;
    tn = min(t0, t1); tf = max(t0, t1);
    nx = dx > 0 ? -1 : 1;
  }
  if (dy == 0) {
    if (py < gy0 || py > gy1) return false;
  } else {
    const t0 = (gy0 - py) / dy, t1 = (gy1 - py) / dy;
    const ten = min(t0, t1), tex = max(t0, t1), later = ten > tn;
    // Selects, not branches: which axis enters later changes from cast to cast.
    tn = select<f64>(ten, tn, later); nx = select<f64>(0, nx, later); ny = select<f64>(select<f64>(-1, 1, dy > 0), 0, later);
    tf = select<f64>(tex, tf, tex < tf);
  }
  if ((<i32>(tn > tf) | <i32>(tf < 0) | <i32>(tn > 1)) != 0) return false;
  if (tn < 0) {
    // Starts inside the grown box: inside the shape unless a circle starts in a corner square.
    if (tf == 0) return false; // on the boundary and leaving
    if (mode == CAST_CIRCLE) {
      const outX = px < x0 || px > x1, outY = py < y0 || py > y1;
      if (outX && outY) return cornerCast(px, py, dx, dy, a, px < x0 ? x0 : x1, py < y0 ? y0 : y1);
    }
    ht = 0; hnx = 0; hny = 0;
    return true;
  }
  if (mode == CAST_CIRCLE) {
    const hx = px + tn * dx, hy = py + tn * dy;
    // Entering a corner square of the grown box: the rounded rect there is the corner's circle.
    if ((hx < x0 || hx > x1) && (hy < y0 || hy > y1)) return cornerCast(px, py, dx, dy, a, hx < x0 ? x0 : x1, hy < y0 ? y0 : y1);
  }
  ht = tn; hnx = nx; hny = ny;
  return true;
}

/** Segment against the circle of radius r at (cx, cy): the first t in [0, 1] it touches. */
function cornerCast(px: f64, py: f64, dx: f64, dy: f64, r: f64, cx: f64, cy: f64): bool {
  const fx = px - cx, fy = py - cy;
  const c = fx * fx + fy * fy - r * r;
  if (c <= 0) { ht = 0; hnx = 0; hny = 0; return c < 0 || fx * dx + fy * dy < 0; }
  const a = dx * dx + dy * dy, b = fx * dx + fy * dy;
  if (b >= 0 || a == 0) return false; // moving away or not moving
  const disc = b * b - a * c;
  if (disc < 0) return false;
  const t = (-b - Math.sqrt(disc)) / a;
  if (t > 1) return false;
  ht = t < 0 ? 0 : t;
  hnx = (fx + ht * dx) / r;
  hny = (fy + ht * dy) / r;
  return true;
}

/** Casts against every rect of the candidate instances; keeps the closest (ties: lower instance, then rect). */
function castCandidates(n: i32, mode: i32, px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64): bool {
  const cands = rh(RH_CANDS);
  bestT = Infinity; bestInst = -1; bestRect = -1; bestNx = 0; bestNy = 0;
  for (let k = 0; k < n; k++) {
    const i = load<i32>(cands + (k << 2));
    const end = rectEnd(i);
    for (let r = rectStart(i); r < end; r++) {
      worldRect(i, r);
      countRectTests(1);
      const o = WORLD_RECT;
      if (!castRect(mode, px, py, dx, dy, a, b, load<f64>(o), load<f64>(o, 8), load<f64>(o, 16), load<f64>(o, 24))) continue;
      if (ht < bestT || (ht == bestT && (i < bestInst || (i == bestInst && r < bestRect)))) {
        bestT = ht; bestNx = hnx; bestNy = hny; bestInst = i; bestRect = r;
      }
    }
  }
  return bestInst >= 0;
}

/** Candidates for a sweep: instances whose master box meets the sweep's bounding box. */
function sweepCandidates(px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64, search: i32): i32 {
  const x0 = min(px, px + dx) - a, x1 = max(px, px + dx) + a;
  const y0 = min(py, py + dy) - b, y1 = max(py, py + dy) + b;
  return findCandidates(search, x0, y0, x1, y1, rh(RH_CANDS));
}

/**
 * rectsCast without its output and stats: the closest hit stays in bestT, bestNx, bestNy, bestInst
 * and bestRect (the world's cross-part sweep reads them there, once per body).
 */
export function castRectsQuiet(mode: i32, px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64): bool {
  if (mode == CAST_CIRCLE) b = a;
  else if (mode != CAST_BOX) { a = 0; b = 0; }
  const n = sweepCandidates(px, py, dx, dy, a, b, SEARCH_TREE);
  return n > 0 && castCandidates(n, mode, px, py, dx, dy, a, b);
}

/** castRectsQuiet over the `n` candidate instances already in RH_CANDS (each once). */
export function castRectsAmong(n: i32, mode: i32, px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64): bool {
  if (mode == CAST_CIRCLE) b = a;
  else if (mode != CAST_BOX) { a = 0; b = 0; }
  return castCandidates(n, mode, px, py, dx, dy, a, b);
}

/**
 * Casts a point (CAST_SEGMENT), a box of half extents (a, b) (CAST_BOX) or a circle of radius a
 * (CAST_CIRCLE) from (px, py) along (dx, dy) against the level's rects. Returns 1 on a hit: t,
 * normal and contact position in RH_CAST_OUT, instance and rect in the header; 0 otherwise.
 */
export function rectsCast(mode: i32, px: f64, py: f64, dx: f64, dy: f64, a: f64, b: f64, search: i32): i32 {
  resetStats();
  if (mode == CAST_CIRCLE) b = a;
  else if (mode != CAST_BOX) { a = 0; b = 0; }
  const n = sweepCandidates(px, py, dx, dy, a, b, search);
  const hit = castCandidates(n, mode, px, py, dx, dy, a, b);
  const out = rh(RH_CAST_OUT);
  memory.fill(out, 0, CAST_OUT_WORDS << 3);
  if (hit) {
    store<f64>(out, bestT);
    store<f64>(out, bestNx, 8);
    store<f64>(out, bestNy, 16);
    store<f64>(out, px + bestT * dx, 24);
    store<f64>(out, py + bestT * dy, 32);
  }
  setRh(RH_CAST_INSTANCE, hit ? bestInst : -1);
  setRh(RH_CAST_RECT, hit ? bestRect : -1);
  flushStats(hit ? 1 : 0);
  return hit ? 1 : 0;
}

/**
 * How far along the normal (nx, ny) a body stopped on a surface is put back, having moved from
 * (x, y) by (mx, my) to the hit: above the rounding of the stored f32 position at its magnitude,
 * so it stays off the surface. Each axis rounds by its own magnitude (at most |x| + |mx| on x),
 * weighed by the normal's share of that axis, so a long sideways move stopped by a floor stays on it.
 */
// @ts-ignore: decorator
@inline export function stopSkin(nx: f64, ny: f64, x: f64, y: f64, mx: f64, my: f64): f64 {
  return 1e-3 + (abs(nx) * (abs(x) + abs(mx)) + abs(ny) * (abs(y) + abs(my))) * 2.384185791015625e-7;
}

// stopOnPath's answer: the fraction of its move a body stops at, and how far along the hit's
// normal it is then put.
export let stopT: f64 = 0;
export let stopPush: f64 = 0;

/**
 * Where a body moving from (x, y) by (dx, dy) that hits at `t` with normal (nx, ny) stops: a skin
 * (stopSkin) off the hit, back along its own path, since every point of the path before the
 * contact is clear of every shape, where a push along the normal could land it in a neighbour (a
 * gap its own width, a seam beside the hit). Only the part of the skin the path cannot give (a
 * contact less than a skin from the start) is taken along the normal. Into stopT and stopPush.
 */
// @ts-ignore: decorator
@inline export function stopOnPath(t: f64, nx: f64, ny: f64, x: f64, y: f64, dx: f64, dy: f64): void {
  const dn = dx * nx + dy * ny;
  let stop = t, push = stopSkin(nx, ny, x, y, t * dx, t * dy);
  if (dn < 0) {
    const back = push / -dn;
    if (back <= t) {
      stop = t - back; push = 0;
    } else {
      stop = 0; push += t * dn;
    }
  }
  stopT = stop; stopPush = push;
}

/**
 * Moves `count` projectiles (circles; radius 0 is a point) by their velocity without tunneling:
 * each sweeps its path, stops a skin short of the closest hit (stopOnPath) and reflects its
 * velocity off the hit normal (the rest of that frame's motion is dropped). Returns how many hit;
 * PF_* per projectile.
 */
export function rectsMoveProjectiles(count: i32, search: i32): i32 {
  resetStats();
  const xp = rh(RH_PX), yp = rh(RH_PY), vxp = rh(RH_PVX), vyp = rh(RH_PVY), rp = rh(RH_PR), fp = rh(RH_PFLAGS);
  let hits = 0;
  for (let q = 0; q < count; q++) {
    const o = q << 2;
    const px = <f64>load<f32>(xp + o), py = <f64>load<f32>(yp + o);
    let vx = <f64>load<f32>(vxp + o), vy = <f64>load<f32>(vyp + o);
    const r = <f64>load<f32>(rp + o);
    const mode = r > 0 ? CAST_CIRCLE : 0;
    const n = sweepCandidates(px, py, vx, vy, r, r, search);
    if (!castCandidates(n, mode, px, py, vx, vy, r, r)) {
      store<f32>(xp + o, <f32>(px + vx));
      store<f32>(yp + o, <f32>(py + vy));
      store<i32>(fp + o, 0);
      continue;
    }
    hits++;
    if (bestNx == 0 && bestNy == 0) { store<i32>(fp + o, PF_INSIDE); continue; }
    stopOnPath(bestT, bestNx, bestNy, px, py, vx, vy);
    store<f32>(xp + o, <f32>(px + stopT * vx + bestNx * stopPush));
    store<f32>(yp + o, <f32>(py + stopT * vy + bestNy * stopPush));
    const dot = vx * bestNx + vy * bestNy;
    vx -= 2 * dot * bestNx;
    vy -= 2 * dot * bestNy;
    store<f32>(vxp + o, <f32>vx);
    store<f32>(vyp + o, <f32>vy);
    store<i32>(fp + o, PF_HIT);
  }
  flushStats(hits);
  return hits;
}
