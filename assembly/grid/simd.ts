// The SIMD build's shared pieces: scratch in static data, lane helpers, and the record planes.
// Everything here runs only where SIMD is true (asc's SIMD build): the js backend and the scalar
// build never call it, and the static data is reserved only when SIMD.
import { ENTRY_BYTES, KIND_CIRCLE, KIND_RECT, KIND_SHIFT, MAX_COORD, REACH_EXACT } from "../../layout/grid.ts";
import { f32At, i32At, pick, setF32, setI32, SIMD, u8At } from "../memory.ts";
import { boxLo, boxX1, boxY1 } from "./boxes.ts";

// Where vector lanes go to leave the registers one by one (the select pass, homeLanes, the
// walk's hitAt when the pair buffer is full; never two of them at once): five vectors. The
// select pass's spare histogram counter is the fifth.
export const LANES: i32 = SIMD ? <i32>memory.data(80, 16) : 0;

// For each four-bit lane mask, the byte shuffle that packs its lanes' i32s to the front, in order.
export const PACK: i32 = SIMD ? <i32>memory.data<u8>([
  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80,
  12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
], 16) : 0;

/** The kinds (u8) of four consecutive slots, one per i32 lane. */
// @ts-ignore: decorator
@inline export function kinds4(p: i32): v128 {
  return i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p)));
}

/** Whether none of the four group words at p has a bit of `mask` (SIMD build). */
// @ts-ignore: decorator
@inline export function noneInMask4(p: i32, mask: i32): bool {
  return !v128.any_true(v128.and(v128.load(p), i32x4.splat(mask)));
}

/** The sum of four i32 lanes. */
// @ts-ignore: decorator
@inline export function sum4(v: v128): i32 {
  return i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3);
}

/** The least (or with `most`, the greatest) of four f32 lanes, by plain compares. */
// @ts-ignore: decorator
@inline export function min4(v: v128, most: bool): f32 {
  const h = f32x4.shuffle(v, v, 2, 3, 0, 1);
  const w = most ? f32x4.pmax(v, h) : f32x4.pmin(v, h);
  const l0 = f32x4.extract_lane(w, 0), l1 = f32x4.extract_lane(w, 1);
  return most ? pick(l1, l0, l1 > l0) : pick(l1, l0, l1 < l0);
}

/**
 * shapeOk by lane (boxes.ts): live lanes whose x and y are of magnitude below MAX_COORD and whose
 * sizes (`as`: a of circles and rects, else 0; `bRect`: b of rects, else 0) are in [0, MAX_COORD);
 * NaN fails every comparison.
 */
// @ts-ignore: decorator
@inline export function shapeOk4(live: v128, x: v128, y: v128, as: v128, bRect: v128): v128 {
  const most = f32x4.splat(<f32>MAX_COORD), zero = f32x4.splat(0);
  const coords = v128.and(f32x4.lt(f32x4.abs(x), most), f32x4.lt(f32x4.abs(y), most));
  const sizes = v128.and(v128.and(f32x4.ge(as, zero), f32x4.lt(as, most)), v128.and(f32x4.ge(bRect, zero), f32x4.lt(bRect, most)));
  return v128.and(live, v128.and(coords, sizes));
}

/** cellOf by lane (trunc_sat is the scalar conversion; lanes below 1, NaN among them, become 0 as there). */
// @ts-ignore: decorator
@inline export function cellsOf(v: v128, origin: v128, inv: v128, last: v128): v128 {
  const t = f32x4.mul(f32x4.sub(v, origin), inv);
  return i32x4.min_s(i32x4.max_s(i32x4.trunc_sat_f32x4_s(t), i32x4.splat(0)), last);
}

/** The f32s of four slots in one vector. */
// @ts-ignore: decorator
@inline export function gather(p: i32, i0: i32, i1: i32, i2: i32, i3: i32): v128 {
  const v = f32x4.replace_lane(f32x4.splat(f32At(p + (i0 << 2))), 1, f32At(p + (i1 << 2)));
  return f32x4.replace_lane(f32x4.replace_lane(v, 2, f32At(p + (i2 << 2))), 3, f32At(p + (i3 << 2)));
}

/** The u8s of four slots, one per i32 lane. */
// @ts-ignore: decorator
@inline export function gatherU8(p: i32, i0: i32, i1: i32, i2: i32, i3: i32): v128 {
  const v = i32x4.replace_lane(i32x4.splat(u8At(p + i0)), 1, u8At(p + i1));
  return i32x4.replace_lane(i32x4.replace_lane(v, 2, u8At(p + i2)), 3, u8At(p + i3));
}

/** Each i32 lane plus the lanes before it (two shifted adds). */
// @ts-ignore: decorator
@inline export function scan4(v: v128): v128 {
  const zero = i32x4.splat(0);
  const s1 = i32x4.add(v, i8x16.shuffle(zero, v, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
  return i32x4.add(s1, i8x16.shuffle(zero, s1, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
}

/** Which of the four plane boxes at p overlap box x0..y1 (splat in each lane; edges touching count), as recordOverlaps. */
// @ts-ignore: decorator
@inline export function planeOverlap(p: i32, stride: i32, x0: v128, y0: v128, x1: v128, y1: v128): v128 {
  return v128.and(v128.and(f32x4.le(v128.load(p), x1), f32x4.le(v128.load(p + stride), y1)),
    v128.and(f32x4.ge(v128.load(p + 2 * stride), x0), f32x4.ge(v128.load(p + 3 * stride), y0)));
}

/** The box of the entry record at `f` into four planes from `o`, `stride` bytes apart (x0, y0, x1, y1). */
// @ts-ignore: decorator
@inline export function boxPlanes(f: i32, o: i32, stride: i32): void {
  const k = i32At(f) >>> KIND_SHIFT;
  const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
  setF32(o, boxLo(k, x, a));
  setF32(o + stride, boxLo(k, y, a));
  setF32(o + 2 * stride, boxX1(k, x, a));
  setF32(o + 3 * stride, boxY1(k, y, a, b));
}

/**
 * The box of every entry record [0, n), as recordOverlaps computes it, into four planes (x0s, y0s,
 * x1s, y1s, `stride` bytes apart): the SIMD walk and probes then test four records with four loads.
 * Each record's cell field goes to cellp (i32 per record; H_HOME, free once the scatter has read
 * it), or with `tags` (a reach grid) its tag, with the cell field's REACH_EXACT bit (H_LARGE).
 * Four records a step: (tag, x, y, a) and (y, a, b, cell) of each loaded as two vectors and
 * transposed, the boxes by lane, one vector store per plane where a record at a time takes four
 * loads and four stores; the cells go to their own array, so the walk's first pass reads four
 * bytes an entity instead of a 24-byte record. The last records go one at a time.
 */
export function fillPlanes(entp: i32, n: i32, planep: i32, stride: i32, cellp: i32, tags: bool): void {
  const circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  const tagMask = i32x4.splat(tags ? -1 : 0), fieldMask = i32x4.splat(tags ? REACH_EXACT : -1);
  let p = 0;
  for (; p + 4 <= n; p += 4) {
    const e = entp + p * ENTRY_BYTES;
    const l0 = v128.load(e), l1 = v128.load(e + ENTRY_BYTES), l2 = v128.load(e + 2 * ENTRY_BYTES), l3 = v128.load(e + 3 * ENTRY_BYTES);
    const h0 = v128.load(e, 8), h1 = v128.load(e + ENTRY_BYTES, 8), h2 = v128.load(e + 2 * ENTRY_BYTES, 8), h3 = v128.load(e + 3 * ENTRY_BYTES, 8);
    const t0 = i32x4.shuffle(l0, l1, 0, 4, 1, 5), t1 = i32x4.shuffle(l2, l3, 0, 4, 1, 5);
    const t2 = i32x4.shuffle(l0, l1, 2, 6, 3, 7), t3 = i32x4.shuffle(l2, l3, 2, 6, 3, 7);
    const u0 = i32x4.shuffle(h0, h1, 2, 6, 3, 7), u1 = i32x4.shuffle(h2, h3, 2, 6, 3, 7);
    const tag = i32x4.shuffle(t0, t1, 0, 1, 4, 5), k = i32x4.shr_u(tag, KIND_SHIFT);
    const x = i32x4.shuffle(t0, t1, 2, 3, 6, 7), y = i32x4.shuffle(t2, t3, 0, 1, 4, 5), a = i32x4.shuffle(t2, t3, 2, 3, 6, 7);
    const b = i32x4.shuffle(u0, u1, 0, 1, 4, 5);
    const ac = v128.and(a, i32x4.eq(k, circle));
    const o = planep + (p << 2);
    v128.store(o, f32x4.sub(x, ac));
    v128.store(o + stride, f32x4.sub(y, ac));
    v128.store(o + 2 * stride, f32x4.add(x, v128.and(a, i32x4.ge_u(k, circle))));
    v128.store(o + 3 * stride, f32x4.add(y, v128.bitselect(b, ac, i32x4.eq(k, rect))));
    v128.store(cellp + (p << 2), v128.or(v128.and(tag, tagMask), v128.and(i32x4.shuffle(u0, u1, 2, 3, 6, 7), fieldMask)));
  }
  for (; p < n; p++) {
    const f = entp + p * ENTRY_BYTES;
    boxPlanes(f, planep + (p << 2), stride);
    const field = i32At(f + 20);
    setI32(cellp + (p << 2), tags ? i32At(f) | (field & REACH_EXACT) : field);
  }
}
