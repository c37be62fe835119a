// Pass 2 of a home grid: each selected entity's home cell (the cell of its box's top-left
// corner), its rank there and the counts per cell; the entities too large for one cell past
// home go to the large list instead. Two small entities can only overlap when their homes are
// neighbours: the walk then tests each cell against itself and half its neighbours.
import {
  ENTRY_BYTES, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_ENTRIES, H_HOME, H_KIND, H_LARGE, H_PLANES, H_SEL, H_X, H_Y, KIND_CIRCLE,
  KIND_RECT,
} from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { f32At, fill, i32At, popcnt32, setF32, setI32, setU16, SIMD, u16At, u8At } from "../memory.ts";
import { boxLo, boxX1, boxY1, cellOf } from "./boxes.ts";
import { gridCols, gridOriginX, gridOriginY, gridRows } from "./shape.ts";
import { cellsOf, gather, gatherU8, kinds4, LANES } from "./simd.ts";

// The running pass (per call): the large count and the ranks' or, between the SIMD body and the scalar tail.
let homeLarge = 0;
let homeFull = 0;

/**
 * Pass 2: home cell of each selected entity and counts per cell, and each entity's rank in its
 * cell (the count before it, in H_PLANES' first plane, free until the walk fills the planes): the
 * scatter then reads its cell's start instead of bumping a cursor, so the random counts are
 * written once, here. The counts are u16 in the entries (free until the scatter; prefix16 makes
 * the cell fields from them). Large entities (reaching more than one cell past home) go to the
 * large list instead (their selection index; their box into H_BOX at that index); returns how many
 * did, or -1 when a u16 count may have wrapped.
 */
export function homePass16(n: i32, inv: f32, invY: f32): i32 {
  return homePassWith(n, inv, invY, true);
}

/** homePass16 with i32 counts in the cell fields (none wraps); returns how many entities are large. */
export function homePass32(n: i32, inv: f32, invY: f32): i32 {
  return homePassWith(n, inv, invY, false);
}

/** homePass16 (`counts16`, a constant at both callers) or homePass32. */
// @ts-ignore: decorator
@inline function homePassWith(n: i32, inv: f32, invY: f32, counts16: bool): i32 {
  const pitch = gridCols() + 1, rows = gridRows();
  const countp = counts16 ? hdr(H_ENTRIES) : hdr(H_CELLS) + 4;
  if (counts16) fill(countp, 0, (pitch * (rows + 1)) << 1);
  else fill(countp - 4, 0, (pitch * (rows + 1) + 1) << 2);
  homeLarge = 0;
  homeFull = 0;
  if (SIMD) homesSimd(n, inv, invY, countp, counts16);
  else homesScalar(0, n, inv, invY, countp, counts16);
  // A rank of 0xffff (a u16 count that wrapped) sets all 16 bits of the ranks' or; so does a
  // cell past 32,767 entities now and then, which only costs the i32 pass.
  if (counts16 && homeFull >= 0xffff) return -1;
  return homeLarge;
}

/**
 * The home pass four entities at a time: boxes and the four cellOf of each by lane, the small
 * test by lane, homes stored as one vector; only the count increments go one by one. Four
 * consecutive slots (the common case: a mask that takes most entities) load as vectors, others
 * gather. homesScalar takes the last entities.
 */
// @ts-ignore: decorator
@inline function homesSimd(n: i32, inv: f32, invY: f32, countp: i32, counts16: bool): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), homep = hdr(H_HOME), rankp = hdr(H_PLANES);
  const cols = gridCols(), rows = gridRows();
  const circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  const oxv = f32x4.splat(gridOriginX()), oyv = f32x4.splat(gridOriginY()), invv = f32x4.splat(inv), invYv = f32x4.splat(invY);
  const lastCol = i32x4.splat(cols - 1), lastRow = i32x4.splat(rows - 1), pitchv = i32x4.splat(cols + 1);
  let s = 0, large = 0, full = 0;
  for (; s + 4 <= n; s += 4) {
    const sel = v128.load(selp + (s << 2));
    const i0 = i32x4.extract_lane(sel, 0);
    let k: v128, x: v128, y: v128, a: v128, b: v128;
    if (i32x4.extract_lane(sel, 3) - i0 == 3) {
      k = kinds4(kp + i0);
      x = v128.load(xp + (i0 << 2)); y = v128.load(yp + (i0 << 2));
      a = v128.load(ap + (i0 << 2)); b = v128.load(bp + (i0 << 2));
    } else {
      const i1 = i32x4.extract_lane(sel, 1), i2 = i32x4.extract_lane(sel, 2), i3 = i32x4.extract_lane(sel, 3);
      k = gatherU8(kp, i0, i1, i2, i3);
      x = gather(xp, i0, i1, i2, i3); y = gather(yp, i0, i1, i2, i3);
      a = gather(ap, i0, i1, i2, i3); b = gather(bp, i0, i1, i2, i3);
    }
    const isCircle = i32x4.eq(k, circle);
    const ac = v128.and(a, isCircle);
    const x0 = f32x4.sub(x, ac), y0 = f32x4.sub(y, ac);
    const x1 = f32x4.add(x, v128.and(a, i32x4.ge_u(k, circle))), y1 = f32x4.add(y, v128.bitselect(b, ac, i32x4.eq(k, rect)));
    const home = homes4(x0, y0, x1, y1, oxv, oyv, invv, invYv, lastCol, lastRow, pitchv), bigBits = i32x4.bitmask(home);
    full |= homeGroup(s, home, bigBits, x0, y0, x1, y1, large, homep, rankp, countp, counts16);
    large += popcnt32(bigBits);
  }
  homeLarge = large;
  homeFull = full;
  homesScalar(s, n, inv, invY, countp, counts16);
}

/**
 * The home pass one entity at a time from selected entity s: the whole pass in the scalar build,
 * the last entities in the SIMD build. The large count and the ranks' or go on from homeLarge and
 * homeFull.
 */
// @ts-ignore: decorator
@inline function homesScalar(s: i32, n: i32, inv: f32, invY: f32, countp: i32, counts16: bool): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const boxp = hdr(H_BOX), selp = hdr(H_SEL), homep = hdr(H_HOME), largep = hdr(H_LARGE), rankp = hdr(H_PLANES);
  const cols = gridCols(), rows = gridRows(), ox = gridOriginX(), oy = gridOriginY();
  let large = homeLarge, full = homeFull;
  for (; s < n; s++) {
    const i = i32At(selp + (s << 2)), k = u8At(kp + i);
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    const c = homeOf(x0, y0, x1, y1, ox, oy, inv, invY, cols, rows);
    if (c < 0) markLarge(homep, boxp, largep, s, large++, x0, y0, x1, y1);
    else full |= homeOne(s, c, homep, rankp, countp, counts16);
  }
  homeLarge = large;
  homeFull = full;
}

/** Home cells of four boxes by lane (cellOf's), as homeOf: -1 in the lanes of large boxes. */
// @ts-ignore: decorator
@inline export function homes4(x0: v128, y0: v128, x1: v128, y1: v128, oxv: v128, oyv: v128, invv: v128, invYv: v128, lastCol: v128, lastRow: v128, pitchv: v128): v128 {
  const one = i32x4.splat(1);
  const c0x = cellsOf(x0, oxv, invv, lastCol), c0y = cellsOf(y0, oyv, invYv, lastRow);
  const big = v128.or(i32x4.gt_s(i32x4.sub(cellsOf(x1, oxv, invv, lastCol), c0x), one), i32x4.gt_s(i32x4.sub(cellsOf(y1, oyv, invYv, lastRow), c0y), one));
  return v128.or(i32x4.add(i32x4.mul(c0y, pitchv), c0x), big);
}

/**
 * Selected entities s..s + 3 (boxes x0..y1 by lane) go to their homes (homes4's, `bigBits` its
 * bitmask: the large lanes): the homes stored, the small ranked (counts at countp, u16 with
 * `counts16`, else i32), the large listed from index `large` on. Returns the ranks' or; the caller
 * adds popcnt(bigBits) to large.
 */
// @ts-ignore: decorator
@inline export function homeGroup(s: i32, home: v128, bigBits: i32, x0: v128, y0: v128, x1: v128, y1: v128, large: i32, homep: i32, rankp: i32, countp: i32, counts16: bool): i32 {
  v128.store(homep + (s << 2), home);
  if (bigBits == 0) return rank4(countp, home, rankp + (s << 2), counts16);
  return homeLanes(s, home, x0, y0, x1, y1, large, countp, counts16);
}

/** Bumps the counts at countp of four small entities' homes, writing their ranks at r; returns the ranks' or. */
// @ts-ignore: decorator
@inline function rank4(countp: i32, home: v128, r: i32, counts16: bool): i32 {
  const r0 = rank(countp, i32x4.extract_lane(home, 0), counts16), r1 = rank(countp, i32x4.extract_lane(home, 1), counts16);
  const r2 = rank(countp, i32x4.extract_lane(home, 2), counts16), r3 = rank(countp, i32x4.extract_lane(home, 3), counts16);
  setI32(r, r0);
  setI32(r + 4, r1);
  setI32(r + 8, r2);
  setI32(r + 12, r3);
  return r0 | r1 | r2 | r3;
}

/**
 * Selected entities s..s + 3 (boxes x0..y1 by lane, homes as homes4 gives them: -1 for the
 * large), one at least large, one by one: the small ranked in their homes (counts at countp), the
 * large listed from index `large` on (as many as home has -1 lanes). Returns the ranks' or.
 */
function homeLanes(s: i32, home: v128, x0: v128, y0: v128, x1: v128, y1: v128, large: i32, countp: i32, counts16: bool): i32 {
  const homep = hdr(H_HOME), rankp = hdr(H_PLANES), boxp = hdr(H_BOX), largep = hdr(H_LARGE);
  v128.store(LANES, x0); v128.store(LANES, y0, 16); v128.store(LANES, x1, 32); v128.store(LANES, y1, 48); v128.store(LANES, home, 64);
  let full = 0;
  for (let l = 0; l < 4; l++) {
    const f = LANES + (l << 2), c = i32At(f + 64);
    if (c < 0) markLarge(homep, boxp, largep, s + l, large++, f32At(f), f32At(f + 16), f32At(f + 32), f32At(f + 48));
    else full |= homeOne(s + l, c, homep, rankp, countp, counts16);
  }
  return full;
}

/** Small selected entity s goes to home cell c: its home, and its rank there (counts at countp), which it returns. */
// @ts-ignore: decorator
@inline export function homeOne(s: i32, c: i32, homep: i32, rankp: i32, countp: i32, counts16: bool): i32 {
  setI32(homep + (s << 2), c);
  const r = rank(countp, c, counts16);
  setI32(rankp + (s << 2), r);
  return r;
}

/** The home cell of box x0..y1 (the cell of its top-left corner; the table's pitch is cols + 1), or -1 when the box is large. */
// @ts-ignore: decorator
@inline export function homeOf(x0: f32, y0: f32, x1: f32, y1: f32, ox: f32, oy: f32, inv: f32, invY: f32, cols: i32, rows: i32): i32 {
  const c0x = cellOf(x0, ox, inv, cols), c0y = cellOf(y0, oy, invY, rows);
  const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
  return c1x - c0x > 1 || c1y - c0y > 1 ? -1 : c0y * (cols + 1) + c0x;
}

/** Whether u16 counts for ncells cells fit in the entries (free until the scatter). */
// @ts-ignore: decorator
@inline export function countsFit16(ncells: i32): bool {
  return (ncells << 1) <= hdr(H_CAPACITY) * ENTRY_BYTES;
}

/** Bumps cell c's count (u16 with `counts16`, else i32, at countp), returning the count before: the entity's rank in its cell. */
// @ts-ignore: decorator
@inline function rank(countp: i32, c: i32, counts16: bool): i32 {
  if (counts16) {
    const p = countp + (c << 1), r = u16At(p);
    setU16(p, r + 1);
    return r;
  }
  const p = countp + (c << 2), r = i32At(p);
  setI32(p, r + 1);
  return r;
}

/** Selected entity s goes to the large list at index `at`: no home cell, its box into H_BOX at s. */
// @ts-ignore: decorator
@inline export function markLarge(homep: i32, boxp: i32, largep: i32, s: i32, at: i32, x0: f32, y0: f32, x1: f32, y1: f32): void {
  setI32(homep + (s << 2), -1);
  const o = boxp + (s << 4);
  setF32(o, x0);
  setF32(o + 4, y0);
  setF32(o + 8, x1);
  setF32(o + 12, y1);
  setI32(largep + (at << 2), s);
}
