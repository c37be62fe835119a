// World.setPositions' kernel: the facade copies a game's f64 x and y arrays into the planes scratch
// (free between calls) with two byte copies, and this pass checks them and writes them to the f32
// stores. Writing the f32 views from f64 arrays with TypedArray.set converts number by number in
// the engine: 10.3 us for 10,300 x and y on the machine measured, where the copies and the SIMD
// build of this pass take 5.3 (`npm run bench`'s positions table; 5.8 when the SIMD pass checked
// the f64s first and converted them in a second pass).
import { H_BOX, H_CAPACITY, H_PLANES, H_X, H_Y, MAX_COORD, PLANE_SLACK } from "../layout/grid.ts";
import { hdr } from "./header.ts";
import { SIMD, copy, f64At, setF32, toF32 } from "./memory.ts";

/**
 * Slots [0, n) take x and y from the f64s staged at H_PLANES (x) and 8 * (CAPACITY + PLANE_SLACK)
 * bytes later (y). Returns -1 after writing them, or the first slot whose x or y is not a finite
 * number of magnitude at most MAX_COORD (the facade's checkCoord), writing nothing.
 */
export function setPositions(n: i32): i32 {
  const xs = hdr(H_PLANES), ys = xs + ((hdr(H_CAPACITY) + PLANE_SLACK) << 3);
  const xp = hdr(H_X), yp = hdr(H_Y), tx = hdr(H_BOX), ty = tx + (((n + 3) & ~3) << 2);
  let i = 0;
  if (SIMD) {
    // Four slots a step, in one pass: each axis as two f64x2 demotions joined into one f32x4,
    // written to H_BOX (scratch, 16 bytes a slot) and checked there; copied to the stores below
    // when every number passed. The check is on the f32s: rounding keeps order, so an |x| past
    // MAX_COORD rounds to at least MAX_COORD in f32, and a lane below that in f32 (NaN is not)
    // was at most MAX_COORD. When a lane is not below it (rare), the exact check takes every slot.
    const most = f32x4.splat(<f32>MAX_COORD);
    let ok = i32x4.splat(-1);
    for (; i + 4 <= n; i += 4) {
      const o = i << 3;
      const x = i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(xs + o)), f32x4.demote_f64x2_zero(v128.load(xs + o, 16)), 0, 1, 4, 5);
      const y = i32x4.shuffle(f32x4.demote_f64x2_zero(v128.load(ys + o)), f32x4.demote_f64x2_zero(v128.load(ys + o, 16)), 0, 1, 4, 5);
      ok = v128.and(ok, v128.and(f32x4.lt(f32x4.abs(x), most), f32x4.lt(f32x4.abs(y), most)));
      v128.store(tx + (i << 2), x);
      v128.store(ty + (i << 2), y);
    }
    if (!i32x4.all_true(ok)) i = 0;
  }
  // The exact check of the slots the SIMD pass did not check (all of them in the scalar build),
  // before anything is written.
  for (let j = i; j < n; j++) {
    const x = f64At(xs + (j << 3)), y = f64At(ys + (j << 3));
    if (!(Math.abs(x) <= MAX_COORD && Math.abs(y) <= MAX_COORD)) return j;
  }
  if (SIMD && i > 0) {
    copy(xp, tx, i << 2);
    copy(yp, ty, i << 2);
  }
  for (; i < n; i++) {
    setF32(xp + (i << 2), toF32(f64At(xs + (i << 3))));
    setF32(yp + (i << 2), toF32(f64At(ys + (i << 3))));
  }
  return -1;
}
