// World.setPositions' kernel: the facade copies a game's f64 x and y arrays into the planes scratch
// (free between calls) with two byte copies, and this pass checks them and writes them to the f32
// stores. Writing the f32 views from f64 arrays with TypedArray.set converts number by number in
// the engine; the copies and the SIMD build of this pass take about half that time (`npm run
// bench`'s positions table).
import { H_CAPACITY, H_PLANES, H_X, H_Y, MAX_COORD, MAX_COORD_INPUT, PLANE_SLACK } from "../layout/grid.ts";
import { hdr } from "./header.ts";
import { SIMD, copy, f32At, f64At, setF32, toF32 } from "./memory.ts";

/**
 * Slots [0, n) take x and y from the f64s staged at H_PLANES (x) and 8 * (CAPACITY + PLANE_SLACK)
 * bytes later (y). Returns -1 after writing them, or the first slot whose x or y, rounded to f32 as
 * the store holds it, is not a finite number of magnitude at most MAX_COORD (the facade's
 * checkCoord), writing nothing outside the staging planes (which no call reads before writing).
 */
export function setPositions(n: i32): i32 {
  return SIMD ? setPositionsSimd(n) : setPositionsScalar(0, n);
}

/**
 * setPositions four slots a step, in one pass: each axis as two f64x2 demotions joined into one
 * f32x4, checked and written back over the staged f64s it was read from (slot i's f32 lands at
 * byte 4i of its plane, at or before the f64s of slots i and up, so nothing is overwritten before
 * it is read); copied to the stores when every number passed. A lane below MAX_COORD as an f32 (it
 * rounds up to the next f32, and NaN is not below it) is exactly a number whose f32 is at most
 * MAX_COORD: the check is the facade's, and a failed lane is refused without going back to the f64s.
 */
function setPositionsSimd(n: i32): i32 {
  const xs = hdr(H_PLANES), ys = xs + ((hdr(H_CAPACITY) + PLANE_SLACK) << 3);
  const most = f32x4.splat(<f32>MAX_COORD);
  let ok = i32x4.splat(-1), i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = i << 3;
    const x = i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(xs + o)), f32x4.demote_f64x2_zero(v128.load(xs + o, 16)), 0, 1, 4, 5);
    const y = i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(ys + o)), f32x4.demote_f64x2_zero(v128.load(ys + o, 16)), 0, 1, 4, 5);
    ok = v128.and(ok, v128.and(f32x4.lt(f32x4.abs(x), most), f32x4.lt(f32x4.abs(y), most)));
    v128.store(xs + (i << 2), x);
    v128.store(ys + (i << 2), y);
  }
  if (!i32x4.all_true(ok)) return firstBadRounded(xs, ys, i);
  const bad = checkPositions(i, n);
  if (bad >= 0) return bad;
  copy(hdr(H_X), xs, i << 2);
  copy(hdr(H_Y), ys, i << 2);
  writePositions(i, n);
  return -1;
}

/** The first of slots [0, m) whose f32 x or y, packed at xs and ys, is past MAX_COORD or not finite (one is). */
function firstBadRounded(xs: i32, ys: i32, m: i32): i32 {
  for (let j = 0; j < m; j++) {
    const x = <f64>f32At(xs + (j << 2)), y = <f64>f32At(ys + (j << 2));
    if (!(Math.abs(x) <= MAX_COORD && Math.abs(y) <= MAX_COORD)) return j;
  }
  return m;
}

/** setPositions from slot `from` on, a slot at a time: the exact check of every slot first, then the writes. */
function setPositionsScalar(from: i32, n: i32): i32 {
  const bad = checkPositions(from, n);
  if (bad >= 0) return bad;
  writePositions(from, n);
  return -1;
}

/** The first slot in [from, n) whose staged x or y, rounded to f32, would not be a finite number of magnitude at most MAX_COORD (MAX_COORD_INPUT), or -1. */
function checkPositions(from: i32, n: i32): i32 {
  const xs = hdr(H_PLANES), ys = xs + ((hdr(H_CAPACITY) + PLANE_SLACK) << 3);
  for (let j = from; j < n; j++) {
    const x = f64At(xs + (j << 3)), y = f64At(ys + (j << 3));
    if (!(Math.abs(x) <= MAX_COORD_INPUT && Math.abs(y) <= MAX_COORD_INPUT)) return j;
  }
  return -1;
}

/** Slots [from, n) take their staged x and y, rounded to f32. */
function writePositions(from: i32, n: i32): void {
  const xs = hdr(H_PLANES), ys = xs + ((hdr(H_CAPACITY) + PLANE_SLACK) << 3), xp = hdr(H_X), yp = hdr(H_Y);
  for (let i = from; i < n; i++) {
    setF32(xp + (i << 2), toF32(f64At(xs + (i << 3))));
    setF32(yp + (i << 2), toF32(f64At(ys + (i << 3))));
  }
}
