// Pass 3 of a home grid, and the prefix sums between the passes: the counts per cell become each
// cell's end (or start), and each small entity's record goes to its cell's start plus its rank,
// so each cell lists its entities by ascending slot and the records lie in cell order.
import {
  ENTRY_BYTES, H_A, H_B, H_CELLS, H_ENTRIES, H_HOME, H_KIND, H_PLANES, H_SEL, H_X, H_Y, KIND_SHIFT,
} from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { bit, f32At, i32At, setF32, setI32, SIMD, u16At, u32At, u8At } from "../memory.ts";
import { scan4 } from "./simd.ts";

/**
 * Prefix sum: each cell's count becomes its first entry, or with `inclusive` its end (the next
 * cell's first entry; the zero before cell 0 is then the start of cell 0).
 */
export function prefixSum(ncells: i32, inclusive: bool): void {
  if (SIMD) prefixSumSimd(ncells, inclusive);
  else prefixSumScalar(0, 0, ncells, inclusive);
}

/**
 * prefixSum four cells a step: each lane's sum with the lanes before it (scan4), plus the total
 * so far in every lane (the carry). A chain of dependent adds is a cycle a cell; the carry's
 * is one add a step, each step's total taken from its own sums.
 */
function prefixSumSimd(ncells: i32, inclusive: bool): void {
  const cellsp = hdr(H_CELLS) + 4;
  let c = 0, carry = i32x4.splat(0);
  for (; c + 4 <= ncells; c += 4) {
    const p = cellsp + (c << 2);
    const v = v128.load(p), sums = scan4(v);
    v128.store(p, i32x4.add(carry, inclusive ? sums : i32x4.sub(sums, v)));
    carry = i32x4.add(carry, i32x4.shuffle(sums, sums, 3, 3, 3, 3));
  }
  prefixSumScalar(c, i32x4.extract_lane(carry, 0), ncells, inclusive);
}

/** prefixSum one cell at a time from cell c, `run` entries before it. */
function prefixSumScalar(c: i32, run: i32, ncells: i32, inclusive: bool): void {
  const cellsp = hdr(H_CELLS) + 4;
  for (; c < ncells; c++) {
    const p = cellsp + (c << 2);
    const k = i32At(p);
    setI32(p, inclusive ? run + k : run);
    run += k;
  }
}

/** prefixSum's inclusive sum from u16 counts in the entries: each cell's field becomes its end. */
export function prefix16(ncells: i32): void {
  setI32(hdr(H_CELLS), 0);
  if (SIMD) prefix16Simd(ncells);
  else prefix16Scalar(0, 0, ncells);
}

/**
 * prefix16 eight cells a step: prefixSumSimd's four-lane sums on each half of eight u16s. Both
 * halves' totals are added to the carry off its chain, which is one add a step: taking the carry
 * from the stored sums made it four (add, shuffle, add, shuffle).
 */
function prefix16Simd(ncells: i32): void {
  const cellsp = hdr(H_CELLS) + 4, countp = hdr(H_ENTRIES);
  let c = 0, carry = i32x4.splat(0);
  for (; c + 8 <= ncells; c += 8) {
    const v8 = v128.load(countp + (c << 1)), p = cellsp + (c << 2);
    const lo = scan4(i32x4.extend_low_i16x8_u(v8)), hi = scan4(i32x4.extend_high_i16x8_u(v8));
    const loSum = i32x4.shuffle(lo, lo, 3, 3, 3, 3);
    v128.store(p, i32x4.add(carry, lo));
    v128.store(p, i32x4.add(carry, i32x4.add(loSum, hi)), 16);
    carry = i32x4.add(carry, i32x4.add(loSum, i32x4.shuffle(hi, hi, 3, 3, 3, 3)));
  }
  prefix16Scalar(c, i32x4.extract_lane(carry, 0), ncells);
}

/** prefix16 one cell at a time from cell c, `run` entries before it. */
function prefix16Scalar(c: i32, run: i32, ncells: i32): void {
  const cellsp = hdr(H_CELLS) + 4, countp = hdr(H_ENTRIES);
  for (; c < ncells; c++) {
    run += u16At(countp + (c << 1));
    setI32(cellsp + (c << 2), run);
  }
}

/**
 * Pass 3: scatter the small entities, each to its cell's start (the field before its cell's,
 * after the inclusive prefix sum) plus its rank, so each cell lists its entities by ascending
 * slot, and each cell's field holds its end, the next cell's start. The cell fields are only read
 * here: at 100k entities they are over a megabyte, and a cursor bumped per entity was a second
 * random write to them.
 */
export function scatterPass(n: i32): void {
  if (SIMD) scatterSimd(n);
  else scatterScalar(0, n);
}

/**
 * scatterPass four selected entities a step: four consecutive slots load as four vectors,
 * transposed into four (x, y, a, b) records, one store per record where scatterOne has four
 * loads and four stores. Their homes load as one vector, and a group holding a large entity (home
 * -1) or other slots goes one by one, so the common group has one branch, not one per record.
 */
function scatterSimd(n: i32): void {
  const homep = hdr(H_HOME), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), selp = hdr(H_SEL), rankp = hdr(H_PLANES);
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  let s = 0;
  for (; s + 4 <= n; s += 4) {
    const i = i32At(selp + (s << 2)), homes = v128.load(homep + (s << 2));
    if (bit(i32At(selp + (s << 2) + 12) - i != 3) | bit(i32x4.bitmask(homes) != 0)) {
      for (let t = s; t < s + 4; t++) scatterOne(t, homep, rankp, cellsp, entp, selp, kp, xp, yp, ap, bp);
      continue;
    }
    const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
    const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
    const xy01 = f32x4.shuffle(x, y, 0, 4, 1, 5), ab01 = f32x4.shuffle(a, b, 0, 4, 1, 5);
    const xy23 = f32x4.shuffle(x, y, 2, 6, 3, 7), ab23 = f32x4.shuffle(a, b, 2, 6, 3, 7);
    const kinds = u32At(kp + i), ranks = v128.load(rankp + (s << 2));
    scatterRecord(i32x4.extract_lane(homes, 0), i32x4.extract_lane(ranks, 0), i, kinds, f32x4.shuffle(xy01, ab01, 0, 1, 4, 5), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 1), i32x4.extract_lane(ranks, 1), i + 1, kinds >> 8, f32x4.shuffle(xy01, ab01, 2, 3, 6, 7), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 2), i32x4.extract_lane(ranks, 2), i + 2, kinds >> 16, f32x4.shuffle(xy23, ab23, 0, 1, 4, 5), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 3), i32x4.extract_lane(ranks, 3), i + 3, kinds >> 24, f32x4.shuffle(xy23, ab23, 2, 3, 6, 7), cellsp, entp);
  }
  scatterScalar(s, n);
}

/** scatterPass one selected entity at a time from s. */
function scatterScalar(s: i32, n: i32): void {
  const homep = hdr(H_HOME), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), selp = hdr(H_SEL), rankp = hdr(H_PLANES);
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  for (; s < n; s++) scatterOne(s, homep, rankp, cellsp, entp, selp, kp, xp, yp, ap, bp);
}

/** Scatters selected entity s (if small) into its cell's entry at its rank. */
// @ts-ignore: decorator
@inline function scatterOne(s: i32, homep: i32, rankp: i32, cellsp: i32, entp: i32, selp: i32, kp: i32, xp: i32, yp: i32, ap: i32, bp: i32): void {
  const c = i32At(homep + (s << 2));
  if (c < 0) return;
  const i = i32At(selp + (s << 2));
  const pos = i32At(cellsp + ((c - 1) << 2)) + i32At(rankp + (s << 2));
  // A copy of the shape and its cell travels with the slot: the pair loops then read memory in
  // order and never gather from the stores, where each gather cost a cache miss.
  const e = entp + pos * ENTRY_BYTES;
  setI32(e, i | (u8At(kp + i) << KIND_SHIFT));
  setF32(e + 4, f32At(xp + (i << 2)));
  setF32(e + 8, f32At(yp + (i << 2)));
  setF32(e + 12, f32At(ap + (i << 2)));
  setF32(e + 16, f32At(bp + (i << 2)));
  setI32(e + 20, c);
}

/** scatterOne for a small entity (home cell c, rank r), slot i's (x, y, a, b) already in one vector and its kind in the low byte of `kind`. */
// @ts-ignore: decorator
@inline function scatterRecord(c: i32, r: i32, i: i32, kind: u32, xyab: v128, cellsp: i32, entp: i32): void {
  const pos = i32At(cellsp + ((c - 1) << 2)) + r;
  const e = entp + pos * ENTRY_BYTES;
  setI32(e, i | ((kind & 0xff) << KIND_SHIFT));
  v128.store(e, xyab, 4);
  setI32(e + 20, c);
}
