// crossPairs (every overlapping pair of two masks) and firstHits (each bullet's lowest-slot
// enemy). crossPairs indexes the smaller side in a reach grid (reach.ts) probed by the larger
// side (reach_probe.ts), or, when the records would not fit, the larger side in a home grid
// probed by the other (probes.ts). firstHits keeps each bullet's lowest-slot enemy of crossPairs'
// pairs when the bullets probe, or scans a home grid of the enemies.
import {
  CLASS_ALL, COVER_RECORDS, ENTRY_BYTES, FLAG_HIT, FLAG_STOPPED, G_COLS, G_ENTRIES, G_INDEX_MASK_A, G_INDEX_MASK_B, G_INDEX_SIDE,
  G_INV, G_LARGE, G_MAXX, G_MAXY, G_OX, G_OY, G_PROBE_H, G_PROBE_KNOWN, G_PROBE_MASK, G_PROBE_W, G_ROWS, H_A, H_B, H_CAPACITY,
  H_CELLS, H_ENTRIES, H_FLAGS, H_GROUPS, H_KIND, H_PAIRS, H_PAIRS_CAP, H_X, H_Y, INDEX_A, INDEX_B, INDEX_NONE, KIND_NONE,
  KIND_SHIFT, MAX_COORD, NO_SLOT, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr, hdrF, setHdr, setHdrF } from "../header.ts";
import { bit, f32At, fill, i32At, maxI32, minI32, setI32, setU8, SIMD, u8At } from "../memory.ts";
import { overlapShapes } from "../shapes.ts";
import { boxLo, boxX1, boxY1, cellOf, recordOverlaps, shapeOk } from "./boxes.ts";
import { build } from "./build.ts";
import { checkedAfter } from "./check.ts";
import { firstCrowded, isCrowded, probeCrowded } from "./crowded.ts";
import { MODE_FIRST, probeGrid, scanCells } from "./probes.ts";
import { probeExtent, reachHeight, reachWidth, setReach } from "./reach.ts";
import { liveProbes, probeReach, seenHeight, seenWidth } from "./reach_probe.ts";
import { kinds4, sum4 } from "./simd.ts";
import {
  beginCall, countCells, countNarrow, countTests, emitPair, endCall, flushInvalid, invalidCount, noteInvalid, pairsFound, setPairsFound,
} from "./stats.ts";

/** The end of a crossPairs call: the invalid entities both sides met, and the stats. */
// @ts-ignore: decorator
@inline function endCross(): void {
  flushInvalid();
  endCall();
}

/**
 * crossPairs repeated with the same masks, on the side and widening of the last call. The select pass counts the
 * indexed side, the probe pass the probing side; the call stands when they still make the indexed
 * side the smaller and no probe grew. Returns false otherwise: the caller starts over.
 */
function crossAgain(count: i32, maskA: i32, maskB: i32, cellSize: f32): bool {
  const indexA = hdr(G_INDEX_SIDE) == INDEX_A, probeMask = indexA ? maskB : maskA;
  if (hdr(G_PROBE_KNOWN) == 0 || hdr(G_PROBE_MASK) != probeMask) return false;
  beginCall();
  setReach(hdrF(G_PROBE_W), hdrF(G_PROBE_H));
  const n = build(count, indexA ? maskA : maskB, cellSize, true, 0, CLASS_ALL);
  if (n <= 0) return false; // no grid to probe (the probes go uncounted), or records too many
  const indexed = n + invalidCount(); // live in the indexed mask, as liveInBoth counts them
  if (indexed * COVER_RECORDS > hdr(H_CAPACITY)) return false;
  probeReach(count, probeMask, indexA);
  if (!(seenWidth() <= reachWidth() && seenHeight() <= reachHeight())) return false;
  if (indexA ? indexed >= liveProbes() : liveProbes() < indexed) return false; // crossPairs' choice: index A when na < nb
  setHdrF(G_PROBE_W, seenWidth());
  setHdrF(G_PROBE_H, seenHeight());
  endCross();
  return true;
}

/**
 * crossPairs with the refusal check (check.ts), which its passes make as they read: the build's
 * select pass tests every live slot of the side it indexes, the probes every live slot of the
 * other, and the call refuses at its end when they refused one (checkedAfter). Until then it
 * writes only its scratch and the header, which the facade puts back.
 */
export function crossPairsChecked(count: i32, maskA: i32, maskB: i32, cellSize: f32): i32 {
  return checkedAfter(crossPairs(count, maskA, maskB, cellSize), count, maskA | maskB);
}

/** Whether the last crossPairs had these masks and indexed a side: crossAgain may take the call. */
// @ts-ignore: decorator
@inline function repeated(maskA: i32, maskB: i32): bool {
  return hdr(G_INDEX_SIDE) != INDEX_NONE && hdr(G_INDEX_MASK_A) == maskA && hdr(G_INDEX_MASK_B) == maskB;
}

/**
 * All overlapping pairs (a, b) with a in maskA and b in maskB, a != b; returns the total, which may
 * exceed the capacity. `counted`: the caller ran liveInBoth with these masks (firstHits).
 */
export function crossPairs(count: i32, maskA: i32, maskB: i32, cellSize: f32, counted: bool = false): i32 {
  maskA |= 0; // the js backend may pass masks as numbers up to 2^32: as i32, they compare with the header's
  maskB |= 0;
  if (repeated(maskA, maskB) && crossAgain(count, maskA, maskB, cellSize)) return pairsFound();
  setHdr(G_INDEX_SIDE, INDEX_NONE);
  beginCall();
  if (!counted) liveInBoth(count, maskA, maskB);
  const na = liveA, nb = liveB;
  // Bullets against a few enemies: a reach grid of the smaller side, probed by the larger side in
  // slot order, one cell per probe. The probes read the stores in order and the grid stays in
  // cache, where a grid of the larger side costs a scatter of each of its entities. When the
  // records would not fit (a huge probe widens every entity), a home grid of the larger side.
  // Bullets keep their sizes from frame to frame: the grid is widened by the extents the probes
  // had in the last call with the same mask (G_PROBE_*), and the probe pass measures this call's.
  // When one grew past them (pairs could be missed), the call starts over widened by the measured ones.
  const indexA = na < nb, probeMask = indexA ? maskB : maskA;
  let known = hdr(G_PROBE_KNOWN) != 0 && hdr(G_PROBE_MASK) == probeMask;
  setReach(known ? hdrF(G_PROBE_W) : -1, known ? hdrF(G_PROBE_H) : -1);
  setHdr(G_PROBE_KNOWN, 0);
  if (minI32(na, nb) * COVER_RECORDS <= hdr(H_CAPACITY)) {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!known && !probeExtent(count, probeMask)) break;
      if (build(count, indexA ? maskA : maskB, cellSize, true, 0, CLASS_ALL) < 0) {
        if (!known) break;
        known = false; // the last call's extents may be too wide for the scratch: measure
        continue;
      }
      probeReach(count, probeMask, indexA);
      const w = seenWidth(), h = seenHeight();
      if (w <= reachWidth() && h <= reachHeight()) {
        setHdr(G_PROBE_KNOWN, 1);
        setHdr(G_PROBE_MASK, probeMask);
        setHdrF(G_PROBE_W, w);
        setHdrF(G_PROBE_H, h);
        setHdr(G_INDEX_SIDE, indexA ? INDEX_A : INDEX_B);
        setHdr(G_INDEX_MASK_A, maskA);
        setHdr(G_INDEX_MASK_B, maskB);
        endCross();
        return pairsFound();
      }
      beginCall(); // a probe grew: its pairs so far and the stats go
      if (!(w < Infinity && h < Infinity)) break;
      setReach(w, h);
      known = true;
    }
  }
  // A home grid of the larger side (cheaper to build per entity than to probe), probed by the other.
  // Crowded (a pile in one cell): its cells sorted, each probe's search cut to the records that can reach it.
  const swap = na > nb << 1;
  build(count, swap ? maskA : maskB, cellSize, false, 0, CLASS_ALL);
  if (hdr(G_LARGE) == 0 && isCrowded(hdr(G_ENTRIES), hdr(G_COLS), hdr(G_ROWS))) countCells(probeCrowded(count, swap ? maskB : maskA, swap));
  else probeGrid(count, swap ? maskB : maskA, swap);
  endCross();
  return pairsFound();
}

// Live slots in maskA and in maskB (liveInBoth).
let liveA = 0;
let liveB = 0;

/** Counts liveA and liveB. */
function liveInBoth(count: i32, maskA: i32, maskB: i32): void {
  if (SIMD) liveInBothSimd(count, maskA, maskB);
  else liveInBothScalar(0, 0, 0, count, maskA, maskB);
}

/** liveInBoth four slots at a time, each count kept by lane (a true lane is -1: subtracting counts it). */
function liveInBothSimd(count: i32, maskA: i32, maskB: i32): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const zero = i32x4.splat(0), av = i32x4.splat(maskA), bv = i32x4.splat(maskB);
  let ca = zero, cb = zero, i = 0;
  for (; i + 4 <= count; i += 4) {
    const g = v128.load(gp + (i << 2));
    const dead = i32x4.eq(kinds4(kp + i), zero);
    ca = i32x4.sub(ca, v128.andnot(i32x4.ne(v128.and(g, av), zero), dead));
    cb = i32x4.sub(cb, v128.andnot(i32x4.ne(v128.and(g, bv), zero), dead));
  }
  liveInBothScalar(i, sum4(ca), sum4(cb), count, maskA, maskB);
}

/** liveInBoth one slot at a time from slot i, na and nb counted before it. */
function liveInBothScalar(i: i32, na: i32, nb: i32, count: i32, maskA: i32, maskB: i32): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  for (; i < count; i++) {
    const g = i32At(gp + (i << 2)), live = bit(u8At(kp + i) != KIND_NONE);
    na += live & bit((g & maskA) != 0);
    nb += live & bit((g & maskB) != 0);
  }
  liveA = na;
  liveB = nb;
}

/**
 * The seed's markAsHit / markAsStopped pass: bullets (maskA) in ascending slot order each stop at
 * the lowest-slot enemy (maskB) they overlap; with `exclusive`, an enemy already hit this call
 * absorbs no further bullet (the seed's `!enemy.alreadyHit()`). Writes (bullet, enemy) pairs and
 * FLAG_STOPPED / FLAG_HIT into the flags store; returns the number of hits.
 */
export function firstHits(count: i32, maskA: i32, maskB: i32, cellSize: f32, exclusive: bool): i32 {
  maskA |= 0;
  maskB |= 0;
  // More bullets than enemies: crossPairs indexes the enemies in a reach grid (when they fit) and
  // the bullets probe it in slot order, so each bullet's pairs come out together and in bullet
  // order; each one keeps its lowest-slot eligible enemy. A bullet costs one cell there, where the
  // home grid below costs it four or more. When those pairs pass the pair buffer, or crossPairs
  // indexed the bullets, the home grid below finds the hits, which never pass the bullets.
  liveInBoth(count, maskA, maskB);
  if (liveA >= liveB && liveB * COVER_RECORDS <= hdr(H_CAPACITY)) {
    const total = crossPairs(count, maskA, maskB, cellSize, true);
    // A negative total passed 2^31 pairs (stats.ts): the home grid's hits never pass the bullets.
    if (total >= 0 && total <= hdr(H_PAIRS_CAP) && hdr(G_INDEX_SIDE) == INDEX_B) return firstOfPairs(count, total, exclusive);
  }
  return firstHitsHome(count, maskA, maskB, cellSize, exclusive);
}

/**
 * firstHits from crossPairs' `total` pairs (bullet, enemy), grouped by bullet in ascending bullet
 * order: each bullet keeps its lowest-slot enemy, skipping, with `exclusive`, enemies an earlier
 * bullet hit. Rewrites the pair buffer in place with the hits; sets the flags.
 */
function firstOfPairs(count: i32, total: i32, exclusive: bool): i32 {
  const flagp = hdr(H_FLAGS), pairp = hdr(H_PAIRS);
  fill(flagp, 0, count);
  let hits = 0, q = 0;
  while (q < total) {
    const i = i32At(pairp + (q << 3));
    let best = NO_SLOT;
    for (; q < total && i32At(pairp + (q << 3)) == i; q++) {
      const j = i32At(pairp + (q << 3) + 4);
      if (j < best && !(exclusive && (u8At(flagp + j) & FLAG_HIT))) best = j;
    }
    if (best == NO_SLOT) continue;
    setU8(flagp + i, u8At(flagp + i) | FLAG_STOPPED);
    setU8(flagp + best, u8At(flagp + best) | FLAG_HIT);
    const o = pairp + (hits << 3);
    setI32(o, i);
    setI32(o + 4, best);
    hits++;
  }
  setPairsFound(hits);
  endCall();
  return hits;
}

/** firstHits over a home grid of the enemies, each bullet scanning the cells its box can reach. */
function firstHitsHome(count: i32, maskA: i32, maskB: i32, cellSize: f32, exclusive: bool): i32 {
  beginCall();
  build(count, maskB, cellSize, false, 0, CLASS_ALL);
  fill(hdr(H_FLAGS), 0, count);
  // A pile in a few cells: their records sorted, each bullet's search cut to those that can reach it.
  if (hdr(G_LARGE) == 0 && isCrowded(hdr(G_ENTRIES), hdr(G_COLS), hdr(G_ROWS))) countCells(firstCrowded(count, maskA, exclusive));
  else countCells(firstScan(count, maskA, exclusive));
  flushInvalid();
  endCall();
  return pairsFound();
}

/**
 * firstHitsHome's bullets (maskA) in slot order, each scanning the cells of the home grid just
 * built that its box can reach; sets the flags and emits (bullet, enemy). Returns the cells visited.
 */
function firstScan(count: i32, maskA: i32, exclusive: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), flagp = hdr(H_FLAGS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  // scanCells(i, i, MODE_FIRST) for each bullet with the grid read once per call, as in crossPairs;
  // the same cells in the same order, so the same winner.
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pitch = cols + 1;
  const large = hdr(G_LARGE);
  let visited = 0;
  for (let i = 0; i < count; i++) {
    const sk = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & maskA) == 0 || sk == KIND_NONE) continue;
    const sx = f32At(xp + (i << 2)), sy = f32At(yp + (i << 2));
    const sa = f32At(ap + (i << 2)), sb = f32At(bp + (i << 2));
    const x0 = boxLo(sk, sx, sa), y0 = boxLo(sk, sy, sa), x1 = boxX1(sk, sx, sa), y1 = boxY1(sk, sy, sa, sb);
    if (!shapeOk(sk, sx, sy, sa, sb, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    let best = NO_SLOT;
    if (large > 0) {
      best = scanCells(i, i, MODE_FIRST, 0, exclusive, false, x0, y0, x1, y1);
    } else {
      if (cols == 0 || x1 < ox || y1 < oy || x0 > gx1 || y0 > gy1) continue;
      const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, inv, rows) - 1, 0);
      const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, inv, rows);
      visited += (c1x - c0x + 1) * (c1y - c0y + 1);
      for (let cy = c0y; cy <= c1y; cy++) {
        const row = cy * pitch;
        const from = i32At(cellsp + ((row + c0x - 1) << 2)), to = i32At(cellsp + ((row + c1x) << 2));
        for (let q = from; q < to; q++) {
          const f = entp + q * ENTRY_BYTES;
          const tag = i32At(f), j = tag & TAG_SLOT;
          if (j >= best || j == i) continue; // a run spans cells: later cells may hold lower slots
          const k = tag >>> KIND_SHIFT;
          const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
          countTests(1);
          if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
          if (exclusive && (u8At(flagp + j) & FLAG_HIT)) continue;
          countNarrow(1);
          if (overlapShapes(sk, sx, sy, sa, sb, k, x, y, a, b)) best = j;
        }
      }
    }
    if (best == NO_SLOT) continue;
    setU8(flagp + i, u8At(flagp + i) | FLAG_STOPPED);
    setU8(flagp + best, u8At(flagp + best) | FLAG_HIT);
    emitPair(pairp, cap, i, best);
  }
  return visited;
}
