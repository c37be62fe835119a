// The refusal check of the grid queries, run when the world was made with checkViews: a value
// written through a view (NaN, an infinity, a number past MAX_COORD, a negative size) makes a pair
// query or a build refuse the call, and with the check a refused call changes nothing. The passes
// that would meet such a slot write the grid, the pair buffer and the stats as they go (without the
// check they refuse the call too, having written those), so the slots the call reads are checked
// first, before anything is written, with the
// facade's rule (shapeOk: every number at most MAX_COORD, sizes not negative), which is stricter
// than the passes' box test (boxOk), so no pass meets a slot it refuses: the check writes nothing
// but the invalid report, and that only when it refuses. Where the query already made a pass
// before its first write (crossPairs' and firstHits' counts of each side), the check is that pass.
import { H_A, H_B, H_GROUPS, H_KIND, H_X, H_Y, KIND_CIRCLE, KIND_NONE, KIND_RECT, MAX_COORD } from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { bit, ctz32, f32At, i32At, SIMD, u8At } from "../memory.ts";
import { shapeOk } from "./boxes.ts";
import { kinds4, sum4 } from "./simd.ts";
import { flushInvalid, invalidCount, noteInvalid, resetInvalid } from "./stats.ts";

// The live slots the last check counted in its two masks (crossPairs' and firstHits' choice of
// the side to index, counted in the same pass), and whether the last check counted them.
let liveA = 0;
let liveB = 0;
let counted = false;

/** A query that runs without the check: the next liveInBoth counts for itself. */
// @ts-ignore: decorator
@inline export function skipCheck(): void {
  counted = false;
}

/** Whether the last check counted the live slots of its masks (checkSides did; invalidSlots did not). */
// @ts-ignore: decorator
@inline export function checkCounted(): bool {
  return counted;
}

/** Live slots in maskA the last checkSides counted. */
// @ts-ignore: decorator
@inline export function checkedLiveA(): i32 {
  return liveA;
}

/** Live slots in maskB the last checkSides counted. */
// @ts-ignore: decorator
@inline export function checkedLiveB(): i32 {
  return liveB;
}

/**
 * How many live slots in [0, count) with (groups & (maskA | maskB)) != 0 hold numbers past the
 * facade's rule (shapeOk: NaN, an infinity, a magnitude past MAX_COORD, a negative size). When some do, their number and the
 * first into S_INVALID / S_FIRST_INVALID; otherwise writes nothing. Counts the live slots in maskA
 * and in maskB too (checkedLiveA, checkedLiveB).
 */
export function checkSides(count: i32, maskA: i32, maskB: i32): i32 {
  return check(count, maskA, maskB, true);
}

/** checkSides over `mask` without the counts (the queries that do not choose a side, and the facade's own check). */
export function invalidSlots(count: i32, mask: i32): i32 {
  return check(count, mask, 0, false);
}

/** The check, with the live counts when `counting` (a constant at both callers). */
// @ts-ignore: decorator
@inline function check(count: i32, maskA: i32, maskB: i32, counting: bool): i32 {
  resetInvalid();
  const mask = maskA | maskB;
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  let i = 0, na = 0, nb = 0;
  if (SIMD) {
    const maskv = i32x4.splat(mask), av = i32x4.splat(maskA), bv = i32x4.splat(maskB);
    const zero = i32x4.splat(0), circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
    const most = f32x4.splat(<f32>MAX_COORD), fzero = f32x4.splat(0);
    let ca = zero, cb = zero;
    for (; i + 4 <= count; i += 4) {
      // Sixteen slots outside the mask (the few enemies of a bullet hell) cost one test, as in the select pass.
      if ((i & 15) == 0 && i + 16 <= count) {
        const g = v128.or(v128.or(v128.load(gp + (i << 2)), v128.load(gp + (i << 2), 16)), v128.or(v128.load(gp + (i << 2), 32), v128.load(gp + (i << 2), 48)));
        if (!v128.any_true(v128.and(g, maskv))) { i += 12; continue; }
      }
      const k = kinds4(kp + i), g = v128.load(gp + (i << 2)), dead = i32x4.eq(k, zero);
      if (counting) {
        // A true lane is -1: subtracting counts it.
        ca = i32x4.sub(ca, v128.andnot(i32x4.ne(v128.and(g, av), zero), dead));
        cb = i32x4.sub(cb, v128.andnot(i32x4.ne(v128.and(g, bv), zero), dead));
      }
      const live = v128.andnot(i32x4.ne(v128.and(g, maskv), zero), dead);
      const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
      const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
      // shapeOk by lane: sizes the kind does not have are 0.
      const as = v128.and(a, i32x4.ge_u(k, circle)), bs = v128.and(b, i32x4.eq(k, rect));
      const ok = v128.and(v128.and(f32x4.lt(f32x4.abs(x), most), f32x4.lt(f32x4.abs(y), most)),
        v128.and(v128.and(f32x4.ge(as, fzero), f32x4.lt(as, most)), v128.and(f32x4.ge(bs, fzero), f32x4.lt(bs, most))));
      const bad = i32x4.bitmask(v128.andnot(live, ok));
      for (let bits = bad; bits != 0; bits &= bits - 1) noteInvalid(i + ctz32(bits));
    }
    if (counting) {
      na = sum4(ca);
      nb = sum4(cb);
    }
  }
  for (; i < count; i++) {
    const k = u8At(kp + i), g = i32At(gp + (i << 2));
    if ((g & mask) == 0 || k == KIND_NONE) continue;
    if (counting) {
      na += bit((g & maskA) != 0);
      nb += bit((g & maskB) != 0);
    }
    if (!shapeOk(k, f32At(xp + (i << 2)), f32At(yp + (i << 2)), f32At(ap + (i << 2)), f32At(bp + (i << 2)), <f32>MAX_COORD)) noteInvalid(i);
  }
  liveA = na;
  liveB = nb;
  counted = counting;
  const n = invalidCount();
  if (n > 0) flushInvalid();
  return n;
}
