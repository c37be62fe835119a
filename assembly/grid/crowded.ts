// Crowded grids: more than CROWDED small entities per cell on average, as long thin boxes make in
// cells sized for their length, or a pile of entities in one cell (a cellSize far larger than the
// world). Each cell is sorted by box left edge (n log n), so a run of records is cut short at the
// first box starting right of the one tested, and the records are tested from the box planes
// (x0s, y0s, x1s, y1s) with the counts in locals: a crowded cell costs no more than a double loop
// over its entities, and far less when their left edges spread.
import {
  ENTRY_BYTES, FLAG_HIT, FLAG_STOPPED, G_COLS, G_ENTRIES, G_INV, G_MASK, G_MAXX, G_MAXY, G_OX, G_OY, G_ROWS, H_A, H_B,
  H_CAPACITY, H_CELLS, H_ENTRIES, H_FLAGS, H_GROUPS, H_HOME, H_KIND, H_PAIRS, H_PAIRS_CAP, H_PLANES, H_X, H_Y, KIND_NONE,
  KIND_POINT, KIND_SHIFT, MAX_COORD, NO_SLOT, PLANE_SLACK, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr, hdrF } from "../header.ts";
import {
  bit, copy, ctz32, f32At, i32At, maxF32, maxI32, minI32, pick, popcnt32, setF32, setI32, setU8, SIMD, toF32, u8At,
} from "../memory.ts";
import { overlapShapes } from "../shapes.ts";
import { boxLo, boxX1, boxY1, cellOf, overlapInline, reachLo, shapeOk } from "./boxes.ts";
import { boxPlanes, fillPlanes } from "./simd.ts";
import { countTests, emitAt, heldCount, narrowSoFar, noteChecked, noteInvalid, pairsFound, setNarrow, setPairsFound } from "./stats.ts";

// Above this many small entities per cell on average, a grid is crowded.
const CROWDED = 2;
// Cells holding more entries than this are sorted by merging (n log n); shorter ones by insertion.
const INSERTION_MOST = 32;

/** Whether a home grid of `small` entries in cols x rows cells is crowded. */
// @ts-ignore: decorator
@inline export function isCrowded(small: i32, cols: i32, rows: i32): bool {
  return small > cols * rows * CROWDED;
}

/**
 * selfPairs' walk of a crowded home grid: its cells sorted by left edge, then each small entity
 * against the rest of its cell and the half stencil (E, SW, S, SE) as walkGrid's other walks, but
 * each of the five runs (the rest of its cell, E, SW, S, SE: each one cell, so sorted) cut at the
 * first record starting right of its box. The SIMD build tests four records a step; both builds
 * meet the same records, emit the same pairs in the same order and count the same tests.
 */
export function walkCrowded(small: i32, pitch: i32): void {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  sortCellsByLeft(cellsp, entp, (hdr(G_ROWS) + 1) * pitch, planep);
  if (SIMD) fillPlanes(entp, small, planep, stride, hdr(H_HOME), false);
  else fillBoxPlanes(entp, small, planep, stride);
  // Among points, the box test is the exact test: once the pair buffer is full, a pile of points
  // (every pair overlapping) only counts its pairs.
  const points = allPoints(entp, small);
  let nf = pairsFound(), nt = narrowSoFar(), tests = 0;
  for (let p = 0; p < small; p++) {
    nf = heldCount(nf); // the runs add fewer than 2^31 a record
    const e = entp + p * ENTRY_BYTES, c = i32At(e + 20), o = planep + (p << 2);
    const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
    const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
    const x0 = f32At(o), y0 = f32At(o + stride), x1 = f32At(o + 2 * stride), y1 = f32At(o + 3 * stride);
    const end = i32At(cellsp + (c << 2)), east = i32At(cellsp + ((c + 1) << 2));
    const below0 = i32At(cellsp + ((c + pitch - 2) << 2)), s0 = i32At(cellsp + ((c + pitch - 1) << 2));
    const s1 = i32At(cellsp + ((c + pitch) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    for (let r = 0; r < 5; r++) {
      // The runs: the rest of this cell, E, SW, S, SE.
      const from = pick(p + 1, pick(end, pick(below0, pick(s0, s1, r == 3), r == 2), r == 1), r == 0);
      const to = pick(end, pick(east, pick(s0, pick(s1, below1, r == 3), r == 2), r == 1), r == 0);
      if (SIMD) {
        const x0v = f32x4.splat(x0), y0v = f32x4.splat(y0), x1v = f32x4.splat(x1), y1v = f32x4.splat(y1);
        for (let q = from; q < to; q += 4) {
          const w = planep + (q << 2);
          const inRun = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(to - q));
          const left = v128.and(inRun, f32x4.le(v128.load(w), x1v)); // starting at or left of this box's right edge
          const hit = v128.and(left, v128.and(f32x4.le(v128.load(w + stride), y1v),
            v128.and(f32x4.ge(v128.load(w + 2 * stride), x0v), f32x4.ge(v128.load(w + 3 * stride), y0v))));
          const lm = i32x4.bitmask(left);
          tests += popcnt32(lm);
          if (points && <u32>nf >= <u32>cap) {
            const m = popcnt32(i32x4.bitmask(hit));
            nt += m;
            nf += m;
          } else for (let bits = i32x4.bitmask(hit); bits != 0; bits &= bits - 1) {
            nt++;
            nf = exactAt(i, k, x, y, a, b, entp + (q + ctz32(bits)) * ENTRY_BYTES, pairp, cap, nf);
          }
          if (lm != 15) break; // sorted: the rest of the run starts right of this box
        }
      } else {
        let q = from;
        if (points) {
          // Points: a box is its point (x0 == x1), so the records it can meet are those of its x,
          // found by two binary searches; of them, those of its y overlap. The tests counted are
          // the records starting at or left of x1, as below.
          const last = firstPast(planep, from, to, x1);
          for (q = firstFrom(planep, from, last, x0); q < last; q++) {
            if (f32At(planep + stride + (q << 2)) != y0) continue;
            nt++;
            nf = <u32>nf >= <u32>cap ? nf + 1 : exactAt(i, k, x, y, a, b, entp + q * ENTRY_BYTES, pairp, cap, nf);
          }
        } else {
          for (; q < to; q++) {
            const w = planep + (q << 2);
            if (f32At(w) > x1) break; // sorted: the rest of the run starts right of this box
            if ((bit(f32At(w + 2 * stride) >= x0) & bit(f32At(w + stride) <= y1) & bit(f32At(w + 3 * stride) >= y0)) == 0) continue;
            nt++;
            nf = exactAt(i, k, x, y, a, b, entp + q * ENTRY_BYTES, pairp, cap, nf);
          }
        }
        tests += q - from;
      }
    }
  }
  setPairsFound(nf);
  setNarrow(nt);
  countTests(tests);
}

// What readyCrowded found for the current call: whether every record is a point.
let pointsOnly = false;

/**
 * Readies a crowded home grid of `records` entries (and no large ones) for probing: its cells
 * sorted by left edge and the box planes filled. Returns the widest record box (x1 - x0 in f32):
 * a record starting more than that (and its rounding, reachLo) left of a probe's box ends left of it.
 */
function readyCrowded(records: i32): f32 {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  sortCellsByLeft(cellsp, entp, (hdr(G_ROWS) + 1) * (hdr(G_COLS) + 1), planep);
  if (SIMD) fillPlanes(entp, records, planep, stride, hdr(H_HOME), false);
  else fillBoxPlanes(entp, records, planep, stride);
  pointsOnly = allPoints(entp, records);
  let widest: f32 = 0;
  for (let q = 0; q < records; q++) widest = maxF32(widest, toF32(f32At(planep + 2 * stride + (q << 2)) - f32At(planep + (q << 2))));
  return widest;
}

/** The first record in [from, to) whose left edge (plane at planep) is at least v (cells are sorted). */
// @ts-ignore: decorator
@inline function firstFrom(planep: i32, from: i32, to: i32, v: f32): i32 {
  let lo = from, hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (f32At(planep + (mid << 2)) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first record at or after q (below `end`) whose enemy is not hit yet: firstCrowded's next
 * links (nextp), halving the paths it follows, so runs of hit enemies cost next to nothing.
 */
// @ts-ignore: decorator
@inline function liveFrom(nextp: i32, q: i32, end: i32): i32 {
  while (q < end) {
    const n = i32At(nextp + (q << 2));
    if (n == q) break;
    const m = n < end ? i32At(nextp + (n << 2)) : n;
    setI32(nextp + (q << 2), m);
    q = m;
  }
  return q;
}

/** The first record in [from, to) whose left edge is past v (cells are sorted). */
// @ts-ignore: decorator
@inline function firstPast(planep: i32, from: i32, to: i32, v: f32): i32 {
  let lo = from, hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (f32At(planep + (mid << 2)) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether plane record w's box overlaps box x0..y1, given it starts at or left of x1 (edges touching count, as recordOverlaps). */
// @ts-ignore: decorator
@inline function planeHit(w: i32, stride: i32, x0: f32, y0: f32, y1: f32): bool {
  return (bit(f32At(w + 2 * stride) >= x0) & bit(f32At(w + stride) <= y1) & bit(f32At(w + 3 * stride) >= y0)) != 0;
}

/**
 * crossPairs' home grid of the larger side, when crowded and without large entities, probed by
 * each live slot of `mask` in slot order, as probeGrid does: in each cell its box can reach (one
 * cell back), the records from the first that can reach its box (firstFrom) to the first starting
 * right of it. Emits (i, j), or (j, i) with `rev`; slot i itself is never reported. Returns the
 * cells visited.
 */
export function probeCrowded(count: i32, mask: i32, rev: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  const widest = readyCrowded(hdr(G_ENTRIES)), gridMask = hdr(G_MASK);
  let nf = pairsFound(), nt = narrowSoFar(), tests = 0, visited = 0;
  for (let i = 0; i < count; i++) {
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2)), ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!shapeOk(ki, xi, yi, ai, bi, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    if (x1 < ox || y1 < oy || x0 > gx1 || y0 > gy1) continue;
    nf = heldCount(nf); // a probe adds fewer than 2^31
    const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, inv, rows) - 1, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, inv, rows);
    visited += (c1x - c0x + 1) * (c1y - c0y + 1);
    // A point among points meets the records of its x only (both edges are the point), and of
    // those the ones of its y; once the buffer is full, a probe outside the grid's mask (never
    // itself) only counts them.
    const lo = reachLo(x0, widest), point = pointsOnly && ki == KIND_POINT, outside = (i32At(gp + (i << 2)) & gridMask) == 0;
    for (let cy = c0y; cy <= c1y; cy++) {
      for (let c = cy * pitch + c0x; c <= cy * pitch + c1x; c++) {
        const from = i32At(cellsp + ((c - 1) << 2)), to = i32At(cellsp + (c << 2));
        if (point) {
          const first = firstFrom(planep, from, to, x0), last = firstPast(planep, first, to, x1);
          tests += last - first;
          for (let q = first; q < last; q++) {
            if (f32At(planep + stride + (q << 2)) != y0) continue;
            if (outside && <u32>nf >= <u32>cap) { nt++; nf++; continue; }
            const j = i32At(entp + q * ENTRY_BYTES) & TAG_SLOT;
            if (j == i) { tests--; continue; } // itself (in both masks): not a test, as probeGrid counts
            nt++;
            nf = emitAt(pairp, cap, nf, pick(j, i, rev), pick(i, j, rev));
          }
          continue;
        }
        for (let q = firstFrom(planep, from, to, lo); q < to; q++) {
          const w = planep + (q << 2), xq = f32At(w);
          if (xq > x1) break;
          tests++;
          if (!planeHit(w, stride, x0, y0, y1)) continue;
          const f = entp + q * ENTRY_BYTES, tag = i32At(f), j = tag & TAG_SLOT;
          if (j == i) { tests--; continue; } // itself (in both masks): not a test, as probeGrid counts
          nt++;
          if (!overlapInline(ki, xi, yi, ai, bi, tag >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16))) continue;
          nf = emitAt(pairp, cap, nf, pick(j, i, rev), pick(i, j, rev));
        }
      }
    }
  }
  setPairsFound(nf);
  setNarrow(nt);
  countTests(tests);
  noteChecked(mask);
  return visited;
}

/**
 * firstHits' home grid of the enemies, when crowded and without large entities: each live bullet
 * of `mask` in slot order keeps the lowest-slot eligible enemy it overlaps, searched as
 * probeCrowded searches, and stops there (flags and the pair (bullet, enemy)). Records of one left
 * edge keep slot order (the sort is stable, and the scatter wrote each cell in slot order), so
 * past a hit the rest of its edge is skipped. Returns the cells visited.
 */
export function firstCrowded(count: i32, mask: i32, exclusive: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B), flagp = hdr(H_FLAGS);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  const records = hdr(G_ENTRIES), widest = readyCrowded(records);
  // Each record's next record not hit yet (itself while not hit), in H_HOME (free once the scatter has read it).
  const nextp = hdr(H_HOME);
  for (let q = 0; q < records; q++) setI32(nextp + (q << 2), q);
  let nf = pairsFound(), nt = narrowSoFar(), tests = 0, visited = 0;
  for (let i = 0; i < count; i++) {
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2)), ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!shapeOk(ki, xi, yi, ai, bi, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    if (x1 < ox || y1 < oy || x0 > gx1 || y0 > gy1) continue;
    const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, inv, rows) - 1, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, inv, rows);
    visited += (c1x - c0x + 1) * (c1y - c0y + 1);
    const lo = reachLo(x0, widest), point = pointsOnly && ki == KIND_POINT;
    let best = NO_SLOT, bestAt = 0;
    for (let cy = c0y; cy <= c1y; cy++) {
      for (let c = cy * pitch + c0x; c <= cy * pitch + c1x; c++) {
        const to = i32At(cellsp + (c << 2));
        for (let q = liveFrom(nextp, firstFrom(planep, i32At(cellsp + ((c - 1) << 2)), to, lo), records); q < to; q++) {
          const w = planep + (q << 2), xq = f32At(w);
          if (xq > x1) break;
          tests++;
          if (point ? !(xq >= x0 && f32At(w + stride) == y0) : !planeHit(w, stride, x0, y0, y1)) {
            if (exclusive && f32At(w + stride) != f32At(w + stride)) q = liveFrom(nextp, q, records) - 1; // a run of enemies hit
            continue;
          }
          const f = entp + q * ENTRY_BYTES, tag = i32At(f), j = tag & TAG_SLOT;
          if (j >= best || j == i) continue;
          if (exclusive && (u8At(flagp + j) & FLAG_HIT)) continue;
          nt++;
          if (!point && !overlapShapes(ki, xi, yi, ai, bi, tag >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16))) continue;
          best = j;
          bestAt = q;
          q = firstPast(planep, q + 1, to, xq) - 1; // the rest of this edge: higher slots
        }
      }
    }
    if (best == NO_SLOT) continue;
    // An enemy that took a bullet takes no other: its box leaves the planes (a NaN top edge fails
    // every box test), and the searches step over it (liveFrom).
    if (exclusive) {
      setF32(planep + stride + (bestAt << 2), NaN);
      setI32(nextp + (bestAt << 2), bestAt + 1);
    }
    setU8(flagp + i, u8At(flagp + i) | FLAG_STOPPED);
    setU8(flagp + best, u8At(flagp + best) | FLAG_HIT);
    nf = emitAt(pairp, cap, nf, i, best);
  }
  setPairsFound(nf);
  setNarrow(nt);
  countTests(tests);
  return visited;
}

/**
 * The exact test of shape (ki, xi..bi) of slot i against entry record f, and the pair (lo, hi)
 * written as pair n when it holds and fits; returns the pairs counted.
 */
// @ts-ignore: decorator
@inline function exactAt(i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, f: i32, pairp: i32, cap: i32, n: i32): i32 {
  const tag = i32At(f), j = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
  // Two points whose boxes overlap are equal: the box test was the exact test.
  if (!(ki == KIND_POINT && k == KIND_POINT) && !overlapInline(ki, xi, yi, ai, bi, k, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16))) return n;
  return emitAt(pairp, cap, n, minI32(i, j), maxI32(i, j));
}

/** Whether entry records [0, n) are all points. */
function allPoints(entp: i32, n: i32): bool {
  for (let p = 0; p < n; p++) if ((i32At(entp + p * ENTRY_BYTES) >>> KIND_SHIFT) != KIND_POINT) return false;
  return true;
}

/** The boxes of entry records [0, n) into four planes, `stride` bytes apart, as fillPlanes does (scalar). */
function fillBoxPlanes(entp: i32, n: i32, planep: i32, stride: i32): void {
  for (let p = 0; p < n; p++) boxPlanes(entp + p * ENTRY_BYTES, planep + (p << 2), stride);
}

/**
 * Sorts each cell's entry records by box left edge, stably (equal edges keep their order, so the
 * pairs come out in the same order whichever sort ran): short cells by insertion, long ones (a
 * pile of entities in one cell) by mergeRun, so a crowded cell's sort costs n log n and its walk
 * no more than a double loop over its entries.
 */
export function sortCellsByLeft(cellsp: i32, entp: i32, ncells: i32, scratch: i32): void {
  let from = 0;
  for (let c = 0; c < ncells; c++) {
    const to = i32At(cellsp + (c << 2));
    if (to - from > INSERTION_MOST) mergeRun(entp, from, to, scratch);
    else insertRun(entp, from, to);
    from = to;
  }
}

/** Sorts entry records [from, to) by box left edge by insertion (stable; for short runs). */
function insertRun(entp: i32, from: i32, to: i32): void {
  for (let p = from + 1; p < to; p++) {
    const e = entp + p * ENTRY_BYTES;
    const tag = i32At(e), x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16), cell = i32At(e + 20);
    const key = boxLo(tag >>> KIND_SHIFT, x, a);
    let q = p;
    while (q > from) {
      const f = entp + (q - 1) * ENTRY_BYTES;
      if (!(boxLo(i32At(f) >>> KIND_SHIFT, f32At(f + 4), f32At(f + 12)) > key)) break;
      copy(f + ENTRY_BYTES, f, ENTRY_BYTES);
      q--;
    }
    if (q == p) continue;
    const g = entp + q * ENTRY_BYTES;
    setI32(g, tag); setF32(g + 4, x); setF32(g + 8, y); setF32(g + 12, a); setF32(g + 16, b); setI32(g + 20, cell);
  }
}

/**
 * Sorts entry records [from, to) by box left edge, stably, in n log n: (left edge, index) items
 * in `scratch` (16 bytes per record: the items and the merge's second buffer) merged bottom-up,
 * then each record moved once along the cycles of the permutation. Edges compare as f32 (-0 and
 * 0 are equal), as insertRun compares them, so both sorts give the same order.
 */
function mergeRun(entp: i32, from: i32, to: i32, scratch: i32): void {
  const n = to - from;
  let src = scratch, dst = scratch + (n << 3);
  for (let q = 0; q < n; q++) {
    const e = entp + (from + q) * ENTRY_BYTES;
    setF32(src + (q << 3), boxLo(i32At(e) >>> KIND_SHIFT, f32At(e + 4), f32At(e + 12)));
    setI32(src + (q << 3) + 4, q);
  }
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = minI32(lo + width, n), hi = minI32(lo + (width << 1), n);
      let a = lo, b = mid, o = dst + (lo << 3);
      while (a < mid && b < hi) {
        const pa = src + (a << 3), pb = src + (b << 3);
        const takeB = f32At(pb) < f32At(pa); // an equal edge takes the left run's first: stable
        const from8 = pick(pb, pa, takeB);
        setI32(o, i32At(from8)); setI32(o + 4, i32At(from8 + 4));
        b += bit(takeB);
        a += bit(!takeB);
        o += 8;
      }
      copy(o, src + (a << 3), (mid - a) << 3);
      copy(o + ((mid - a) << 3), src + (b << 3), (hi - b) << 3);
    }
    const t = src; src = dst; dst = t;
  }
  // src holds the sorted items; the record that goes to position t is at the item's index. Follow
  // each cycle from t: keep t's record, pull each record into place, and put t's where it ends;
  // an item whose index is its position is done.
  for (let t = 0; t < n; t++) {
    let s = i32At(src + (t << 3) + 4);
    if (s == t) continue;
    const e = entp + (from + t) * ENTRY_BYTES;
    const tag = i32At(e), x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16), cell = i32At(e + 20);
    let j = t;
    do {
      setI32(src + (j << 3) + 4, j);
      copy(entp + (from + j) * ENTRY_BYTES, entp + (from + s) * ENTRY_BYTES, ENTRY_BYTES);
      j = s;
      s = i32At(src + (j << 3) + 4);
    } while (s != t);
    setI32(src + (j << 3) + 4, j);
    const g = entp + (from + j) * ENTRY_BYTES;
    setI32(g, tag); setF32(g + 4, x); setF32(g + 8, y); setF32(g + 12, a); setF32(g + 16, b); setI32(g + 20, cell);
  }
}
