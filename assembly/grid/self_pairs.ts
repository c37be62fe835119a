// selfPairs: all overlapping pairs of one mask, on one home grid (walk.ts), or, when nearly
// every box is long and thin, on two: the wide boxes in a grid of wide flat cells, the tall ones
// in a grid of tall narrow cells, and each wide box probed against the tall grid.
import {
  CLASS_ALL, CLASS_TALL, CLASS_WIDE, ENTRY_BYTES, G_COLS, G_CROWDED, G_ENTRIES, G_INV, G_INVY, G_LARGE, G_MASK, G_MAXX, G_MAXY,
  G_OX, G_OY, G_ROWS, G_SELECTED, G_SPLIT, G_SPLIT_RETRY, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_ENTRIES, H_GROUPS, H_KIND,
  H_LARGE, H_PAIRS, H_PAIRS_CAP, H_PLANES, H_SEL, H_X, H_Y, KIND_NONE, KIND_SHIFT, MAX_COORD, PLANE_SLACK, SPLIT_LARGE, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr, hdrF, setHdr } from "../header.ts";
import {
  bit, bitsF32, ctz32, f32At, f32Bits, i32At, maxF32, maxI32, minI32, setF32, setI32, SIMD, toF32, u8At,
} from "../memory.ts";
import { overlapSlots } from "../shapes.ts";
import { boxLo, boxX1, boxY1, cellOf, recordOverlaps, shapeOk } from "./boxes.ts";
import { build } from "./build.ts";
import { keepSelected } from "./select.ts";
import { planeOverlap } from "./simd.ts";
import { beginCall, countCells, countNarrow, countTests, emitPair, endCall, pairsFound } from "./stats.ts";
import { recordHit, walkGrid } from "./walk.ts";

/** All overlapping pairs (lo, hi) among live entities in `mask`; returns the total, which may exceed the pair capacity. */
export function selfPairs(count: i32, mask: i32, cellSize: f32): i32 {
  beginCall();
  // Long thin boxes of both orientations (walls, lasers: the skewed scene) crowd square cells,
  // which must be as long as the longest box. When nearly every box is thin, the wide ones go in
  // a grid of wide flat cells, the tall ones in a grid of tall narrow cells, and each pair is met
  // once: wide with wide, tall with tall, each wide box against the tall grid.
  if (cellSize <= 0 && hdr(G_CROWDED) != 0 && splitDue()) {
    setHdr(G_SPLIT_RETRY, SPLIT_RETRY);
    if (splitPays(count, mask)) {
      const wide = build(count, mask, wideX, false, wideY, CLASS_WIDE);
      if (wide > 0) walkGrid();
      probeOrder(wide);
      keepSelected(wide);
      const tall = build(count, mask, tallX, false, tallY, CLASS_TALL);
      keepSelected(0);
      // Each wide box is tested against the tall grid's whole large list, which must be short;
      // else the call starts over on one grid.
      if (hdr(G_LARGE) <= SPLIT_LARGE) {
        setHdr(G_SPLIT_RETRY, 0);
        if (tall > 0) {
          walkGrid();
          probeSplit(wide);
        }
        setHdr(G_SELECTED, tall + wide);
        setHdr(G_MASK, 0); // the grid left holds the tall boxes only: no query may use it
        setHdr(G_SPLIT, 1);
        endCall();
        return pairsFound();
      }
      beginCall();
    }
  }
  const n = build(count, mask, cellSize, false, 0, CLASS_ALL, true);
  if (n == 0) { setHdr(G_CROWDED, 0); endCall(); return 0; }
  setHdr(G_CROWDED, bit(walkGrid()));
  endCall();
  return pairsFound();
}

/** Counts down to the next try of the split; whether it is due. */
// @ts-ignore: decorator
@inline function splitDue(): bool {
  const retry = hdr(G_SPLIT_RETRY) - 1;
  setHdr(G_SPLIT_RETRY, retry);
  return retry <= 0;
}

// selfPairs' split of thin boxes: tried while the last grid was crowded (G_CROWDED), and after a
// no, again SPLIT_RETRY calls later (G_SPLIT_RETRY counts down). The cell sizes of the two grids
// come from splitPays' sample.
const SPLIT_RETRY = 16;
const SPLIT_THIN = 4; // a box is thin when its long side is at least this many times its short side

// The split grids' cell sizes (per call: splitPays sets them from its sample).
let wideX: f32 = 0;
let wideY: f32 = 0;
let tallX: f32 = 0;
let tallY: f32 = 0;

/**
 * Whether selfPairs should split: a sample of about a thousand slots, every one of them (but one
 * in 32) thin. Sets the split grids' cell sizes from the sample's longest sides per class, as
 * autoCellSize rounds (the power of two above).
 */
function splitPays(count: i32, mask: i32): bool {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const step = maxI32(1, count >> 10);
  let live = 0, thin = 0;
  let wx: f32 = 0, wy: f32 = 0, tx: f32 = 0, ty: f32 = 0;
  for (let i = 0; i < count; i += step) {
    const k = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || k == KIND_NONE) continue;
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    if (!shapeOk(k, x, y, a, b, <f32>MAX_COORD)) continue;
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    live++;
    if (dx >= dy) {
      if (dx >= toF32(dy * <f32>SPLIT_THIN) && dx > 0) thin++;
      wx = maxF32(wx, dx); wy = maxF32(wy, dy);
    } else {
      if (dy >= toF32(dx * <f32>SPLIT_THIN)) thin++; // dy > dx >= 0 here
      tx = maxF32(tx, dx); ty = maxF32(ty, dy);
    }
  }
  if (live < 64 || thin < live - (live >> 5)) return false;
  // Cells at least as long as the longest sampled side, and never more than 64 times longer than
  // high (zero-height lines still get rows).
  wideX = pow2Above(wx); wideY = pow2Above(maxF32(wy, toF32(wx / 64)));
  tallY = pow2Above(ty); tallX = pow2Above(maxF32(tx, toF32(ty / 64)));
  return true;
}

/** The power of two above v (the upper bound of its f32 exponent bucket, as autoCellSize). */
// @ts-ignore: decorator
@inline function pow2Above(v: f32): f32 {
  return bitsF32(minI32((f32Bits(v) >>> 23) + 1, 254) << 23);
}

/**
 * The wide grid just walked, in its order (cells row by row, then the large list): tags (slot |
 * kind << KIND_SHIFT) at the end of H_SEL, shapes (x, y, a, b) at the end of H_BOX. The tall
 * grid's build uses only the starts of both (an entry per tall entity), so the lists survive it.
 * Probing the tall grid in this order, with the shapes read in order, keeps it in cache; in slot
 * order each probe would miss it at 100k entities.
 */
function probeOrder(n: i32): void {
  const capacity = hdr(H_CAPACITY);
  const tagp = hdr(H_SEL) + ((capacity - n) << 2), shapep = hdr(H_BOX) + ((capacity - n) << 4);
  const entp = hdr(H_ENTRIES), small = hdr(G_ENTRIES), largep = hdr(H_LARGE), selp = hdr(H_SEL);
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  // The large ones' slots first: their selection indices point into H_SEL, which the tags may overwrite.
  for (let k = 0; k < n - small; k++) setI32(largep + (k << 2), i32At(selp + (i32At(largep + (k << 2)) << 2)));
  for (let p = 0; p < small; p++) {
    const f = entp + p * ENTRY_BYTES, o = shapep + (p << 4);
    setI32(tagp + (p << 2), i32At(f));
    setF32(o, f32At(f + 4)); setF32(o + 4, f32At(f + 8)); setF32(o + 8, f32At(f + 12)); setF32(o + 12, f32At(f + 16));
  }
  for (let k = small; k < n; k++) {
    const i = i32At(largep + ((k - small) << 2)), o = shapep + (k << 4);
    setI32(tagp + (k << 2), i | (u8At(kp + i) << KIND_SHIFT));
    setF32(o, f32At(xp + (i << 2))); setF32(o + 4, f32At(yp + (i << 2)));
    setF32(o + 8, f32At(ap + (i << 2))); setF32(o + 12, f32At(bp + (i << 2)));
  }
}

/**
 * The split's wide boxes (probeOrder's lists) against the tall grid just walked: the small tall
 * entities in the cells each box can reach (one cell back, as probeGrid), then the tall large
 * list. Emits (lo, hi) slot pairs; counts as scanCells would.
 */
function probeSplit(n: i32): void {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), invY = hdrF(G_INVY), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const large = hdr(G_LARGE), largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  const capacity = hdr(H_CAPACITY), tagp = selp + ((capacity - n) << 2), shapep = boxp + ((capacity - n) << 4);
  const planep = hdr(H_PLANES), stride = (capacity + PLANE_SLACK) << 2;
  let visited = 0, tests = 0;
  for (let t = 0; t < n; t++) {
    const tag = i32At(tagp + (t << 2)), i = tag & TAG_SLOT, ki = tag >>> KIND_SHIFT, o = shapep + (t << 4);
    const xi = f32At(o), yi = f32At(o + 4), ai = f32At(o + 8), bi = f32At(o + 12);
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (x1 < ox || y1 < oy || x0 > gx1 || y0 > gy1) continue;
    const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, invY, rows) - 1, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
    visited += (c1x - c0x + 1) * (c1y - c0y + 1);
    for (let cy = c0y; cy <= c1y; cy++) {
      const row = cy * pitch;
      const from = i32At(cellsp + ((row + c0x - 1) << 2)), to = i32At(cellsp + ((row + c1x) << 2));
      tests += to - from;
      if (SIMD) splitRowSimd(i, ki, xi, yi, ai, bi, x0, y0, x1, y1, from, to, entp, planep, stride, pairp, cap);
      else splitRowScalar(i, ki, xi, yi, ai, bi, x0, y0, x1, y1, from, to, entp, pairp, cap);
    }
    for (let k = 0; k < large; k++) {
      const s = i32At(largep + (k << 2)), b = boxp + (s << 4);
      tests++;
      if (x1 < f32At(b) || x0 > f32At(b + 8) || y1 < f32At(b + 4) || y0 > f32At(b + 12)) continue;
      const j = i32At(selp + (s << 2));
      countNarrow(1);
      if (overlapSlots(i, j)) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
    }
  }
  countCells(visited);
  countTests(tests);
}

/** probeSplit's records [from, to) of one row against wide box i (shape ki..bi, box x0..y1), one at a time. */
// @ts-ignore: decorator
@inline function splitRowScalar(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: f32, y0: f32, x1: f32, y1: f32, from: i32, to: i32, entp: i32, pairp: i32, cap: i32,
): void {
  for (let q = from; q < to; q++) {
    const f = entp + q * ENTRY_BYTES;
    const k = i32At(f) >>> KIND_SHIFT;
    if (recordOverlaps(k, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16), x0, y0, x1, y1)) recordHit(i, ki, xi, yi, ai, bi, f, pairp, cap);
  }
}

/**
 * splitRowScalar eight records a step from the tall grid's box planes (its walk filled them), as
 * the SIMD walk: a probe's row run mostly holds three to seven, so the loop mostly runs once.
 */
// @ts-ignore: decorator
@inline function splitRowSimd(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: f32, y0: f32, x1: f32, y1: f32, from: i32, to: i32,
  entp: i32, planep: i32, stride: i32, pairp: i32, cap: i32,
): void {
  const x0v = f32x4.splat(x0), y0v = f32x4.splat(y0), x1v = f32x4.splat(x1), y1v = f32x4.splat(y1);
  let q = from;
  do {
    const p = planep + (q << 2), left = i32x4.splat(to - q);
    const lo = v128.and(i32x4.lt_s(i32x4(0, 1, 2, 3), left), planeOverlap(p, stride, x0v, y0v, x1v, y1v));
    const hi = v128.and(i32x4.lt_s(i32x4(4, 5, 6, 7), left), planeOverlap(p + 16, stride, x0v, y0v, x1v, y1v));
    for (let bits = i32x4.bitmask(lo) | (i32x4.bitmask(hi) << 4); bits != 0; bits &= bits - 1) recordHit(i, ki, xi, yi, ai, bi, entp + (q + ctz32(bits)) * ENTRY_BYTES, pairp, cap);
    q += 8;
  } while (q < to);
}
