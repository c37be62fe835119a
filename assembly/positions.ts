// World.setPositions' kernel: the facade copies a game's f64 x and y arrays into the planes scratch
// (free between calls) with two byte copies, and this pass checks them and writes them to the f32
// stores. Writing the f32 views from f64 arrays with TypedArray.set converts number by number in
// the engine: 11.4 us for 10,300 x and y on the machine measured, where the copies and the SIMD
// build of this pass take 6.6 (`npm run bench`'s positions table).
import { H_CAPACITY, H_PLANES, H_X, H_Y, MAX_COORD, PLANE_SLACK } from "../bindings/layout";
import { hdr } from "./header";

/**
 * Slots [0, n) take x and y from the f64s staged at H_PLANES (x) and 8 * (CAPACITY + PLANE_SLACK)
 * bytes later (y). Returns -1 after writing them, or the first slot whose x or y is not a finite
 * number of magnitude at most MAX_COORD (the facade's checkCoord), writing nothing.
 */
export function setPositions(n: i32): i32 {
  const xs = hdr(H_PLANES), ys = xs + ((hdr(H_CAPACITY) + PLANE_SLACK) << 3);
  const xp = hdr(H_X), yp = hdr(H_Y);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    // Four slots a step: the check as one and of lane masks (NaN fails the compare), then the
    // conversion as two f64x2 demotions per axis joined into one f32x4.
    const most = f64x2.splat(MAX_COORD);
    let ok = i64x2.splat(-1);
    for (; i + 4 <= n; i += 4) {
      const o = i << 3;
      const x = v128.and(f64x2.le(f64x2.abs(v128.load(xs + o)), most), f64x2.le(f64x2.abs(v128.load(xs + o, 16)), most));
      const y = v128.and(f64x2.le(f64x2.abs(v128.load(ys + o)), most), f64x2.le(f64x2.abs(v128.load(ys + o, 16)), most));
      ok = v128.and(ok, v128.and(x, y));
    }
    if (!i64x2.all_true(ok)) i = 0; // the loop below finds the slot
  }
  for (; i < n; i++) {
    const x = load<f64>(xs + (i << 3)), y = load<f64>(ys + (i << 3));
    if (!(Math.abs(x) <= MAX_COORD && Math.abs(y) <= MAX_COORD)) return i;
  }
  i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      const o = i << 3;
      v128.store(xp + (i << 2), i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(xs + o)), f32x4.demote_f64x2_zero(v128.load(xs + o, 16)), 0, 1, 4, 5));
      v128.store(yp + (i << 2), i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(ys + o)), f32x4.demote_f64x2_zero(v128.load(ys + o, 16)), 0, 1, 4, 5));
    }
  }
  for (; i < n; i++) {
    store<f32>(xp + (i << 2), <f32>load<f64>(xs + (i << 3)));
    store<f32>(yp + (i << 2), <f32>load<f64>(ys + (i << 3)));
  }
  return -1;
}
