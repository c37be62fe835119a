// The refusal every grid query and build makes: a value written through a view (NaN, an
// infinity, a number past MAX_COORD, a negative size) in a slot the call reads makes it refuse,
// with the number of such slots and the first in S_INVALID / S_FIRST_INVALID. Every pass that
// reads a slot's numbers tests them with the facade's rule (shapeOk) and skips and notes a slot
// it refuses, so no pass builds a box from such a slot, and a pass that has tested every live slot
// of a mask says so (noteChecked). A query that writes only scratch and the header until it
// answers (selfPairs, crossPairs) refuses at its end from what its passes noted (checkedAfter); a
// query that writes what later calls read before its passes are done (buildGrid, firstHits,
// controllerContacts) runs the check pass first (invalidSlots), which writes nothing but the
// report, and that only when it refuses.
//
// The check pass is two passes, so that a frame pays for one plane read per number: allOk reads
// x, y, a and b of every slot with no branch (a world nobody wrote a bad value into through a
// view passes it), and only when it fails does the exact pass look at kinds and groups to decide
// whether the bad value is one the call reads.
import { H_A, H_B, H_GROUPS, H_KIND, H_X, H_Y, KIND_NONE, MAX_COORD } from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { f32At, f32Bits, i32At, SIMD, u8At } from "../memory.ts";
import { shapeOk } from "./boxes.ts";
import { allChecked, flushInvalid, invalidCount, noteInvalid, resetInvalid } from "./stats.ts";

/**
 * The end of a query whose passes checked the slots as they read them: `total` when they noted no
 * refused slot and tested every live slot in `mask` (allChecked), else the check pass over `mask`
 * decides, 0 with its report (the one a refusal before the passes gives) or `total`. A path that
 * left a side unread (an empty grid is not probed) pays for the check pass; no other does.
 */
export function checkedAfter(total: i32, count: i32, mask: i32): i32 {
  if (invalidCount() == 0 && allChecked(mask)) return total;
  return invalidSlots(count, mask) != 0 ? 0 : total;
}

/**
 * How many live slots in [0, count) with (groups & mask) != 0 hold numbers past the facade's rule
 * (shapeOk: NaN, an infinity, a magnitude at or past MAX_COORD, a negative size). When some do,
 * their number and the first into S_INVALID / S_FIRST_INVALID; otherwise writes nothing.
 */
export function invalidSlots(count: i32, mask: i32): i32 {
  resetInvalid();
  if (allOk(count)) return 0;
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  for (let i = 0; i < count; i++) {
    const k = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || k == KIND_NONE) continue;
    if (!shapeOk(k, f32At(xp + (i << 2)), f32At(yp + (i << 2)), f32At(ap + (i << 2)), f32At(bp + (i << 2)), <f32>MAX_COORD)) noteInvalid(i);
  }
  const n = invalidCount();
  if (n > 0) flushInvalid();
  return n;
}

/**
 * Whether every slot in [0, count), whatever its kind, groups or liveness, holds |x| and |y|
 * below MAX_COORD and a and b in [+0, MAX_COORD). The facade writes +0 for the sizes a kind does
 * not have and sizes as +0 rather than -0 (World.write), and a removed slot keeps the numbers it
 * had, so this holds in every world nobody wrote a bad value into through a view.
 * On the bits: a magnitude below MAX_COORD is (bits << 1) below MAX_COORD's bits << 1, and a
 * size in [+0, MAX_COORD) has bits below MAX_COORD's (a negative size, -0 among them, has the
 * sign bit; NaN's bits are past an infinity's). The SIMD pass keeps two unsigned maxima; the
 * scalar pass takes two slots per 64-bit load and tests each 32-bit lane with an add, in half the
 * time or-ed comparisons take on the scalar core (the js backend, which splits 64-bit words in
 * two, takes as long either way); the SIMD pass's last slots or their comparisons.
 */
function allOk(count: i32): bool {
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const most = <u32>f32Bits(<f32>MAX_COORD), most2 = most << 1;
  if (SIMD) {
    let i = 0, xy = i32x4.splat(0), ab = i32x4.splat(0);
    for (; i + 4 <= count; i += 4) {
      const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
      const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
      xy = i32x4.max_u(xy, i32x4.max_u(i32x4.shl(x, 1), i32x4.shl(y, 1)));
      ab = i32x4.max_u(ab, i32x4.max_u(a, b));
    }
    let bad = false;
    for (; i < count; i++) {
      const o = i << 2;
      bad |= (<u32>i32At(xp + o) << 1 >= most2) | (<u32>i32At(yp + o) << 1 >= most2) | (<u32>i32At(ap + o) >= most) | (<u32>i32At(bp + o) >= most);
    }
    return i32x4.all_true(v128.and(i32x4.lt_u(xy, i32x4.splat(most2)), i32x4.lt_u(ab, i32x4.splat(most)))) && !bad;
  }
  // Two slots per 64-bit load, each 32-bit lane tested by an add: lane + (2^31 - most) sets the
  // lane's top bit exactly when the lane (below 2^31) is at or past `most`. x and y lose their
  // sign bit first; a size with its top bit set is bad as it is, and only such a low lane can
  // carry into the high one. One or-ed accumulator, tested once. An odd count reads slot `count`
  // too, inside the planes (capacity + 1 slots); a bad value there only sends the call to the
  // exact pass, which reads [0, count).
  const lanes: u64 = 0x0000000100000001, top: u64 = 0x8000000080000000;
  const k = <u64>(0x80000000 - most) * lanes, abs = ~top;
  let acc: u64 = 0;
  for (let i = 0; i < count; i += 2) {
    const o = i << 2;
    const x = load<u64>(xp + o), y = load<u64>(yp + o), a = load<u64>(ap + o), b = load<u64>(bp + o);
    acc |= ((x & abs) + k) | ((y & abs) + k) | a | (a + k) | b | (b + k);
  }
  return (acc & top) == 0;
}
