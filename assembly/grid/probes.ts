// One box against the grid of the last build (scanCells, for a probe query, a large entity, a
// first hit), and every live slot of a mask against a home grid (probeGrid, crossPairs' fallback).
// A small entity reaches at most one cell past its home, so a box looks one cell before its own
// too; a reach grid lists each entity wherever it reaches, so a box looks at its own cells only.
import {
  ENTRY_BYTES, FLAG_HIT, G_COLS, G_COVER, G_INV, G_INVY, G_LARGE, G_MAXX, G_MAXY, G_OX, G_OY, G_ROWS, H_A, H_B, H_BOX,
  H_CAPACITY, H_CELLS, H_ENTRIES, H_FLAGS, H_GROUPS, H_KIND, H_LARGE, H_PAIRS, H_PAIRS_CAP, H_PLANES, H_RESULTS, H_SEL, H_X, H_Y,
  KIND_NONE, KIND_SHIFT, MAX_COORD, NO_SLOT, REACH_EXACT, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr, hdrF } from "../header.ts";
import { copy, f32At, i32At, maxI32, minI32, pick, SIMD, u8At } from "../memory.ts";
import { overlapShapes, overlapSlots } from "../shapes.ts";
import { boxLo, boxX1, boxY1, cellOf, recordOverlaps, shapeOk } from "./boxes.ts";
import { pairCell } from "./reach.ts";
import { noneInMask4 } from "./simd.ts";
import {
  addResult, beginCall, countCells, countNarrow, countTests, emitPair, endCall, flushInvalid, invalidCount, noteChecked, noteInvalid, pairsFound,
  resetInvalid,
} from "./stats.ts";

export const MODE_PAIRS = 0; // write (self, j) into the pair buffer
export const MODE_FIRST = 1; // find the lowest-slot eligible hit
export const MODE_RESULTS = 2; // write j into the results buffer
export const MODE_SELF = 3; // write (lo, hi) into the pair buffer
export const MODE_PAIRS_REV = 4; // write (j, self) into the pair buffer

/**
 * Tests the box x0..y1 of slot `self` against what the grid holds: the small entities in the
 * cells that box can reach, then the large list. MODE_PAIRS emits (self, j), MODE_SELF (lo, hi),
 * MODE_RESULTS writes j (filtered by `mask`), MODE_FIRST returns the lowest eligible slot or
 * NO_SLOT. Slot `skip` is never reported. `smallOnly` leaves out the large list (selfPairs pairs
 * the large entities among themselves).
 */
export function scanCells(self: i32, skip: i32, mode: i32, mask: i32, exclusive: bool, smallOnly: bool, x0: f32, y0: f32, x1: f32, y1: f32): i32 {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), invY = hdrF(G_INVY);
  if (cols == 0 || x1 < ox || y1 < oy || x0 > hdrF(G_MAXX) || y0 > hdrF(G_MAXY)) return NO_SLOT;
  // A small entity reaches at most one cell past its home: look one cell before this box too. A
  // reach grid lists it wherever it reaches: look at this box's cells only, and count a pair met
  // in several of them once (pairCell).
  const cover = hdr(G_COVER) != 0, back = pick(0, 1, cover);
  const c0x = maxI32(cellOf(x0, ox, inv, cols) - back, 0), c0y = maxI32(cellOf(y0, oy, invY, rows) - back, 0);
  const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
  const spans = cover && (c1x != c0x || c1y != c0y);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  const gp = hdr(H_GROUPS), flagp = hdr(H_FLAGS), pitch = cols + 1;
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP), resp = hdr(H_RESULTS);
  const sk = u8At(hdr(H_KIND) + self);
  const sx = f32At(hdr(H_X) + (self << 2)), sy = f32At(hdr(H_Y) + (self << 2));
  const sa = f32At(hdr(H_A) + (self << 2)), sb = f32At(hdr(H_B) + (self << 2));
  let best = NO_SLOT;
  for (let cy = c0y; cy <= c1y; cy++) {
    // A row's cells are contiguous in the entry list: one run per row.
    const row = cy * pitch;
    const from = i32At(cellsp + ((row + c0x - 1) << 2)), to = i32At(cellsp + ((row + c1x) << 2));
    countCells(c1x - c0x + 1);
    for (let p = from; p < to; p++) {
      const f = entp + p * ENTRY_BYTES;
      const tag = i32At(f), j = tag & TAG_SLOT;
      if (mode == MODE_FIRST && j >= best) continue; // a run spans cells: later cells may hold lower slots
      if (j == skip) continue;
      const k = tag >>> KIND_SHIFT;
      const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
      countTests(1);
      if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
      if (spans && !pairCell(k, x, y, a, x0, y0, ox, oy, inv, cols, rows, i32At(f + 20) & ~REACH_EXACT)) continue;
      if (!eligible(j, mode, mask, exclusive, gp, flagp)) continue;
      countNarrow(1);
      if (!overlapShapes(sk, sx, sy, sa, sb, k, x, y, a, b)) continue;
      if (mode == MODE_FIRST) best = j;
      else if (mode == MODE_RESULTS) addResult(resp, j);
      else if (mode == MODE_PAIRS) emitPair(pairp, cap, self, j);
      else if (mode == MODE_PAIRS_REV) emitPair(pairp, cap, j, self);
      else emitPair(pairp, cap, minI32(self, j), maxI32(self, j));
    }
  }
  if (smallOnly) return best;
  const large = hdr(G_LARGE), largep = hdr(H_LARGE);
  for (let k = 0; k < large; k++) {
    const t = i32At(largep + (k << 2));
    const j = i32At(selp + (t << 2));
    if (mode == MODE_FIRST && j >= best) break; // the large list is in ascending slot order
    if (j == skip) continue;
    const f = boxp + (t << 4);
    countTests(1);
    if (x1 < f32At(f) || x0 > f32At(f + 8) || y1 < f32At(f + 4) || y0 > f32At(f + 12)) continue;
    if (!eligible(j, mode, mask, exclusive, gp, flagp)) continue;
    countNarrow(1);
    if (!overlapSlots(self, j)) continue;
    if (mode == MODE_FIRST) best = j;
    else if (mode == MODE_RESULTS) addResult(resp, j);
    else if (mode == MODE_PAIRS_REV) emitPair(pairp, cap, j, self);
    else if (mode == MODE_SELF) emitPair(pairp, cap, minI32(self, j), maxI32(self, j));
    else emitPair(pairp, cap, self, j);
  }
  return best;
}

/** The mode's filter after the boxes overlap: an enemy already hit (exclusive first hits), a slot outside the query mask. */
// @ts-ignore: decorator
@inline function eligible(j: i32, mode: i32, mask: i32, exclusive: bool, gp: i32, flagp: i32): bool {
  if (mode == MODE_FIRST && exclusive && (u8At(flagp + j) & FLAG_HIT)) return false;
  if (mode == MODE_RESULTS && (i32At(gp + (j << 2)) & mask) == 0) return false;
  return true;
}

/**
 * Each live slot i in `mask`, in slot order, probes the grid of the last build: the small entities
 * in the cells its box can reach, then the large list, as scanCells does, with the grid's fields
 * read once per call and the probe's box in locals. Emits (i, j), or (j, i) with `rev`; slot i
 * itself is never reported.
 */
export function probeGrid(count: i32, mask: i32, rev: bool): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  if (cols == 0) return;
  noteChecked(mask); // the loop below tests every live slot in the mask
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const large = hdr(G_LARGE), largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  let visited = 0, tests = 0;
  for (let i = 0; i < count; i++) {
    // The probing side is often a few percent of the slots: in the SIMD build, four outside the mask cost one test.
    if (SIMD && (i & 3) == 0 && i + 4 <= count && noneInMask4(gp + (i << 2), mask)) { i += 3; continue; }
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!shapeOk(ki, xi, yi, ai, bi, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    if (x1 < ox || y1 < oy || x0 > gx1 || y0 > gy1) continue;
    // A small entity reaches at most one cell past its home: look one cell before this box too.
    const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, inv, rows) - 1, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, inv, rows);
    visited += (c1x - c0x + 1) * (c1y - c0y + 1);
    for (let cy = c0y; cy <= c1y; cy++) {
      const row = cy * pitch;
      const from = i32At(cellsp + ((row + c0x - 1) << 2)), to = i32At(cellsp + ((row + c1x) << 2));
      tests += to - from;
      for (let q = from; q < to; q++) {
        const f = entp + q * ENTRY_BYTES;
        const tag = i32At(f), k = tag >>> KIND_SHIFT;
        const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
        if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
        const j = tag & TAG_SLOT;
        if (j == i) { tests--; continue; } // itself (in both masks): not a test, as scanCells counts
        countNarrow(1);
        if (!overlapShapes(ki, xi, yi, ai, bi, k, x, y, a, b)) continue;
        if (rev) emitPair(pairp, cap, j, i);
        else emitPair(pairp, cap, i, j);
      }
    }
    for (let t = 0; t < large; t++) {
      const s = i32At(largep + (t << 2)), o = boxp + (s << 4), j = i32At(selp + (s << 2));
      if (j == i) continue;
      tests++;
      if (x1 < f32At(o) || x0 > f32At(o + 8) || y1 < f32At(o + 4) || y0 > f32At(o + 12)) continue;
      countNarrow(1);
      if (!overlapSlots(i, j)) continue;
      if (rev) emitPair(pairp, cap, j, i);
      else emitPair(pairp, cap, i, j);
    }
  }
  countCells(visited);
  countTests(tests);
}

/**
 * Entities in `mask` overlapping the probe (the shape in slot CAPACITY), excluding slot `exclude`,
 * written to the results buffer; returns their number. With `useGrid` it visits the cells of the
 * grid of the last build (whose mask must cover `mask`), otherwise it scans every slot, counting
 * the slots that hold no valid shape into S_INVALID / S_FIRST_INVALID as a build does (the facade
 * refuses such a call as it refuses a pair query); so is `exclude` when its own shape, the probe of
 * touching(), is not valid.
 */
export function queryProbe(count: i32, mask: i32, useGrid: bool, exclude: i32): i32 {
  beginCall();
  resetInvalid();
  const probe = hdr(H_CAPACITY), kp = hdr(H_KIND);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const k = u8At(kp + probe), x = f32At(xp + (probe << 2)), y = f32At(yp + (probe << 2));
  const a = f32At(ap + (probe << 2)), b = f32At(bp + (probe << 2));
  const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
  if (shapeOk(k, x, y, a, b, <f32>MAX_COORD)) {
    if (useGrid) scanCells(probe, exclude, MODE_RESULTS, mask, false, false, x0, y0, x1, y1);
    else queryAll(count, mask, exclude, probe, x0, y0, x1, y1);
  } else if (exclude >= 0) noteInvalid(exclude); // touching: the entity's own shape is the probe
  flushInvalid();
  if (invalidCount() > 0) return 0; // refused: the results and stats stay the last call's
  if (!useGrid) copy(hdr(H_RESULTS), hdr(H_PLANES), pairsFound() << 2);
  endCall();
  return pairsFound();
}

/**
 * queryProbe without a grid: every live slot in `mask` but `exclude`, against the probe's box
 * x0..y1. The results go to the planes (scratch, free between calls) and queryProbe copies them to
 * H_RESULTS once no slot was invalid: the scan meets an invalid slot only after it has found some
 * results, and a refused call leaves the last results as they were.
 */
function queryAll(count: i32, mask: i32, exclude: i32, probe: i32, x0: f32, y0: f32, x1: f32, y1: f32): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), resp = hdr(H_PLANES);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  for (let j = 0; j < count; j++) {
    const k = u8At(kp + j);
    if ((i32At(gp + (j << 2)) & mask) == 0 || k == KIND_NONE || j == exclude) continue;
    const x = f32At(xp + (j << 2)), y = f32At(yp + (j << 2));
    const a = f32At(ap + (j << 2)), b = f32At(bp + (j << 2));
    const bx0 = boxLo(k, x, a), by0 = boxLo(k, y, a), bx1 = boxX1(k, x, a), by1 = boxY1(k, y, a, b);
    if (!shapeOk(k, x, y, a, b, <f32>MAX_COORD)) { noteInvalid(j); continue; } // as the pair queries' check does: the facade refuses the call
    countTests(1);
    if (x1 < bx0 || x0 > bx1 || y1 < by0 || y0 > by1) continue;
    countNarrow(1);
    if (overlapSlots(probe, j)) addResult(resp, j);
  }
}
