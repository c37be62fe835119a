// Reach grids, for crossPairs' probes: the smaller side's entities, each listed in every cell its
// box reaches once widened left and up by the probes' largest extents, so that a probe finds every
// entity it can overlap in the one cell holding its box's top-left corner (reach_probe.ts). The
// widening is measured (probeExtent) or taken from the last call with the same probes.
import {
  ENTRY_BYTES, H_A, H_B, H_CAPACITY, H_CELLS, H_ENTRIES, H_GROUPS, H_HOME, H_KIND, H_LARGE, H_PLANES, H_SEL, H_X, H_Y,
  KIND_CIRCLE, KIND_NONE, KIND_RECT, KIND_SHIFT, MAX_COORD, PLANE_SLACK,
} from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { f32At, fill, i32At, maxF32, pick, setF32, setI32, SIMD, toF32, u8At } from "../memory.ts";
import { boxLo, boxX1, boxY1, bump, cellOf, reachLo, rectExact, shapeOk } from "./boxes.ts";
import { gridCols, gridOriginX, gridOriginY, gridRows } from "./shape.ts";
import { fillPlanes, kinds4, min4, shapeOk4 } from "./simd.ts";

// The widening of the reach grid being built and probed (per call): the largest probe width and
// height it finds every pair for.
let reachW: f32 = 0;
let reachH: f32 = 0;

/** The reach grid built next is widened by w and h (crossPairs: the last call's probe extents, or the measured ones). */
// @ts-ignore: decorator
@inline export function setReach(w: f32, h: f32): void {
  reachW = w;
  reachH = h;
}

// @ts-ignore: decorator
@inline export function reachWidth(): f32 { return reachW; }
// @ts-ignore: decorator
@inline export function reachHeight(): f32 { return reachH; }

/**
 * The largest box width and height among the live slots in `mask` within the facade's rule
 * (shapeOk), as the widening (reachW, reachH); false when one is not finite, which such slots
 * cannot give (a guard).
 */
export function probeExtent(count: i32, mask: i32): bool {
  if (SIMD) probeExtentSimd(count, mask);
  else probeExtentScalar(0, 0, 0, count, mask);
  return reachW < Infinity && reachH < Infinity;
}

/** probeExtent four slots at a time, the extents kept by lane. */
function probeExtentSimd(count: i32, mask: i32): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), ap = hdr(H_A), bp = hdr(H_B);
  const xp = hdr(H_X), yp = hdr(H_Y);
  const maskv = i32x4.splat(mask), zero = i32x4.splat(0), circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  let wv = zero, hv = zero, i = 0;
  for (; i + 4 <= count; i += 4) {
    const k = kinds4(kp + i);
    const live = v128.andnot(i32x4.ne(v128.and(v128.load(gp + (i << 2)), maskv), zero), i32x4.eq(k, zero));
    if (!v128.any_true(live)) continue;
    const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
    const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
    const isCircle = i32x4.eq(k, circle);
    const ac = v128.and(a, isCircle), as = v128.and(a, i32x4.ge_u(k, circle)), bs = v128.bitselect(b, ac, i32x4.eq(k, rect));
    const x0 = f32x4.sub(x, ac), y0 = f32x4.sub(y, ac), x1 = f32x4.add(x, as), y1 = f32x4.add(y, bs);
    const ok = shapeOk4(live, x, y, as, v128.and(b, i32x4.eq(k, rect)));
    wv = f32x4.pmax(wv, v128.and(f32x4.sub(x1, x0), ok));
    hv = f32x4.pmax(hv, v128.and(f32x4.sub(y1, y0), ok));
  }
  probeExtentScalar(i, min4(wv, true), min4(hv, true), count, mask);
}

/** probeExtent one slot at a time from slot i, the extents w and h so far. */
function probeExtentScalar(i: i32, w: f32, h: f32, count: i32, mask: i32): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), ap = hdr(H_A), bp = hdr(H_B);
  const xp = hdr(H_X), yp = hdr(H_Y);
  for (; i < count; i++) {
    const k = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || k == KIND_NONE) continue;
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    if (!shapeOk(k, x, y, a, b, <f32>MAX_COORD)) continue;
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    w = pick(dx, w, dx > w);
    h = pick(dy, h, dy > h);
  }
  reachW = w;
  reachH = h;
}

/**
 * Pass 2 of a reach grid: counts per cell of every cell each entity reaches, its box widened left
 * by reachW and up by reachH (the probes' largest extents, so a probe finds every entity it can
 * overlap in the one cell of its top-left corner). Each entity's first cell and reach (columns and
 * rows past it) go to H_HOME, 12 bytes per entity (a reach grid holds at most a ninth of the
 * capacity). Returns the records, or -1 when they would pass `most` (a huge entity or probe:
 * crossPairs then builds a home grid).
 */
export function reachPass(n: i32, inv: f32, most: i32): i32 {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), cellsp = hdr(H_CELLS) + 4, homep = hdr(H_HOME);
  const cols = gridCols(), rows = gridRows(), pitch = cols + 1, ox = gridOriginX(), oy = gridOriginY(), w = reachW, h = reachH;
  fill(cellsp - 4, 0, (pitch * (rows + 1) + 1) << 2);
  let records = 0;
  for (let s = 0; s < n; s++) {
    const i = i32At(selp + (s << 2)), k = u8At(kp + i);
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const c0x = cellOf(reachLo(boxLo(k, x, a), w), ox, inv, cols), c0y = cellOf(reachLo(boxLo(k, y, a), h), oy, inv, rows);
    const c1x = cellOf(boxX1(k, x, a), ox, inv, cols), c1y = cellOf(boxY1(k, y, a, b), oy, inv, rows);
    const r = (c1x - c0x + 1) * (c1y - c0y + 1); // at most the cells, which fit an i32
    if (r > most - records) return -1;
    records += r;
    const c = c0y * pitch + c0x, o = homep + s * 12;
    setI32(o, c);
    setI32(o + 4, c1x - c0x);
    setI32(o + 8, c1y - c0y);
    for (let row = c; row <= c + (c1y - c0y) * pitch; row += pitch) {
      for (let q = row; q <= row + c1x - c0x; q++) bump(cellsp + (q << 2));
    }
  }
  return records;
}

/**
 * Pass 3 of a reach grid: a record of each entity in every cell it reaches (reachPass's cells), in
 * selection order (`records` in all). A rect whose f32 box is its exact box gets REACH_EXACT in its
 * records' cell field.
 */
export function reachScatter(n: i32, records: i32): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), homep = hdr(H_HOME), pitch = gridCols() + 1;
  for (let s = 0; s < n; s++) {
    const i = i32At(selp + (s << 2)), tag = i | (u8At(kp + i) << KIND_SHIFT);
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const o = homep + s * 12, c = i32At(o), dx = i32At(o + 4), dy = i32At(o + 8);
    const exact = rectExact(tag >>> KIND_SHIFT, x, y, a, b);
    for (let row = c; row <= c + dy * pitch; row += pitch) {
      for (let q = row; q <= row + dx; q++) putRecord(cellsp, entp, q, tag, x, y, a, b, exact);
    }
  }
  // The SIMD probe's box planes and tag plane, in record order, after the records: written with
  // each record, they would be six random writes a record where the records alone are one.
  if (SIMD) fillPlanes(entp, records, hdr(H_PLANES), (hdr(H_CAPACITY) + PLANE_SLACK) << 2, hdr(H_LARGE), true);
}

/** Appends record (tag, x, y, a, b, c | flag) to cell c's run; returns its index. */
// @ts-ignore: decorator
@inline function putRecord(cellsp: i32, entp: i32, c: i32, tag: i32, x: f32, y: f32, a: f32, b: f32, flag: i32): i32 {
  const p = cellsp + (c << 2);
  const pos = i32At(p);
  setI32(p, pos + 1);
  const e = entp + pos * ENTRY_BYTES;
  setI32(e, tag);
  setF32(e + 4, x);
  setF32(e + 8, y);
  setF32(e + 12, a);
  setF32(e + 16, b);
  setI32(e + 20, c | flag);
  return pos;
}

/**
 * In a reach grid, whether a record in cell `cell` is where the pair with box x0..y0 is reported:
 * the cell of the top-left corner of the two boxes' intersection, which both boxes cover, so a pair
 * met in several cells counts in exactly one.
 */
// @ts-ignore: decorator
@inline export function pairCell(k: i32, x: f32, y: f32, a: f32, x0: f32, y0: f32, ox: f32, oy: f32, inv: f32, cols: i32, rows: i32, cell: i32): bool {
  const px = maxF32(x0, boxLo(k, x, a)), py = maxF32(y0, boxLo(k, y, a));
  return cellOf(py, oy, inv, rows) * (cols + 1) + cellOf(px, ox, inv, cols) == cell;
}
