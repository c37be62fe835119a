// The plain double loops the crowded-cell bench (bench/crowded.ts) times against the grid: every
// pair of the selected slots through the core's own exact test (assembly/shapes.ts), with no grid
// and no box test first, the pairs written as the core writes them (up to the capacity, the total
// counted). Compiled by asc on its own (bench/crowded.ts runs it), scalar, over a memory of its
// own into which the bench copies a world's stores: x, y, a, b (f32), groups (u32), kinds (u8),
// each region `n` slots long.
import { KIND_CIRCLE, KIND_NONE, KIND_POINT, KIND_RECT } from "../../layout/grid.ts";
import { circleCircle, overlapShapes, rectRect } from "../../assembly/shapes.ts";

/** Gathers the live slots in `mask` into `out` (i32); returns how many. */
function gather(n: i32, gp: i32, kp: i32, mask: i32, out: i32): i32 {
  let m = 0;
  for (let i = 0; i < n; i++) {
    if ((load<i32>(gp + (i << 2)) & mask) == 0 || load<u8>(kp + i) == KIND_NONE) continue;
    store<i32>(out + (m << 2), i);
    m++;
  }
  return m;
}

/**
 * The core's exact test of slots i (its shape ki, xi, yi, ai, bi) and j: two shapes of one kind
 * inline (the loops mostly meet those), mixed kinds through overlapShapes. j's size is loaded only
 * when its kind needs it.
 */
// @ts-ignore: decorator
@inline function overlaps(ki: i32, xi: f64, yi: f64, ai: f64, bi: f64, kp: i32, xp: i32, yp: i32, ap: i32, bp: i32, j: i32): bool {
  const kj = load<u8>(kp + j), xj: f64 = load<f32>(xp + (j << 2)), yj: f64 = load<f32>(yp + (j << 2));
  if (ki == kj && ki == KIND_POINT) return xi == xj && yi == yj;
  const aj: f64 = load<f32>(ap + (j << 2)), bj: f64 = load<f32>(bp + (j << 2));
  if (ki == kj && ki == KIND_CIRCLE) return circleCircle(xi, yi, ai, xj, yj, aj);
  if (ki == kj && ki == KIND_RECT) return rectRect(xi, yi, xi + ai, yi + bi, xj, yj, xj + aj, yj + bj);
  return overlapShapes(ki, xi, yi, ai, bi, kj, xj, yj, aj, bj);
}

// @ts-ignore: decorator
@inline function emit(pairp: i32, cap: i32, found: i32, i: i32, j: i32): void {
  if (found < cap) {
    store<i32>(pairp + (found << 3), i);
    store<i32>(pairp + (found << 3) + 4, j);
  }
}

/** selfPairs: every (i, j), i < j, of the live slots in `mask`; returns the total. `list` is scratch for n i32s. */
export function selfPairs(n: i32, xp: i32, yp: i32, ap: i32, bp: i32, gp: i32, kp: i32, mask: i32, list: i32, pairp: i32, cap: i32): i32 {
  const m = gather(n, gp, kp, mask, list);
  let found = 0;
  for (let p = 0; p < m; p++) {
    const i = load<i32>(list + (p << 2)), ki = load<u8>(kp + i);
    const xi: f64 = load<f32>(xp + (i << 2)), yi: f64 = load<f32>(yp + (i << 2)), ai: f64 = load<f32>(ap + (i << 2)), bi: f64 = load<f32>(bp + (i << 2));
    for (let q = p + 1; q < m; q++) {
      const j = load<i32>(list + (q << 2));
      if (!overlaps(ki, xi, yi, ai, bi, kp, xp, yp, ap, bp, j)) continue;
      emit(pairp, cap, found, i, j);
      found++;
    }
  }
  return found;
}

/** crossPairs: every (a, b), a in maskA, b in maskB, a != b; returns the total. `list` is scratch for 2n i32s. */
export function crossPairs(n: i32, xp: i32, yp: i32, ap: i32, bp: i32, gp: i32, kp: i32, maskA: i32, maskB: i32, list: i32, pairp: i32, cap: i32): i32 {
  const na = gather(n, gp, kp, maskA, list), listB = list + (n << 2), nb = gather(n, gp, kp, maskB, listB);
  let found = 0;
  for (let p = 0; p < na; p++) {
    const i = load<i32>(list + (p << 2)), ki = load<u8>(kp + i);
    const xi: f64 = load<f32>(xp + (i << 2)), yi: f64 = load<f32>(yp + (i << 2)), ai: f64 = load<f32>(ap + (i << 2)), bi: f64 = load<f32>(bp + (i << 2));
    for (let q = 0; q < nb; q++) {
      const j = load<i32>(listB + (q << 2));
      if (i == j || !overlaps(ki, xi, yi, ai, bi, kp, xp, yp, ap, bp, j)) continue;
      emit(pairp, cap, found, i, j);
      found++;
    }
  }
  return found;
}

/**
 * firstHits: bullets (maskA) in slot order each stop at the lowest-slot enemy (maskB) they overlap;
 * with `exclusive` an enemy absorbs one bullet. Flags (1 stopped, 2 hit) per slot at `flagp`;
 * returns the hits.
 */
export function firstHits(n: i32, xp: i32, yp: i32, ap: i32, bp: i32, gp: i32, kp: i32, maskA: i32, maskB: i32, exclusive: bool, flagp: i32, list: i32, pairp: i32, cap: i32): i32 {
  const na = gather(n, gp, kp, maskA, list), listB = list + (n << 2), nb = gather(n, gp, kp, maskB, listB);
  memory.fill(flagp, 0, n);
  let found = 0;
  for (let p = 0; p < na; p++) {
    const i = load<i32>(list + (p << 2)), ki = load<u8>(kp + i);
    const xi: f64 = load<f32>(xp + (i << 2)), yi: f64 = load<f32>(yp + (i << 2)), ai: f64 = load<f32>(ap + (i << 2)), bi: f64 = load<f32>(bp + (i << 2));
    for (let q = 0; q < nb; q++) {
      const j = load<i32>(listB + (q << 2));
      if (i == j || (exclusive && (load<u8>(flagp + j) & 2) != 0) || !overlaps(ki, xi, yi, ai, bi, kp, xp, yp, ap, bp, j)) continue;
      store<u8>(flagp + j, load<u8>(flagp + j) | 2);
      store<u8>(flagp + i, load<u8>(flagp + i) | 1);
      emit(pairp, cap, found, i, j);
      found++;
      break;
    }
  }
  return found;
}
