// The bucket grid of "Basic Collision Detection in Games" (part 2B), built by counting sort over
// flat stores, and the batched queries that run on it: self pairs, cross pairs, first hits and
// probe queries. Memory layout and header fields: bindings/layout.ts. The TS baseline mirrors this
// file line for line in bindings/baseline/bucket_grid.ts.
//
// Why this shape:
// - Every entity goes into each cell its box covers, so any mix of sizes is exact; a pair held in
//   several shared cells is reported only in the cell of the top-left corner of the two boxes'
//   intersection (the reference-point rule), so nothing is reported twice.
// - Entry records carry a copy of the box, so the pair loop reads memory in order and touches the
//   stores only for the exact test.
// - The grid covers the bounding box of what it holds; the cell count and the entry count are
//   capped per entity, coarsening the grid when huge entities would blow them up. A pile of
//   entities in one cell costs what brute force costs, never more.
import {
  CELLS_PER_ENTITY, ENTRY_BYTES, FLAG_HIT, FLAG_STOPPED, G_CELL, G_COLS, G_ENTRIES, G_INV, G_MASK,
  G_MAXX, G_MAXY, G_OX, G_OY, G_ROWS, G_SELECTED, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_CELLS_CAP,
  H_ENTRIES, H_ENTRIES_CAP, H_FLAGS, H_GROUPS, H_HIST, H_KIND, H_PAIRS, H_PAIRS_CAP, H_RESULTS,
  H_SEL, H_X, H_Y, HIST_BUCKETS, KIND_CIRCLE, KIND_NONE, KIND_RECT, MULTI_CELL, S_AABB_TESTS,
  S_CELLS_VISITED, S_FIRST_INVALID, S_FOUND, S_INVALID, S_NARROW_TESTS, SCRATCH_SLACK, SLOT_MASK,
} from "../bindings/layout";
import { hdr, hdrF, setHdr, setHdrF } from "./header";
import { overlapSlots } from "./shapes";

const MODE_PAIRS = 0; // write (self, j) into the pair buffer
const MODE_FIRST = 1; // find the lowest-slot eligible hit
const MODE_RESULTS = 2; // write j into the results buffer

// The box of the last entityBox call (wasm has no tuples).
let bx0: f32 = 0;
let by0: f32 = 0;
let bx1: f32 = 0;
let by1: f32 = 0;

// Counters of the current call, flushed to the S_* header fields at its end.
let aabbTests = 0;
let narrowTests = 0;
let cellsVisited = 0;
let invalid = 0;
let firstInvalid = -1;
let found = 0;

/** Box of slot i into bx0..by1. False for entities a bulk write made invalid (NaN, infinite, negative size). */
// @ts-ignore: decorator
@inline function entityBox(i: i32, kp: i32, xp: i32, yp: i32, ap: i32, bp: i32): bool {
  const k = <i32>load<u8>(kp + i);
  const x = load<f32>(xp + (i << 2));
  const y = load<f32>(yp + (i << 2));
  const a = load<f32>(ap + (i << 2));
  let ok = true;
  if (k == KIND_RECT) {
    const b = load<f32>(bp + (i << 2));
    bx0 = x; by0 = y; bx1 = x + a; by1 = y + b;
    ok = a >= 0 && b >= 0;
  } else if (k == KIND_CIRCLE) {
    bx0 = x - a; by0 = y - a; bx1 = x + a; by1 = y + a;
    ok = a >= 0;
  } else {
    bx0 = x; by0 = y; bx1 = x; by1 = y;
  }
  // x - x is 0 only for finite x: one subtraction rejects NaN and both infinities.
  return ok && bx0 - bx0 == 0 && by0 - by0 == 0 && bx1 - bx1 == 0 && by1 - by1 == 0;
}

// @ts-ignore: decorator
@inline function noteInvalid(i: i32): void {
  if (invalid == 0) firstInvalid = i;
  invalid++;
}

/** Cell column (or row) of coordinate v, clamped into the grid; compared as a float first, so huge and NaN values clamp too. */
// @ts-ignore: decorator
@inline function cellOf(v: f32, origin: f32, inv: f32, n: i32): i32 {
  const t = (v - origin) * inv;
  return t < 1 ? 0 : min(<i32>t, n - 1); // the conversion saturates (nontrapping-f2i)
}

/** Cell size from the size histogram: twice the upper bound of the bucket holding the 75th percentile. */
function autoCellSize(histp: i32, n: i32): f64 {
  const target = n - (n >> 2);
  let seen = 0;
  let k = 0;
  for (; k < HIST_BUCKETS; k++) {
    seen += load<i32>(histp + (k << 2));
    if (seen >= target) break;
  }
  if (k == 0) return 0; // mostly zero-size entities: the spread decides
  if (k > 253) k = 253;
  return 2 * <f64>reinterpret<f32>(<u32>(k + 1) << 23);
}

/** Builds the grid over live entities with (groups & mask) != 0 among slots [0, count); returns how many it holds. */
export function buildGrid(count: i32, mask: u32, cellSize: f32): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const boxp = hdr(H_BOX), selp = hdr(H_SEL), histp = hdr(H_HIST);
  memory.fill(histp, 0, HIST_BUCKETS << 2);
  invalid = 0;
  firstInvalid = -1;

  // Pass 1: select, box, bounds and size histogram.
  let n = 0;
  let minX = Infinity as f32, minY = Infinity as f32, maxX = -Infinity as f32, maxY = -Infinity as f32;
  for (let i = 0; i < count; i++) {
    if ((load<u32>(gp + (i << 2)) & mask) == 0 || load<u8>(kp + i) == KIND_NONE) continue;
    if (!entityBox(i, kp, xp, yp, ap, bp)) { noteInvalid(i); continue; }
    const o = boxp + (n << 4);
    store<f32>(o, bx0);
    store<f32>(o, by0, 4);
    store<f32>(o, bx1, 8);
    store<f32>(o, by1, 12);
    store<i32>(selp + (n << 2), i);
    minX = min(minX, bx0); minY = min(minY, by0);
    maxX = max(maxX, bx1); maxY = max(maxY, by1);
    const bucket = reinterpret<u32>(max(bx1 - bx0, by1 - by0)) >> 23;
    const hp = histp + (bucket << 2);
    store<i32>(hp, load<i32>(hp) + 1);
    n++;
  }
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
  setHdr(G_SELECTED, n);
  setHdr(G_MASK, mask);
  if (n == 0) {
    setHdr(G_COLS, 0); setHdr(G_ROWS, 0); setHdr(G_ENTRIES, 0);
    return 0;
  }

  // Cell size: the user's or the size histogram's, raised until the cells fit the scratch.
  const w = <f64>maxX - <f64>minX, h = <f64>maxY - <f64>minY;
  const maxCells = <f64>min(hdr(H_CELLS_CAP), n * CELLS_PER_ENTITY + SCRATCH_SLACK);
  let cs: f64 = cellSize > 0 ? <f64>cellSize : autoCellSize(histp, n);
  const spread = Math.sqrt(w * h / maxCells);
  if (cs < spread) cs = spread;
  if (cs < (w + h) / maxCells) cs = (w + h) / maxCells; // everything on one line
  if (!(cs >= 1e-30)) cs = 1e-30 > (w + h) ? 1 : (w + h); // everything on one point
  let cols: f64 = 0, rows: f64 = 0;
  while (true) {
    cols = Math.floor(w / cs) + 1;
    rows = Math.floor(h / cs) + 1;
    if (cols * rows <= maxCells) break;
    cs *= 2;
  }

  // Pass 2: count entries per cell; coarsen when huge entities would overflow the entry scratch.
  const cellsp = hdr(H_CELLS), entCap = hdr(H_ENTRIES_CAP);
  let ncols = <i32>cols, nrows = <i32>rows;
  let inv = <f32>(1 / cs);
  let entries = 0;
  while (true) {
    memory.fill(cellsp, 0, (ncols * nrows) << 2);
    entries = 0;
    for (let s = 0; s < n; s++) {
      const o = boxp + (s << 4);
      const c0x = cellOf(load<f32>(o), minX, inv, ncols);
      const c0y = cellOf(load<f32>(o, 4), minY, inv, nrows);
      const c1x = cellOf(load<f32>(o, 8), minX, inv, ncols);
      const c1y = cellOf(load<f32>(o, 12), minY, inv, nrows);
      entries += (c1x - c0x + 1) * (c1y - c0y + 1);
      if (entries > entCap) break;
      for (let cy = c0y; cy <= c1y; cy++) {
        const row = cellsp + ((cy * ncols) << 2);
        for (let cx = c0x; cx <= c1x; cx++) {
          const p = row + (cx << 2);
          store<i32>(p, load<i32>(p) + 1);
        }
      }
    }
    if (entries <= entCap) break;
    cs *= 2;
    ncols = <i32>(Math.floor(w / cs) + 1);
    nrows = <i32>(Math.floor(h / cs) + 1);
    inv = <f32>(1 / cs);
  }

  // Exclusive prefix sum: each cell's count becomes its first entry.
  const ncells = ncols * nrows;
  let run = 0;
  for (let c = 0; c < ncells; c++) {
    const p = cellsp + (c << 2);
    const k = load<i32>(p);
    store<i32>(p, run);
    run += k;
  }

  // Pass 3: scatter, in slot order, so each cell lists its entities by ascending slot.
  // Afterwards each cell's field holds its end, which is the next cell's start.
  const entp = hdr(H_ENTRIES);
  for (let s = 0; s < n; s++) {
    const o = boxp + (s << 4);
    const x0 = load<f32>(o), y0 = load<f32>(o, 4), x1 = load<f32>(o, 8), y1 = load<f32>(o, 12);
    const c0x = cellOf(x0, minX, inv, ncols), c0y = cellOf(y0, minY, inv, nrows);
    const c1x = cellOf(x1, minX, inv, ncols), c1y = cellOf(y1, minY, inv, nrows);
    const tag = load<i32>(selp + (s << 2)) | ((c0x != c1x || c0y != c1y) ? MULTI_CELL : 0);
    for (let cy = c0y; cy <= c1y; cy++) {
      const row = cellsp + ((cy * ncols) << 2);
      for (let cx = c0x; cx <= c1x; cx++) {
        const p = row + (cx << 2);
        const pos = load<i32>(p);
        store<i32>(p, pos + 1);
        const e = entp + pos * ENTRY_BYTES;
        store<i32>(e, tag);
        store<f32>(e, x0, 4);
        store<f32>(e, y0, 8);
        store<f32>(e, x1, 12);
        store<f32>(e, y1, 16);
      }
    }
  }

  setHdr(G_COLS, ncols);
  setHdr(G_ROWS, nrows);
  setHdrF(G_OX, minX);
  setHdrF(G_OY, minY);
  setHdrF(G_MAXX, maxX);
  setHdrF(G_MAXY, maxY);
  setHdrF(G_INV, inv);
  setHdrF(G_CELL, <f32>cs);
  setHdr(G_ENTRIES, entries);
  return n;
}

// @ts-ignore: decorator
@inline function beginCall(): void {
  aabbTests = 0;
  narrowTests = 0;
  cellsVisited = 0;
  found = 0;
}

// @ts-ignore: decorator
@inline function endCall(): void {
  setHdr(S_AABB_TESTS, aabbTests);
  setHdr(S_NARROW_TESTS, narrowTests);
  setHdr(S_CELLS_VISITED, cellsVisited);
  setHdr(S_FOUND, found);
}

// @ts-ignore: decorator
@inline function emitPair(pairp: i32, cap: i32, a: i32, b: i32): void {
  if (found < cap) {
    const o = pairp + (found << 3);
    store<i32>(o, a);
    store<i32>(o, b, 4);
  }
  found++;
}

/** All overlapping pairs (lo, hi) among live entities in `mask`; returns the total, which may exceed the pair capacity. */
export function selfPairs(count: i32, mask: u32, cellSize: f32): i32 {
  beginCall();
  buildGrid(count, mask, cellSize);
  const ncells = hdr(G_COLS) * hdr(G_ROWS);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV);
  const cellsp = hdr(H_CELLS), entp = hdr(H_ENTRIES);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  let start = 0;
  for (let c = 0; c < ncells; c++) {
    const end = load<i32>(cellsp + (c << 2));
    for (let p = start; p < end; p++) {
      const e = entp + p * ENTRY_BYTES;
      const ti = load<i32>(e);
      const x0 = load<f32>(e, 4), y0 = load<f32>(e, 8), x1 = load<f32>(e, 12), y1 = load<f32>(e, 16);
      for (let q = p + 1; q < end; q++) {
        const f = entp + q * ENTRY_BYTES;
        aabbTests++;
        const u0 = load<f32>(f, 4), v0 = load<f32>(f, 8), u1 = load<f32>(f, 12), v1 = load<f32>(f, 16);
        if (x1 < u0 || x0 > u1 || y1 < v0 || y0 > v1) continue;
        const tj = load<i32>(f);
        // Pairs sharing several cells: report only in the cell of their reference point.
        if ((ti | tj) & MULTI_CELL) {
          const rc = cellOf(max(x0, u0), ox, inv, cols) + cellOf(max(y0, v0), oy, inv, rows) * cols;
          if (rc != c) continue;
        }
        const i = ti & SLOT_MASK, j = tj & SLOT_MASK;
        narrowTests++;
        if (overlapSlots(i, j)) emitPair(pairp, cap, min(i, j), max(i, j));
      }
    }
    start = end;
  }
  cellsVisited = ncells;
  endCall();
  return found;
}

/**
 * Visits the cells under the current box (bx0..by1) of slot `self` and tests what they hold.
 * MODE_PAIRS emits (self, j); MODE_RESULTS writes j (filtered by `mask`); MODE_FIRST returns the
 * lowest eligible slot, or SLOT_MASK when none. Slot `skip` is never reported.
 */
function scanCells(self: i32, skip: i32, mode: i32, mask: u32, exclusive: bool): i32 {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV);
  if (cols == 0 || bx1 < ox || by1 < oy || bx0 > hdrF(G_MAXX) || by0 > hdrF(G_MAXY)) return SLOT_MASK;
  const c0x = cellOf(bx0, ox, inv, cols), c0y = cellOf(by0, oy, inv, rows);
  const c1x = cellOf(bx1, ox, inv, cols), c1y = cellOf(by1, oy, inv, rows);
  const multi = c0x != c1x || c0y != c1y;
  const x0 = bx0, y0 = by0, x1 = bx1, y1 = by1;
  const cellsp = hdr(H_CELLS), entp = hdr(H_ENTRIES);
  const gp = hdr(H_GROUPS), flagp = hdr(H_FLAGS);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP), resp = hdr(H_RESULTS);
  let best = SLOT_MASK;
  for (let cy = c0y; cy <= c1y; cy++) {
    for (let cx = c0x; cx <= c1x; cx++) {
      const c = cy * cols + cx;
      cellsVisited++;
      const start = c == 0 ? 0 : load<i32>(cellsp + ((c - 1) << 2));
      const end = load<i32>(cellsp + (c << 2));
      for (let p = start; p < end; p++) {
        const f = entp + p * ENTRY_BYTES;
        const tj = load<i32>(f);
        const j = tj & SLOT_MASK;
        // Cells list slots in ascending order: past the best so far nothing can win.
        if (mode == MODE_FIRST && j >= best) break;
        if (j == skip) continue;
        aabbTests++;
        const u0 = load<f32>(f, 4), v0 = load<f32>(f, 8), u1 = load<f32>(f, 12), v1 = load<f32>(f, 16);
        if (x1 < u0 || x0 > u1 || y1 < v0 || y0 > v1) continue;
        if (mode == MODE_FIRST) {
          if (exclusive && (load<u8>(flagp + j) & FLAG_HIT)) continue;
        } else if (multi || (tj & MULTI_CELL)) {
          const rc = cellOf(max(x0, u0), ox, inv, cols) + cellOf(max(y0, v0), oy, inv, rows) * cols;
          if (rc != c) continue;
        }
        if (mode == MODE_RESULTS && (load<u32>(gp + (j << 2)) & mask) == 0) continue;
        narrowTests++;
        if (!overlapSlots(self, j)) continue;
        if (mode == MODE_FIRST) { best = j; break; }
        if (mode == MODE_PAIRS) emitPair(pairp, cap, self, j);
        else { store<i32>(resp + (found << 2), j); found++; }
      }
    }
  }
  return best;
}

/** All overlapping pairs (a, b) with a in maskA and b in maskB, a != b; returns the total, which may exceed the capacity. */
export function crossPairs(count: i32, maskA: u32, maskB: u32, cellSize: f32): i32 {
  beginCall();
  buildGrid(count, maskB, cellSize);
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  for (let i = 0; i < count; i++) {
    if ((load<u32>(gp + (i << 2)) & maskA) == 0 || load<u8>(kp + i) == KIND_NONE) continue;
    if (!entityBox(i, kp, xp, yp, ap, bp)) { noteInvalid(i); continue; }
    scanCells(i, i, MODE_PAIRS, 0, false);
  }
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
  endCall();
  return found;
}

/**
 * The seed's markAsHit / markAsStopped pass: bullets (maskA) in ascending slot order each stop at
 * the lowest-slot enemy (maskB) they overlap; with `exclusive`, an enemy already hit this call
 * absorbs no further bullet (the seed's `!enemy.alreadyHit()`). Writes (bullet, enemy) pairs and
 * FLAG_STOPPED / FLAG_HIT into the flags store; returns the number of hits.
 */
export function firstHits(count: i32, maskA: u32, maskB: u32, cellSize: f32, exclusive: bool): i32 {
  beginCall();
  buildGrid(count, maskB, cellSize);
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), flagp = hdr(H_FLAGS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  memory.fill(flagp, 0, count);
  for (let i = 0; i < count; i++) {
    if ((load<u32>(gp + (i << 2)) & maskA) == 0 || load<u8>(kp + i) == KIND_NONE) continue;
    if (!entityBox(i, kp, xp, yp, ap, bp)) { noteInvalid(i); continue; }
    const best = scanCells(i, i, MODE_FIRST, 0, exclusive);
    if (best == SLOT_MASK) continue;
    store<u8>(flagp + i, load<u8>(flagp + i) | FLAG_STOPPED);
    store<u8>(flagp + best, load<u8>(flagp + best) | FLAG_HIT);
    emitPair(pairp, cap, i, best);
  }
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
  endCall();
  return found;
}

/**
 * Entities in `mask` overlapping the probe (the shape in slot CAPACITY), excluding slot `exclude`,
 * written to the results buffer; returns their number. With `useGrid` it visits the cells of the
 * grid of the last build (whose mask must cover `mask`), otherwise it scans every slot.
 */
export function queryProbe(count: i32, mask: u32, useGrid: bool, exclude: i32): i32 {
  beginCall();
  const probe = hdr(H_CAPACITY);
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  if (!entityBox(probe, kp, xp, yp, ap, bp)) { endCall(); return 0; }
  if (useGrid) {
    scanCells(probe, exclude, MODE_RESULTS, mask, false);
  } else {
    const resp = hdr(H_RESULTS);
    const x0 = bx0, y0 = by0, x1 = bx1, y1 = by1;
    for (let j = 0; j < count; j++) {
      if ((load<u32>(gp + (j << 2)) & mask) == 0 || load<u8>(kp + j) == KIND_NONE || j == exclude) continue;
      if (!entityBox(j, kp, xp, yp, ap, bp)) continue;
      aabbTests++;
      if (x1 < bx0 || x0 > bx1 || y1 < by0 || y0 > by1) continue;
      narrowTests++;
      if (overlapSlots(probe, j)) { store<i32>(resp + (found << 2), j); found++; }
    }
  }
  endCall();
  return found;
}
