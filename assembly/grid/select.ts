// Pass 1 of a build: the live entities in the mask (and a split's class), in slot order, into
// H_SEL; the bounds of their boxes; the size histogram that picks the cell size. selfPairs' one
// grid in the SIMD build does pass 2 (homes) here too, on the grid it guesses (the last one).
import {
  CLASS_ALL, CLASS_WIDE, G_GUESS_COLS, G_GUESS_OX, G_GUESS_OY, G_GUESS_ROWS, G_GUESS_SIDE, HIST_BUCKETS, H_A, H_B, H_BOX,
  H_CAPACITY, H_ENTRIES, H_GROUPS, H_HIST, H_HOME, H_KIND, H_LARGE, H_PLANES, H_SEL, H_X, H_Y, KIND_CIRCLE, KIND_NONE, KIND_RECT,
  MAX_COORD,
} from "../../layout/grid.ts";
import { hdr, hdrD, hdrF } from "../header.ts";
import { ctz32, f32At, f32Bits, fill, i32At, pick, popcnt32, setI32, SIMD, toF32, u8At } from "../memory.ts";
import { boxLo, boxX1, boxY1, bump, shapeOk } from "./boxes.ts";
import { homeGroup, homeOf, homeOne, homes4, markLarge } from "./home.ts";
import { setBounds } from "./shape.ts";
import { kinds4, LANES, min4, PACK, shapeOk4 } from "./simd.ts";
import { noteInvalid } from "./stats.ts";

// Past this many slots the size histogram counts every eighth selected entity.
const HIST_SAMPLE_FROM = 4096;

// The running pass (per call): the bounds of the selected boxes, and with homes the large count
// and the ranks' or, between the SIMD body and the scalar tail.
let loX: f32 = 0;
let loY: f32 = 0;
let hiX: f32 = 0;
let hiY: f32 = 0;
let selLarge = 0;
let selFull = 0;
// selectHomePass's large count, or -1 when a u16 count may have wrapped. (The guessed grid
// itself, the last one selfPairs built, is in the G_GUESS_* header fields: it outlives the call.)
let guessLarge = 0;
// Entries at the end of H_SEL the select pass leaves alone (selfPairs' split keeps the wide
// grid's tags there while it builds the tall one); 0 but during that build.
let selKeep = 0;

/** The select passes leave the last n entries of H_SEL alone until this is called again with 0. */
// @ts-ignore: decorator
@inline export function keepSelected(n: i32): void {
  selKeep = n;
}

/** The large count the last selectHomePass found on the guessed grid, or -1 when a u16 count may have wrapped. */
// @ts-ignore: decorator
@inline export function guessedLarge(): i32 {
  return guessLarge;
}

/**
 * Pass 1: select (slots into H_SEL, in slot order), bounds and size histogram; returns how many
 * were selected. Past HIST_SAMPLE_FROM slots the histogram counts every eighth selected entity: it
 * only picks the cell size, and a sample of thousands picks the same percentile bucket. The bounds
 * leave with +0 for -0: the SIMD build keeps a minimum per lane, and which zero a slot-order scan
 * meets first is lost there (the sign of the origin changes no cell).
 */
export function selectPass(count: i32, mask: i32, cls: i32): i32 {
  const sample = startSelect(count);
  const n = SIMD ? selectSimd(count, mask, cls, sample) : selectScalar(0, 0, count, mask, cls, sample, false);
  return endSelect(n, sample);
}

/**
 * selectPass for selfPairs' one grid in the SIMD build (CLASS_ALL), with pass 2 too, on the
 * guessed grid (the last one, G_GUESS_*): homePass16's homes, ranks, counts and large list, the
 * large count into guessLarge (-1 when a count may have wrapped). build keeps them when this
 * frame's bounds and histogram make that grid again, as they do while entities move a little;
 * else it runs homePass. The home pass's random count increments stall it, and the select work
 * fills the stalls.
 */
export function selectHomePass(count: i32, mask: i32): i32 {
  const sample = startSelect(count);
  fill(hdr(H_ENTRIES), 0, ((hdr(G_GUESS_COLS) + 1) * (hdr(G_GUESS_ROWS) + 1)) << 1);
  selLarge = 0;
  selFull = 0;
  const n = selectHomesSimd(count, mask, sample);
  guessLarge = selFull >= 0xffff ? -1 : selLarge;
  return endSelect(n, sample);
}

/** A select pass's start: the histogram cleared, the bounds empty. Returns the sampling mask (7: every eighth). */
// @ts-ignore: decorator
@inline function startSelect(count: i32): i32 {
  fill(hdr(H_HIST), 0, HIST_BUCKETS << 2);
  loX = Infinity; loY = Infinity; hiX = -Infinity; hiY = -Infinity;
  return count >= HIST_SAMPLE_FROM ? 7 : 0;
}

/** A select pass's end: the histogram's sample count, the bounds with +0 for -0. Returns n. */
// @ts-ignore: decorator
@inline function endSelect(n: i32, sample: i32): i32 {
  setBounds(loX + 0, loY + 0, hiX + 0, hiY + 0, (n + sample) >> (sample == 0 ? 0 : 3)); // -0 + 0 is +0
  return n;
}

/** selectPass's SIMD body (CLASS_ALL or a split's class). */
function selectSimd(count: i32, mask: i32, cls: i32, sample: i32): i32 {
  return selectSimdWith(count, mask, cls, sample, false);
}

/** selectHomePass's SIMD body: selection and homes on the guessed grid. */
function selectHomesSimd(count: i32, mask: i32, sample: i32): i32 {
  return selectSimdWith(count, mask, CLASS_ALL, sample, true);
}

/**
 * The select pass four slots at a time: the boxes by lane (kinds as lane masks instead of
 * selects), the bounds as four minima per side, and two branches per four slots where the scalar
 * loop has three or four per slot. Lanes leave the registers only to be written to the selection
 * list and the histogram, in slot order, so the result is selectScalar's, which takes the last
 * slots. With `homes` (a constant at both callers), homes on the guessed grid as well.
 * One loop (83 lines): split into functions, the vectors it keeps in registers would pass
 * through memory.
 */
// @ts-ignore: decorator
@inline function selectSimdWith(count: i32, mask: i32, cls: i32, sample: i32, homes: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), histp = hdr(H_HIST), selRoom = hdr(H_CAPACITY) - selKeep;
  const boxp = hdr(H_BOX), homep = hdr(H_HOME), largep = hdr(H_LARGE), rankp = hdr(H_PLANES), countp = hdr(H_ENTRIES);
  const cols = hdr(G_GUESS_COLS), rows = hdr(G_GUESS_ROWS), ox = hdrF(G_GUESS_OX), oy = hdrF(G_GUESS_OY);
  const inv = toF32(1 / hdrD(G_GUESS_SIDE));
  let n = 0, i = 0, large = 0, full = 0;
  const maskv = i32x4.splat(mask), zero = i32x4.splat(0), circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  const inf = f32x4.splat(Infinity), ninf = f32x4.splat(-Infinity), iota = i32x4(0, 1, 2, 3);
  const oxv = f32x4.splat(ox), oyv = f32x4.splat(oy), invv = f32x4.splat(inv);
  const lastCol = i32x4.splat(cols - 1), lastRow = i32x4.splat(rows - 1), pitchv = i32x4.splat(cols + 1);
  let x0v = inf, y0v = inf, x1v = ninf, y1v = ninf;
  for (; i + 4 <= count; i += 4) {
    // Sixteen slots outside the mask (the few enemies of a bullet hell) cost one test.
    if ((i & 15) == 0 && i + 16 <= count) {
      const g = v128.or(v128.or(v128.load(gp + (i << 2)), v128.load(gp + (i << 2), 16)), v128.or(v128.load(gp + (i << 2), 32), v128.load(gp + (i << 2), 48)));
      if (!v128.any_true(v128.and(g, maskv))) { i += 12; continue; }
    }
    const k = kinds4(kp + i);
    const live = v128.andnot(i32x4.ne(v128.and(v128.load(gp + (i << 2)), maskv), zero), i32x4.eq(k, zero));
    const liveBits = i32x4.bitmask(live);
    if (liveBits == 0) continue;
    const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
    const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
    const isCircle = i32x4.eq(k, circle), isRect = i32x4.eq(k, rect);
    const ac = v128.and(a, isCircle), as = v128.and(a, i32x4.ge_u(k, circle));
    const x0 = f32x4.sub(x, ac), y0 = f32x4.sub(y, ac), x1 = f32x4.add(x, as), y1 = f32x4.add(y, v128.bitselect(b, ac, isRect));
    const valid = shapeOk4(live, x, y, as, v128.and(b, isRect));
    const dx = f32x4.sub(x1, x0), dy = f32x4.sub(y1, y0);
    const ok = cls == CLASS_ALL ? valid : v128.and(valid, cls == CLASS_WIDE ? f32x4.ge(dx, dy) : f32x4.gt(dy, dx));
    // pmin(m, v) is `v < m ? v : m`, selectScalar's select, lane by lane.
    x0v = f32x4.pmin(x0v, v128.bitselect(x0, inf, ok));
    y0v = f32x4.pmin(y0v, v128.bitselect(y0, inf, ok));
    x1v = f32x4.pmax(x1v, v128.bitselect(x1, ninf, ok));
    y1v = f32x4.pmax(y1v, v128.bitselect(y1, ninf, ok));
    const buckets = i32x4.shl(i32x4.shr_u(v128.bitselect(dx, dy, f32x4.gt(dx, dy)), 23), 2);
    const okBits = i32x4.bitmask(ok);
    if (okBits == 0b1111) {
      v128.store(LANES, buckets);
      v128.store(selp + (n << 2), i32x4.add(i32x4.splat(i), iota));
      for (let l = -n & sample; l < 4; l += sample + 1) bump(histp + i32At(LANES + (l << 2)));
      if (homes) {
        const home = homes4(x0, y0, x1, y1, oxv, oyv, invv, invv, lastCol, lastRow, pitchv), bigBits = i32x4.bitmask(home);
        full |= homeGroup(n, home, bigBits, x0, y0, x1, y1, large, homep, rankp, countp, true);
        large += popcnt32(bigBits);
      }
      n += 4;
      continue;
    }
    if (!homes && sample != 0 && n + 4 <= selRoom) {
      // Some lanes selected (a split's classes: about half, at random): packed to the front by
      // one byte shuffle and written as a vector, past the list's end too (n + 4 stays within
      // the room), where a loop over the lanes mispredicted its exit. At most one of them is
      // sampled (every eighth): its bucket, or a spare counter when none is.
      const perm = v128.load(PACK + (okBits << 4));
      v128.store(selp + (n << 2), i8x16.swizzle(i32x4.add(i32x4.splat(i), iota), perm));
      v128.store(LANES, i8x16.swizzle(buckets, perm));
      const pop = popcnt32(okBits), l = -n & sample;
      bump(pick(histp + i32At(LANES + (l << 2)), LANES + 64, l < pop));
      n += pop;
    } else {
      v128.store(LANES, buckets);
      if (homes) { v128.store(LANES, x0, 16); v128.store(LANES, y0, 32); v128.store(LANES, x1, 48); v128.store(LANES, y1, 64); }
      for (let bits = okBits; bits != 0; bits &= bits - 1) {
        const l = ctz32(bits), f = LANES + (l << 2);
        setI32(selp + (n << 2), i + l);
        if ((n & sample) == 0) bump(histp + i32At(f));
        if (homes) {
          const bx0 = f32At(f + 16), by0 = f32At(f + 32), bx1 = f32At(f + 48), by1 = f32At(f + 64);
          const c = homeOf(bx0, by0, bx1, by1, ox, oy, inv, inv, cols, rows);
          if (c < 0) markLarge(homep, boxp, largep, n, large++, bx0, by0, bx1, by1);
          else full |= homeOne(n, c, homep, rankp, countp, true);
        }
        n++;
      }
    }
    for (let bits = liveBits & ~i32x4.bitmask(valid); bits != 0; bits &= bits - 1) noteInvalid(i + ctz32(bits));
  }
  loX = min4(x0v, false); loY = min4(y0v, false); hiX = min4(x1v, true); hiY = min4(y1v, true);
  if (homes) { selLarge = large; selFull = full; }
  return selectScalar(i, n, count, mask, cls, sample, homes);
}

/**
 * The select pass one slot at a time from slot i, n selected so far, the bounds so far in
 * loX..hiY: the whole pass in the scalar build, the last slots in the SIMD build. With `homes`,
 * homes on the guessed grid too (the large count and the ranks' or carried in selLarge, selFull).
 * Returns the number selected.
 */
// @ts-ignore: decorator
@inline function selectScalar(i: i32, n: i32, count: i32, mask: i32, cls: i32, sample: i32, homes: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), histp = hdr(H_HIST);
  let x0m = loX, y0m = loY, x1m = hiX, y1m = hiY;
  let cols = 0, rows = 0, ox: f32 = 0, oy: f32 = 0, inv: f32 = 0, large = 0, full = 0;
  if (homes) {
    cols = hdr(G_GUESS_COLS); rows = hdr(G_GUESS_ROWS); ox = hdrF(G_GUESS_OX); oy = hdrF(G_GUESS_OY);
    inv = toF32(1 / hdrD(G_GUESS_SIDE));
    large = selLarge; full = selFull;
  }
  for (; i < count; i++) {
    const k = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || k == KIND_NONE) continue;
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    if (!shapeOk(k, x, y, a, b, <f32>MAX_COORD)) { noteInvalid(i); continue; }
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    if (cls != CLASS_ALL && (dx >= dy) != (cls == CLASS_WIDE)) continue;
    setI32(selp + (n << 2), i);
    // Plain compares: boxes are finite here, and wasm's NaN-aware f32.min/max cost more.
    x0m = pick(x0, x0m, x0 < x0m);
    y0m = pick(y0, y0m, y0 < y0m);
    x1m = pick(x1, x1m, x1 > x1m);
    y1m = pick(y1, y1m, y1 > y1m);
    if ((n & sample) == 0) bump(histp + ((f32Bits(pick(dx, dy, dx > dy)) >>> 23) << 2));
    if (homes) {
      const c = homeOf(x0, y0, x1, y1, ox, oy, inv, inv, cols, rows);
      if (c < 0) markLarge(hdr(H_HOME), hdr(H_BOX), hdr(H_LARGE), n, large++, x0, y0, x1, y1);
      else full |= homeOne(n, c, hdr(H_HOME), hdr(H_PLANES), hdr(H_ENTRIES), true);
    }
    n++;
  }
  loX = x0m; loY = y0m; hiX = x1m; hiY = y1m;
  if (homes) { selLarge = large; selFull = full; }
  return n;
}
