// crossPairs' probes of a reach grid: each live slot of the probing side, in slot order, against
// the records of the one cell holding its box's top-left corner. The scalar build tests each run
// record by record; the SIMD build lists the probes whose first four records overlap (or whose
// run is longer) without a branch, then tests the listed ones.
import {
  ENTRY_BYTES, G_COLS, G_INV, G_MAXX, G_MAXY, G_OX, G_OY, G_ROWS, G_SPARSE_RUNS, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_ENTRIES,
  H_GROUPS, H_KIND, H_LARGE, H_PAIRS, H_PAIRS_CAP, H_PLANES, H_X, H_Y, KIND_CIRCLE, KIND_NONE, KIND_RECT, KIND_SHIFT, MAX_COORD,
  PLANE_SLACK, REACH_EXACT, TAG_SLOT,
} from "../../layout/grid.ts";
import { hdr, hdrF, setHdr } from "../header.ts";
import { bit, ctz32, f32At, i32At, pick, popcnt32, setI32, SIMD, toF32, u8At } from "../memory.ts";
import { boxLo, boxX1, boxY1, cellOf, overlapInline, recordOverlaps, rectExact, shapeOk } from "./boxes.ts";
import { cellsOf, kinds4, min4, planeOverlap, shapeOk4 } from "./simd.ts";
import {
  countCells, countNarrow, countTests, emitAt, emitPair, narrowSoFar, noteChecked, noteInvalid, pairsFound, setNarrow, setPairsFound,
} from "./stats.ts";

// What probeReach leaves for crossPairs (per call): the largest probe width and height it met,
// and the live probes it counted (for crossAgain).
let seenW: f32 = 0;
let seenH: f32 = 0;
let probesLive = 0;

// @ts-ignore: decorator
@inline export function seenWidth(): f32 { return seenW; }
// @ts-ignore: decorator
@inline export function seenHeight(): f32 { return seenH; }
// @ts-ignore: decorator
@inline export function liveProbes(): i32 { return probesLive; }

// What probeReachSimd's first pass leaves for the rest of the call.
let passVisited = 0;
let passTests = 0;
let passProbes = 0;
let passListed = 0;
let passCand = 0;
let passW: f32 = 0;
let passH: f32 = 0;

/**
 * Each live slot i in `mask`, in slot order, against the reach grid of the last build: the
 * records of the one cell holding its box's top-left corner (every entity it can overlap is
 * listed there), tested in record order. Emits (i, j), or (j, i) with `rev`; slot i itself is
 * never reported. A probe counts one cell and its run's records (less itself) as tests. Leaves
 * the largest probe width and height it met in seenW and seenH, the live probes in probesLive.
 */
export function probeReach(count: i32, mask: i32, rev: bool): void {
  seenW = 0;
  seenH = 0;
  probesLive = 0;
  if (hdr(G_COLS) == 0) return;
  if (SIMD) probeReachSimd(count, mask, rev);
  else probeReachScalar(count, mask, rev);
  noteChecked(mask);
}

/** probeReach's end: the counts into the call's stats and the next call's choice (G_SPARSE_RUNS). */
// @ts-ignore: decorator
@inline function endProbeReach(visited: i32, tests: i32, probes: i32, w: f32, h: f32): void {
  countCells(visited);
  countTests(tests);
  probesLive = probes;
  setHdr(G_SPARSE_RUNS, bit(tests * 2 < visited));
  seenW = w;
  seenH = h;
}

/** probeReach one probe at a time, each probe's run tested record by record. */
function probeReachScalar(count: i32, mask: i32, rev: bool): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  let visited = 0, tests = 0, probes = 0, w: f32 = 0, h: f32 = 0;
  for (let i = 0; i < count; i++) {
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    probes++;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!shapeOk(ki, xi, yi, ai, bi, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    w = pick(dx, w, dx > w);
    h = pick(dy, h, dy > h);
    if (x0 < ox || y0 < oy || x0 > gx1 || y0 > gy1) continue;
    visited++;
    const c = cellOf(y0, oy, inv, rows) * pitch + cellOf(x0, ox, inv, cols);
    const from = i32At(cellsp + ((c - 1) << 2)), to = i32At(cellsp + (c << 2));
    tests += to - from;
    for (let q = from; q < to; q++) {
      const f = entp + q * ENTRY_BYTES;
      const k = i32At(f) >>> KIND_SHIFT;
      if (!recordOverlaps(k, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16), x0, y0, x1, y1)) continue;
      tests -= bit(reachHit(i, ki, xi, yi, ai, bi, rectExact(ki, xi, yi, ai, bi), f, pairp, cap, rev));
    }
  }
  endProbeReach(visited, tests, probes, w, h);
}

/**
 * probeReach in the SIMD build, in two passes. The first (probeReachFirst) takes four probes a
 * step: boxes and cells by lane, staged as vectors for reachStaged, which takes each probe's
 * first four records against its box in one compare, from the record planes, and appends the
 * probe to a list when one overlaps or its run is longer, without a branch: in a bullet hell most
 * probes meet nothing, in a cluster as many meet something as not, and a branch on it mispredicts
 * as often. (Done lane by lane in the four-probe loop, this kept too many vectors live: the loop
 * spilled.) After a call whose runs were short (G_SPARSE_RUNS), the first pass only writes each
 * probe to a candidate list (candStaged, from the same stage), advancing past it when its run
 * holds records (again without a branch), and a middle pass (reachCandidates) runs the
 * four-record compare for the candidates alone: in a bullet hell most runs are empty. The second
 * pass (passListed) tests the listed probes in order.
 *
 * The list: (slot, run start, run end, overlap bits of the first four) per probe, 16 bytes, in
 * H_BOX (16 bytes per slot; a reach grid has no large entities). The candidates (slot, cell field)
 * come first in the same place and are listed over. The records' box planes were filled after the
 * records (reachScatter), and their tags, with REACH_EXACT for exact rects, as a plane in H_LARGE
 * (a reach grid has no large entities): the second pass reads a record itself only for a shape test.
 */
function probeReachSimd(count: i32, mask: i32, rev: bool): void {
  const sparse = hdr(G_SPARSE_RUNS) != 0;
  const i = probeReachFirst(count, mask, sparse);
  reachTail(i, count, mask, sparse);
  const listed = reachCandidates(passCand, passListed);
  const self = reachListedPairs(listed, rev);
  endProbeReach(passVisited, passTests - self, passProbes, passW, passH);
}

/**
 * probeReachSimd's first pass over slots [0, count & ~3): returns where it stopped, its counts
 * in the pass* globals. One loop (89 lines): split into functions, the vectors it keeps in
 * registers would pass through memory.
 */
function probeReachFirst(count: i32, mask: i32, sparse: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2, listp = hdr(H_BOX);
  const zero = i32x4.splat(0), circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  // The call's splats, read from memory in the loop: V8 keeps few of them in registers, and
  // re-splats a spilled one from its scalar each iteration (two instructions), where a load is
  // one or folds into its use.
  v128.store(PROBE_SPLATS + SP_MASK, i32x4.splat(mask));
  v128.store(PROBE_SPLATS + SP_OX, f32x4.splat(hdrF(G_OX)));
  v128.store(PROBE_SPLATS + SP_OY, f32x4.splat(hdrF(G_OY)));
  v128.store(PROBE_SPLATS + SP_INV, f32x4.splat(hdrF(G_INV)));
  v128.store(PROBE_SPLATS + SP_GX1, f32x4.splat(hdrF(G_MAXX)));
  v128.store(PROBE_SPLATS + SP_GY1, f32x4.splat(hdrF(G_MAXY)));
  v128.store(PROBE_SPLATS + SP_LAST_COL, i32x4.splat(cols - 1));
  v128.store(PROBE_SPLATS + SP_LAST_ROW, i32x4.splat(rows - 1));
  v128.store(PROBE_SPLATS + SP_PITCH, i32x4.splat(pitch));
  v128.store(PROBE_SPLATS + SP_EMPTY, i32x4.splat(cols << 2));
  v128.store(PROBE_SPLATS + SP_CELLS, i32x4.splat(hdr(H_CELLS) + 4));
  // The counts stay in locals until the end: V8 keeps wasm globals in memory (a load and a store per update).
  let visited = 0, probes = 0, i = 0, listed = 0, cand = 0, staged = 0;
  stagedTests = 0;
  let wv = zero, hv = zero;
  for (; i + 4 <= count; i += 4) {
    const k = kinds4(kp + i);
    const live = v128.andnot(i32x4.ne(v128.and(v128.load(gp + (i << 2)), splatted(SP_MASK)), zero), i32x4.eq(k, zero));
    const liveBits = i32x4.bitmask(live);
    if (liveBits == 0) continue;
    probes += popcnt32(liveBits);
    const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
    const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
    let x0 = x, y0 = y, x1: v128, y1: v128, ok: v128;
    if (i32x4.all_true(v128.and(live, i32x4.eq(k, rect)))) {
      // Four live rects (bullets usually are): the box without the kinds' selects.
      x1 = f32x4.add(x, a);
      y1 = f32x4.add(y, b);
      ok = shapeOk4(live, x, y, a, b);
    } else {
      const isCircle = i32x4.eq(k, circle);
      const ac = v128.and(a, isCircle), as = v128.and(a, i32x4.ge_u(k, circle)), bs = v128.bitselect(b, ac, i32x4.eq(k, rect));
      x0 = f32x4.sub(x, ac); y0 = f32x4.sub(y, ac); x1 = f32x4.add(x, as); y1 = f32x4.add(y, bs);
      ok = shapeOk4(live, x, y, as, v128.and(b, i32x4.eq(k, rect)));
    }
    const okBits = i32x4.bitmask(ok);
    for (let bits = liveBits & ~okBits; bits != 0; bits &= bits - 1) noteInvalid(i + ctz32(bits));
    wv = f32x4.pmax(wv, v128.and(f32x4.sub(x1, x0), ok));
    hv = f32x4.pmax(hv, v128.and(f32x4.sub(y1, y0), ok));
    const inside = v128.and(v128.and(ok, v128.and(f32x4.ge(x0, splatted(SP_OX)), f32x4.ge(y0, splatted(SP_OY)))),
      v128.and(f32x4.le(x0, splatted(SP_GX1)), f32x4.le(y0, splatted(SP_GY1))));
    const some = i32x4.bitmask(inside);
    if (some == 0) continue;
    visited += popcnt32(some);
    // Byte offset of each probe's cell field (its run's end; the field before is its start). A
    // lane that does not probe reads the padding cell right of row 0, whose run is always empty.
    const row = cellsOf(y0, splatted(SP_OY), splatted(SP_INV), splatted(SP_LAST_ROW));
    const col = cellsOf(x0, splatted(SP_OX), splatted(SP_INV), splatted(SP_LAST_COL));
    const cell = v128.bitselect(i32x4.shl(i32x4.add(i32x4.mul(row, splatted(SP_PITCH)), col), 2), splatted(SP_EMPTY), inside);
    // Staged: slots and cell fields by lane (and boxes, unless runs are sparse), four probes to
    // a store; reachStaged or candStaged takes them a probe at a time every STAGE_GROUPS
    // groups, with few values live.
    const g = staged << 4;
    v128.store(STAGE + g, i32x4.add(i32x4.splat(i), i32x4(0, 1, 2, 3)));
    v128.store(STAGE + g, i32x4.add(splatted(SP_CELLS), cell), STAGE_PLANE);
    if (!sparse) {
      v128.store(STAGE + g, x0, 2 * STAGE_PLANE);
      v128.store(STAGE + g, y0, 3 * STAGE_PLANE);
      v128.store(STAGE + g, x1, 4 * STAGE_PLANE);
      v128.store(STAGE + g, y1, 5 * STAGE_PLANE);
    }
    if (++staged == STAGE_GROUPS) {
      if (sparse) cand = candStaged(staged << 2, listp, cand);
      else listed = reachStaged(staged << 2, planep, stride, listp, listed);
      staged = 0;
    }
  }
  if (staged != 0) {
    if (sparse) cand = candStaged(staged << 2, listp, cand);
    else listed = reachStaged(staged << 2, planep, stride, listp, listed);
  }
  passVisited = visited;
  passTests = stagedTests;
  passProbes = probes;
  passListed = listed;
  passCand = cand;
  passW = min4(wv, true);
  passH = min4(hv, true);
  return i;
}

/**
 * probeReachSimd's first pass for the last probes, from slot i, one at a time, listed as the
 * vector loop lists them (so pairs stay in slot order).
 */
function reachTail(i: i32, count: i32, mask: i32, sparse: bool): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), gx1 = hdrF(G_MAXX), gy1 = hdrF(G_MAXY);
  const cellsp = hdr(H_CELLS) + 4, planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2, listp = hdr(H_BOX);
  let visited = passVisited, tests = passTests, probes = passProbes, listed = passListed, cand = passCand;
  let w = passW, h = passH;
  for (; i < count; i++) {
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    probes++;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!shapeOk(ki, xi, yi, ai, bi, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    w = pick(dx, w, dx > w);
    h = pick(dy, h, dy > h);
    if (x0 < ox || y0 < oy || x0 > gx1 || y0 > gy1) continue;
    visited++;
    const cp = cellsp + ((cellOf(y0, oy, inv, rows) * pitch + cellOf(x0, ox, inv, cols)) << 2);
    const from = i32At(cp - 4), to = i32At(cp);
    tests += to - from;
    if (sparse) cand = candLane(i, cp, to - from, listp, cand);
    else listed = reachLane(i, from, to, f32x4.splat(x0), f32x4.splat(y0), f32x4.splat(x1), f32x4.splat(y1), planep, stride, listp, listed);
  }
  passVisited = visited;
  passTests = tests;
  passProbes = probes;
  passListed = listed;
  passCand = cand;
  passW = w;
  passH = h;
}

/**
 * probeReachSimd's middle pass: the candidates' first four records against their boxes, listed in
 * place after `listed` entries (an entry is read before any is written over it: the list never
 * runs ahead of the candidates). Returns the list length.
 */
function reachCandidates(cand: i32, listed: i32): i32 {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2, listp = hdr(H_BOX);
  for (let t = 0; t < cand; t++) {
    const e = listp + (t << 4);
    const i = i32At(e), ki = u8At(kp + i);
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const cp = i32At(e + 4);
    listed = reachLane(i, i32At(cp - 4), i32At(cp), f32x4.splat(boxLo(ki, xi, ai)), f32x4.splat(boxLo(ki, yi, ai)),
      f32x4.splat(boxX1(ki, xi, ai)), f32x4.splat(boxY1(ki, yi, ai, bi)), planep, stride, listp, listed);
  }
  return listed;
}

/**
 * probeReachSimd's second pass: the listed probes' overlapping records, in order, the first four
 * from the list's bits, the rest four a step from the planes. The pair and test counts stay in
 * locals (V8 keeps wasm globals in memory: a load and a store per pair). Returns how many records
 * were the probe itself (counted as tests by the first pass, and not tests).
 */
function reachListedPairs(listed: i32, rev: bool): i32 {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP), tagp = hdr(H_LARGE);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2, listp = hdr(H_BOX);
  let nf = pairsFound(), nt = narrowSoFar(), self = 0;
  for (let t = 0; t < listed; t++) {
    const e = listp + (t << 4);
    const i = i32At(e), from = i32At(e + 4), to = i32At(e + 8);
    const ki = u8At(kp + i);
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const exact = rectExact(ki, xi, yi, ai, bi);
    for (let bits = i32At(e + 12); bits != 0; bits &= bits - 1) {
      const q = from + ctz32(bits), tag = i32At(tagp + (q << 2)), j = tag & TAG_SLOT;
      if (j == i) { self++; continue; }
      nt++;
      if (reachTagOverlap(ki, xi, yi, ai, bi, exact, tag, entp + q * ENTRY_BYTES)) nf = emitAt(pairp, cap, nf, rev ? j : i, rev ? i : j);
    }
    if (to - from <= 4) continue;
    const x0 = f32x4.splat(boxLo(ki, xi, ai)), y0 = f32x4.splat(boxLo(ki, yi, ai));
    const x1 = f32x4.splat(boxX1(ki, xi, ai)), y1 = f32x4.splat(boxY1(ki, yi, ai, bi));
    for (let q = from + 4; q < to; q += 4) {
      const inRun = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(to - q));
      const hit = v128.and(inRun, planeOverlap(planep + (q << 2), stride, x0, y0, x1, y1));
      for (let bits = i32x4.bitmask(hit); bits != 0; bits &= bits - 1) {
        const r = q + ctz32(bits), tag = i32At(tagp + (r << 2)), j = tag & TAG_SLOT;
        if (j == i) { self++; continue; }
        nt++;
        if (reachTagOverlap(ki, xi, yi, ai, bi, exact, tag, entp + r * ENTRY_BYTES)) nf = emitAt(pairp, cap, nf, rev ? j : i, rev ? i : j);
      }
    }
  }
  setPairsFound(nf);
  setNarrow(nt);
  return self;
}

// probeReach's staging area: STAGE_GROUPS groups of four probes, as six planes (slots, cell
// fields, x0, y0, x1, y1) of STAGE_PLANE bytes.
const STAGE_GROUPS = 64;
const STAGE_PLANE = STAGE_GROUPS << 4;
const STAGE: i32 = SIMD ? <i32>memory.data(6 * STAGE_PLANE, 16) : 0;

// probeReach's splats of the call's values, 16 bytes each at these offsets.
const PROBE_SPLATS: i32 = SIMD ? <i32>memory.data(11 << 4, 16) : 0;
const SP_MASK = 0;
const SP_OX = 16;
const SP_OY = 32;
const SP_INV = 48;
const SP_GX1 = 64; // the grid's far x and y
const SP_GY1 = 80;
const SP_LAST_COL = 96;
const SP_LAST_ROW = 112;
const SP_PITCH = 128;
const SP_EMPTY = 144; // the empty padding cell's offset
const SP_CELLS = 160; // the cell fields' base

/** The splat stored at `at` in PROBE_SPLATS. */
// @ts-ignore: decorator
@inline function splatted(at: i32): v128 {
  return v128.load(PROBE_SPLATS + at);
}

// The records reachStaged counted as tests since probeReach began.
let stagedTests = 0;

/**
 * probeReach's first pass for `lanes` staged probes (a multiple of four): reachLane on each, in
 * order (a lane that does not probe has the empty padding cell, so it is neither listed nor
 * counted). Returns the list length.
 */
function reachStaged(lanes: i32, planep: i32, stride: i32, listp: i32, listed: i32): i32 {
  let tests = 0;
  for (let l = 0; l < lanes; l += 4) {
    // Four probes a step, their runs read first: each probe's run bounds are loads that wait on a
    // load, and its records' compare waits on them; read four at a time, they overlap.
    const o = STAGE + (l << 2);
    const c0 = i32At(o + STAGE_PLANE), c1 = i32At(o + STAGE_PLANE + 4), c2 = i32At(o + STAGE_PLANE + 8), c3 = i32At(o + STAGE_PLANE + 12);
    const f0 = i32At(c0 - 4), t0 = i32At(c0), f1 = i32At(c1 - 4), t1 = i32At(c1);
    const f2 = i32At(c2 - 4), t2 = i32At(c2), f3 = i32At(c3 - 4), t3 = i32At(c3);
    tests += t0 - f0 + t1 - f1 + t2 - f2 + t3 - f3;
    // Written out lane by lane, so the stage's offsets stay constants in the loads.
    listed = reachLane(i32At(o), f0, t0, v128.load32_splat(o, 2 * STAGE_PLANE), v128.load32_splat(o, 3 * STAGE_PLANE),
      v128.load32_splat(o, 4 * STAGE_PLANE), v128.load32_splat(o, 5 * STAGE_PLANE), planep, stride, listp, listed);
    listed = reachLane(i32At(o + 4), f1, t1, v128.load32_splat(o, 2 * STAGE_PLANE + 4), v128.load32_splat(o, 3 * STAGE_PLANE + 4),
      v128.load32_splat(o, 4 * STAGE_PLANE + 4), v128.load32_splat(o, 5 * STAGE_PLANE + 4), planep, stride, listp, listed);
    listed = reachLane(i32At(o + 8), f2, t2, v128.load32_splat(o, 2 * STAGE_PLANE + 8), v128.load32_splat(o, 3 * STAGE_PLANE + 8),
      v128.load32_splat(o, 4 * STAGE_PLANE + 8), v128.load32_splat(o, 5 * STAGE_PLANE + 8), planep, stride, listp, listed);
    listed = reachLane(i32At(o + 12), f3, t3, v128.load32_splat(o, 2 * STAGE_PLANE + 12), v128.load32_splat(o, 3 * STAGE_PLANE + 12),
      v128.load32_splat(o, 4 * STAGE_PLANE + 12), v128.load32_splat(o, 5 * STAGE_PLANE + 12), planep, stride, listp, listed);
  }
  stagedTests += tests;
  return listed;
}

/**
 * probeReach's first pass for `lanes` staged probes when runs are sparse: candLane on each, in
 * order (a lane that does not probe has the empty padding cell). Returns the candidate count.
 */
function candStaged(lanes: i32, listp: i32, cand: i32): i32 {
  let tests = 0;
  for (let l = 0; l < lanes; l++) {
    const o = STAGE + (l << 2), cp = i32At(o + STAGE_PLANE), run = i32At(cp) - i32At(cp - 4);
    tests += run;
    cand = candLane(i32At(o), cp, run, listp, cand);
  }
  stagedTests += tests;
  return cand;
}

/**
 * probeReach's first pass for probe i whose cell field is at byte `cellp`: writes (i, cellp) at
 * candidate `cand` and returns cand + 1 when its run holds records, else cand; reachLane then
 * takes the candidates.
 */
// @ts-ignore: decorator
@inline function candLane(i: i32, cellp: i32, run: i32, listp: i32, cand: i32): i32 {
  const e = listp + (cand << 4);
  setI32(e, i);
  setI32(e + 4, cellp);
  return cand + bit(run != 0);
}

/**
 * probeReach's first pass for probe i whose cell field is at byte `cellp`: tests the first four
 * records of its run against its box x0..y1 (splat) and appends (i, from, to, bits) to the list
 * when one overlaps or the run is longer. Returns the list length.
 */
// @ts-ignore: decorator
@inline function reachLane(i: i32, from: i32, to: i32, x0: v128, y0: v128, x1: v128, y1: v128, planep: i32, stride: i32, listp: i32, listed: i32): i32 {
  const run = to - from;
  const hit = v128.and(i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(run)), planeOverlap(planep + (from << 2), stride, x0, y0, x1, y1));
  const bits = i32x4.bitmask(hit);
  const e = listp + (listed << 4);
  setI32(e, i);
  setI32(e + 4, from);
  setI32(e + 8, to);
  setI32(e + 12, bits);
  return listed + (bit(bits != 0) | bit(run > 4));
}

/**
 * Whether the probe (shape ki..bi; `exact`: its rectExact) and record f overlap, their boxes known
 * to: reachHit's test, with the record's tag and its cell field's REACH_EXACT bit as one word.
 */
// @ts-ignore: decorator
@inline function reachOverlap(ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, exact: i32, f: i32): bool {
  return reachTagOverlap(ki, xi, yi, ai, bi, exact, i32At(f) | (i32At(f + 20) & REACH_EXACT), f);
}

/**
 * reachOverlap from a record's tag with REACH_EXACT when the record is an exact rect (the SIMD
 * probe's tag plane holds that word): exact rects need nothing more, so the record f is read only
 * otherwise.
 */
// @ts-ignore: decorator
@inline function reachTagOverlap(ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, exact: i32, tag: i32, f: i32): bool {
  return (tag & exact) != 0 ||
    overlapInline(ki, xi, yi, ai, bi, (tag & ~REACH_EXACT) >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16));
}

/**
 * A probe (slot i, shape ki..bi; `exact`: its rectExact) whose box overlaps record f's: the exact
 * test, and the pair when it holds. Two exact rects skip the test: their boxes overlapping is it.
 * Returns true when the record is the probe itself (not a test, and no pair).
 */
// @ts-ignore: decorator
@inline function reachHit(i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, exact: i32, f: i32, pairp: i32, cap: i32, rev: bool): bool {
  const tag = i32At(f), j = tag & TAG_SLOT;
  if (j == i) return true;
  countNarrow(1);
  if (reachOverlap(ki, xi, yi, ai, bi, exact, f)) {
    if (rev) emitPair(pairp, cap, j, i);
    else emitPair(pairp, cap, i, j);
  }
  return false;
}
