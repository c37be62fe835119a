// selfPairs' walk over a home grid: each small entity against the rest of its cell and the half
// stencil (E, SW, S, SE), so every pair of neighbours is met exactly once, with no duplicates to
// filter; then the large list (large.ts).
import {
  ENTRY_BYTES, G_COLS, G_ENTRIES, G_LARGE, G_ROWS, H_CAPACITY, H_CELLS, H_ENTRIES, H_HOME, H_LARGE, H_PAIRS, H_PAIRS_CAP,
  H_PLANES, KIND_SHIFT, PLANE_SLACK, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { bit, ctz32, f32At, i32At, maxI32, minI32, pick, popcnt32, setI32, SIMD } from "../memory.ts";
import { boxLo, boxX1, boxY1, overlapInline, recordOverlaps } from "./boxes.ts";
import { isCrowded, walkCrowded } from "./crowded.ts";
import { walkLarge } from "./large.ts";
import { fillPlanes, LANES, planeOverlap } from "./simd.ts";
import { countCells, countNarrow, countTests, emitPair, heldCount, narrowSoFar, pairsFound, setNarrow, setPairsFound } from "./stats.ts";

/**
 * The pairs of the grid just built: small against small in the half stencil, then the large list
 * against the cells and against itself (walkLarge). Returns whether the grid was crowded.
 */
export function walkGrid(): bool {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1, small = hdr(G_ENTRIES);
  // Small against small: each entity against the rest of its cell and the half stencil (E, then
  // SW-S-SE, contiguous in the entry list). The walk goes over the entries, not the cells, so
  // empty cells cost nothing; the padding column and row make the runs two loads each. Crowded
  // grids (long thin boxes in cells sized for their length, or a pile in one cell) go to
  // walkCrowded (crowded.ts): each cell sorted by left edge, and each run cut short.
  const crowded = isCrowded(small, cols, rows);
  if (crowded) walkCrowded(small, pitch);
  else if (SIMD) walkSimd(small, pitch);
  else walkScalar(small, pitch);
  countCells(cols * rows);
  walkLarge();
  return crowded;
}

/** walkGrid's small-against-small walk in the scalar build (and the js backend), entry by entry. */
function walkScalar(small: i32, pitch: i32): void {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  for (let p = 0; p < small; p++) {
    const e = entp + p * ENTRY_BYTES;
    const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
    const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
    const c = i32At(e + 20);
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    const east = i32At(cellsp + ((c + 1) << 2));
    const below0 = i32At(cellsp + ((c + pitch - 2) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, p + 1, east, pairp, cap); // the rest of this cell, then E
    pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, below0, below1, pairp, cap);
  }
}

/** Tests the shape (ki, xi..bi) of slot i, box x0..y1, against entry records [from, to); emits (lo, hi) slot pairs. */
// @ts-ignore: decorator
@inline function pairsAgainst(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: f32, y0: f32, x1: f32, y1: f32,
  entp: i32, from: i32, to: i32, pairp: i32, cap: i32,
): void {
  countTests(to - from);
  for (let q = from; q < to; q++) {
    const f = entp + q * ENTRY_BYTES;
    const tag = i32At(f), k = tag >>> KIND_SHIFT;
    const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
    if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
    countNarrow(1);
    if (overlapInline(ki, xi, yi, ai, bi, k, x, y, a, b)) {
      const j = tag & TAG_SLOT;
      emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
    }
  }
}

/**
 * walkGrid's small-against-small walk in the SIMD build: the same runs, pairs, order and counts
 * as walkScalar, but four records tested per step from the box planes, so a run of up to four
 * records costs one step and no branch per record (in a bullet hell most runs hold zero to three
 * records, and a loop over each paid a mispredicted exit on most of them). An entity's two runs
 * share one step and one branch, and its shape is loaded only when a record overlaps it
 * (walkList4, then walkListed4).
 */
function walkSimd(small: i32, pitch: i32): void {
  fillPlanes(hdr(H_ENTRIES), small, hdr(H_PLANES), (hdr(H_CAPACITY) + PLANE_SLACK) << 2, hdr(H_HOME), false);
  walkListed4(walkList4(small, pitch), pitch);
}

/**
 * The walk's first pass outside crowded grids: the first four records of both runs in one step per
 * entity, and the entity listed, without a branch, when one overlaps or a run is longer (its hit
 * lanes in the top byte). Most entities meet nothing; a branch per entity mispredicts on those
 * that do, and keeping their shapes live for the hit path would spill the loop's registers. Beside
 * each listed entity goes its SW-S-SE run's start, with the top bit set when a run is longer than
 * four records (in H_LARGE past the large list): the second pass then loads the records it tests
 * straight from the list, where finding them through the entity's cell makes three loads wait on
 * one another. The test count adds up in a vector, from the runs' splats, and "longer" is tested
 * as (n1 | n2) > 4 (fewer instructions than two tests), which also lists the few entities with a
 * run of four and another run (the second pass finds their runs short). Returns the list length.
 */
function walkList4(small: i32, pitch: i32): i32 {
  const cellsp = hdr(H_CELLS) + 4, planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  const cellp = hdr(H_HOME), listp = cellp, runp = hdr(H_LARGE) + (hdr(G_LARGE) << 2), iota = i32x4(0, 1, 2, 3);
  let listed = 0, testv = i32x4.splat(0);
  for (let p = 0; p < small; p++) {
    const c = i32At(cellp + (p << 2)), o = planep + (p << 2);
    const x0 = f32x4.splat(f32At(o)), y0 = f32x4.splat(f32At(o + stride));
    const x1 = f32x4.splat(f32At(o + 2 * stride)), y1 = f32x4.splat(f32At(o + 3 * stride));
    const east = i32At(cellsp + ((c + 1) << 2));
    const below0 = i32At(cellsp + ((c + pitch - 2) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    const n1 = east - p - 1, n2 = below1 - below0, n1v = i32x4.splat(n1), n2v = i32x4.splat(n2);
    testv = i32x4.add(testv, i32x4.add(n1v, n2v));
    const hit1 = v128.and(i32x4.lt_s(iota, n1v), planeOverlap(o + 4, stride, x0, y0, x1, y1));
    const hit2 = v128.and(i32x4.lt_s(iota, n2v), planeOverlap(planep + (below0 << 2), stride, x0, y0, x1, y1));
    const bits = i32x4.bitmask(hit1) | (i32x4.bitmask(hit2) << 4), long = bit((n1 | n2) > 4);
    setI32(listp + (listed << 2), p | (bits << 24));
    setI32(runp + (listed << 2), below0 | (long << 31));
    listed += bit((bits | long) != 0);
  }
  countTests(i32x4.extract_lane(testv, 0));
  return listed;
}

/**
 * The walk's second pass: the listed entities, in entry order: the rest of this cell, then E;
 * then SW-S-SE (walkScalar's order). Records past the fourth go through pairsAgainst4, which
 * counts them again (the first pass counted whole runs). The pair and test counts stay in locals.
 */
function walkListed4(listed: i32, pitch: i32): void {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  const listp = hdr(H_HOME), runp = hdr(H_LARGE) + (hdr(G_LARGE) << 2);
  let nf = pairsFound(), nt = narrowSoFar(), tests = 0;
  for (let q = 0; q < listed; q++) {
    nf = heldCount(nf); // hitAt adds at most eight a record
    const v = i32At(listp + (q << 2)), p = v & TAG_SLOT, bits = v >>> 24;
    const runs = i32At(runp + (q << 2)), below0 = runs & 0x7fffffff;
    const e = entp + p * ENTRY_BYTES;
    const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
    const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
    nt += popcnt32(bits);
    if (runs >= 0) {
      // Both runs within four records (nearly every entity): one loop over both runs' hits, of
      // which a listed entity has one or more, so the exit is taken after the first hit on most
      // entities, where a loop per run mispredicts whether each run has any.
      let m = bits;
      do {
        const l = ctz32(m);
        nf = hitAt(i, k, x, y, a, b, entp + pick(p + 1 + l, below0 - 4 + l, l < 4) * ENTRY_BYTES, pairp, cap, nf);
        m &= m - 1;
      } while (m != 0);
      continue;
    }
    const c = i32At(e + 20);
    const east = i32At(cellsp + ((c + 1) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    const n1 = east - p - 1, n2 = below1 - below0;
    for (let m = bits & 15; m != 0; m &= m - 1) nf = hitAt(i, k, x, y, a, b, entp + (p + 1 + ctz32(m)) * ENTRY_BYTES, pairp, cap, nf);
    // Long runs (rare outside crowded grids) go through pairsAgainst4, which counts on the stats.
    const o = planep + (p << 2);
    if (n1 > 4) {
      tests -= n1 - 4;
      setPairsFound(nf); setNarrow(nt);
      pairsPastFour(i, k, x, y, a, b, o, entp, planep, stride, p + 5, east, pairp, cap);
      nf = pairsFound(); nt = narrowSoFar();
    }
    for (let m = bits >> 4; m != 0; m &= m - 1) nf = hitAt(i, k, x, y, a, b, entp + (below0 + ctz32(m)) * ENTRY_BYTES, pairp, cap, nf);
    if (n2 > 4) {
      tests -= n2 - 4;
      setPairsFound(nf); setNarrow(nt);
      pairsPastFour(i, k, x, y, a, b, o, entp, planep, stride, below0 + 4, below1, pairp, cap);
      nf = pairsFound(); nt = narrowSoFar();
    }
  }
  setPairsFound(nf);
  setNarrow(nt);
  countTests(tests);
}

/**
 * pairsAgainst four records a step, from the box planes: lanes past the run are masked off, and
 * only the records whose boxes overlap (few) go one by one to the exact test.
 */
// @ts-ignore: decorator
@inline function pairsAgainst4(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: v128, y0: v128, x1: v128, y1: v128,
  entp: i32, planep: i32, stride: i32, from: i32, to: i32, pairp: i32, cap: i32,
): void {
  countTests(to - from);
  let q = from;
  do {
    const o = planep + (q << 2);
    const inRun = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(to - q));
    const hit = v128.and(inRun, planeOverlap(o, stride, x0, y0, x1, y1));
    for (let bits = i32x4.bitmask(hit); bits != 0; bits &= bits - 1) recordHit(i, ki, xi, yi, ai, bi, entp + (q + ctz32(bits)) * ENTRY_BYTES, pairp, cap);
    q += 4;
  } while (q < to);
}

/**
 * The walk's second pass past a run's first four records: pairsAgainst4 from `from` to `to` for
 * entry i (shape k..b), its box loaded from the planes at o (its own entry). Counts on the stats.
 */
// @ts-ignore: decorator
@inline function pairsPastFour(
  i: i32, k: i32, x: f32, y: f32, a: f32, b: f32, o: i32, entp: i32, planep: i32, stride: i32, from: i32, to: i32, pairp: i32, cap: i32,
): void {
  pairsAgainst4(i, k, x, y, a, b, f32x4.splat(f32At(o)), f32x4.splat(f32At(o + stride)), f32x4.splat(f32At(o + 2 * stride)),
    f32x4.splat(f32At(o + 3 * stride)), entp, planep, stride, from, to, pairp, cap);
}

/**
 * recordHit with the pair count in a local: the exact test, and the pair (lo, hi) written without
 * a branch (to the slot after the last pair, which it overwrites or leaves past the count, or to
 * LANES when the buffer is full); returns the new count. The caller counts the test.
 */
// @ts-ignore: decorator
@inline function hitAt(i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, f: i32, pairp: i32, cap: i32, nf: i32): i32 {
  const tag = i32At(f), j = tag & TAG_SLOT;
  const ok = overlapInline(ki, xi, yi, ai, bi, tag >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16));
  const o = pick(pairp + (nf << 3), LANES, <u32>nf < <u32>cap);
  setI32(o, minI32(i, j));
  setI32(o + 4, maxI32(i, j));
  return nf + bit(ok);
}

/** The box of shape i overlaps entry record f's: the exact test, and the pair (lo, hi) when it holds. */
// @ts-ignore: decorator
@inline export function recordHit(i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, f: i32, pairp: i32, cap: i32): void {
  countNarrow(1);
  const tag = i32At(f), j = tag & TAG_SLOT;
  if (overlapInline(ki, xi, yi, ai, bi, tag >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16))) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
}
