// The bucket grid of "Basic Collision Detection in Games" (part 2B), built by counting sort over
// flat stores, and the batched queries that run on it: self pairs, cross pairs, first hits and
// probe queries. Memory layout and header fields: layout/grid.ts. asc compiles it to the two wasm
// builds (the SIMD one runs the *Simd bodies), tsc to the js backend (the scalar bodies): the
// scalar build and the js backend give the same pairs, in the same order, with the same stats.
//
// Why this shape:
// - Each entity lives in one cell, its home: the cell of its box's top-left corner. The cell size
//   comes from the size histogram, so most entities are "small": their box reaches at most one
//   cell past home on each axis. Two small entities can only overlap when their homes are
//   neighbours, so self pairs test each cell against itself and four neighbours (the half
//   stencil), and every pair is met exactly once: no duplicates to filter.
// - The few "large" entities (wider than that) stay out of the cells, in a list; each is tested
//   against the cells its box can reach, and against the other large ones by sort and sweep.
// - What this machine measured (2 GHz, V8's wasm tiers): a frame is bound by instructions and
//   mispredicted branches in the passes, and by random writes in the counting sort past 10k
//   entities. So boxes stay in locals (V8 keeps wasm globals in memory), tests are bitwise with
//   one branch, the pair walk goes over entries rather than over (mostly empty) cells, and the
//   cell table is padded so a neighbour run is two loads with no edge tests.
// - The grid covers the bounding box of what it holds, with at most CELLS_PER_ENTITY cells per
//   entity. A pile of entities in one cell costs what brute force costs, never more.
// - "Small" is decided with the same monotone cellOf() the queries use, never with a float
//   margin, so exact touching and f32 rounding cannot lose a pair.
import {
  CELLS_PER_ENTITY, CLASS_ALL, CLASS_TALL, CLASS_WIDE, COVER_CELLS_MOST, COVER_CELLS_PER_ENTITY, COVER_RECORDS, ENTRY_BYTES, FLAG_HIT,
  FLAG_STOPPED, G_CELL, G_COLS, G_COVER, G_CROWDED, G_ENTRIES, G_GUESS_COLS, G_GUESS_OX, G_GUESS_OY, G_GUESS_ROWS, G_GUESS_SIDE,
  G_GUESS_STABLE, G_INDEX_MASK_A, G_INDEX_MASK_B, G_INDEX_SIDE, G_INV, G_INVY, G_LARGE, G_MASK, G_MAXX, G_MAXY, G_OX, G_OY,
  G_PROBE_H, G_PROBE_KNOWN, G_PROBE_MASK, G_PROBE_W, G_REACHH, G_REACHW, G_ROWS, G_SELECTED, G_SPARSE_RUNS, G_SPLIT,
  G_SPLIT_RETRY, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_CELLS_CAP, H_ENTRIES, H_FLAGS, H_GROUPS, H_HIST, H_HOME, H_KIND,
  H_LARGE, H_PAIRS, H_PAIRS_CAP, H_PLANES, H_RESULTS, H_SEL, H_X, H_Y, HIST_BUCKETS, INDEX_A, INDEX_B, INDEX_NONE,
  KIND_CIRCLE, KIND_NONE, KIND_RECT, KIND_SHIFT, NO_SLOT, PLANE_SLACK, S_AABB_TESTS, S_CELLS_VISITED, S_FIRST_INVALID,
  S_FOUND, S_INVALID, S_NARROW_TESTS, SCRATCH_SLACK, SPLIT_LARGE, TAG_SLOT,
} from "../layout/grid.ts";
import { hdr, hdrD, hdrF, setHdr, setHdrD, setHdrF } from "./header.ts";
import {
  SIMD, bit, bitsF32, tableI32, copy, ctz32, f32At, f32Bits, f64FromHigh, f64High, fill, i32At, maxF32, maxI32, minI32, pick, popcnt32,
  setF32, setI32, setU16, setU8, toF32, toI32, u16At, u32At, u8At,
} from "./memory.ts";
import { circleCircle, overlapShapes, overlapSlots, rectRect } from "./shapes.ts";

const MODE_PAIRS = 0; // write (self, j) into the pair buffer
const MODE_FIRST = 1; // find the lowest-slot eligible hit
const MODE_RESULTS = 2; // write j into the results buffer
const MODE_SELF = 3; // write (lo, hi) into the pair buffer
const MODE_PAIRS_REV = 4; // write (j, self) into the pair buffer

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

// Entities the size histogram counted in the last select pass, and from how many slots it samples.
let histSamples = 0;
const HIST_SAMPLE_FROM = 4096;

// The grid being built: bounds of what it holds, and its shape (originX <= minX, originY <= minY).
let minX: f32 = 0;
let minY: f32 = 0;
let maxX: f32 = 0;
let maxY: f32 = 0;
let originX: f32 = 0;
let originY: f32 = 0;
let cellSide: f64 = 1;
let cellSideY: f64 = 1;
let ncols = 0;
let nrows = 0;

// Where vector lanes go to leave the registers one by one (selectPass, homeLanes, probeReach;
// never two of them at once): five vectors. selectPass's spare histogram counter is the fifth.
const LANES: i32 = SIMD ? <i32>memory.data(80, 16) : 0;

// The box of a shape (kind k, x, y, a, b), one coordinate at a time: point (x, y, x, y), circle
// (x - a, y - a, x + a, y + a), rect (x, y, x + a, y + b). Selects instead of branches, so the
// hot loops keep boxes in locals: V8 keeps wasm globals in memory, and passing boxes through
// globals cost a store and a load per coordinate. Adding or taking 0 leaves a coordinate as it is.
// @ts-ignore: decorator
@inline function boxLo(k: i32, v: f32, a: f32): f32 { return toF32(v - pick<f32>(a, 0, k == KIND_CIRCLE)); }
// @ts-ignore: decorator
@inline function boxX1(k: i32, x: f32, a: f32): f32 { return toF32(x + pick<f32>(a, 0, k >= KIND_CIRCLE)); }
// @ts-ignore: decorator
@inline function boxY1(k: i32, y: f32, a: f32, b: f32): f32 { return toF32(y + pick<f32>(b, pick<f32>(a, 0, k == KIND_CIRCLE), k == KIND_RECT)); }

/**
 * Whether a shape's box is usable: sizes not negative (a circle's radius, a rect's width and
 * height) and all four coordinates finite (x - x is 0 only for finite x, and a NaN anywhere makes
 * the sum NaN: one comparison rejects NaN and both infinities). Bitwise, so it costs no branch.
 */
// @ts-ignore: decorator
@inline function boxOk(k: i32, a: f32, b: f32, x0: f32, y0: f32, x1: f32, y1: f32): bool {
  return (bit(pick<f32>(a, 0, k >= KIND_CIRCLE) >= 0) & bit(pick<f32>(b, 0, k == KIND_RECT) >= 0) &
    bit((x0 - x0) + (y0 - y0) + (x1 - x1) + (y1 - y1) == 0)) != 0; // each difference is 0 or NaN, in f32 as in f64
}

/** Box of slot i into bx0..by1. False for entities a bulk write made invalid (NaN, infinite, negative size). */
// @ts-ignore: decorator
@inline function entityBox(i: i32, kp: i32, xp: i32, yp: i32, ap: i32, bp: i32): bool {
  const k = u8At(kp + i);
  const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
  const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
  bx0 = boxLo(k, x, a); by0 = boxLo(k, y, a); bx1 = boxX1(k, x, a); by1 = boxY1(k, y, a, b);
  return boxOk(k, a, b, bx0, by0, bx1, by1);
}

// @ts-ignore: decorator
@inline function noteInvalid(i: i32): void {
  if (invalid == 0) firstInvalid = i;
  invalid++;
}

/** Cell column (or row) of coordinate v, clamped into the grid; compared as a float first, so huge and NaN values clamp too. */
// @ts-ignore: decorator
@inline function cellOf(v: f32, origin: f32, inv: f32, n: i32): i32 {
  const t = toF32(toF32(v - origin) * inv);
  return t < 1 ? 0 : minI32(toI32(t), n - 1); // the conversion saturates (nontrapping-f2i)
}

/** Cell size from the size histogram: the upper bound of the bucket holding the 90th percentile of extents. */
function autoCellSize(histp: i32, n: i32): f64 {
  const target = n - toI32(n / 10);
  let seen = 0;
  let k = 0;
  for (; k < HIST_BUCKETS; k++) {
    seen += i32At(histp + (k << 2));
    if (seen >= target) break;
  }
  if (k == 0) return 0; // mostly zero-size entities: the spread decides
  if (k > 253) k = 253;
  return <f64>bitsF32((k + 1) << 23);
}

/**
 * Pass 1: select (slots into H_SEL, in slot order), bounds and size histogram; returns how many
 * were selected. Past HIST_SAMPLE_FROM slots the histogram counts every eighth selected entity: it
 * only picks the cell size, and a sample of thousands picks the same percentile bucket. The bounds
 * leave with +0 for -0: the SIMD build keeps a minimum per lane, and which zero a slot-order scan
 * meets first is lost there (the sign of the origin changes no cell).
 */
function selectPass(count: i32, mask: i32, cls: i32): i32 {
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
function selectHomePass(count: i32, mask: i32): i32 {
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
  minX = Infinity; minY = Infinity; maxX = -Infinity; maxY = -Infinity;
  return count >= HIST_SAMPLE_FROM ? 7 : 0;
}

/** A select pass's end: the histogram's sample count, the bounds with +0 for -0. Returns n. */
// @ts-ignore: decorator
@inline function endSelect(n: i32, sample: i32): i32 {
  histSamples = (n + sample) >> (sample == 0 ? 0 : 3);
  minX = minX + 0; minY = minY + 0; maxX = maxX + 0; maxY = maxY + 0; // -0 + 0 is +0
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
 * list and the histogram, in slot order, so the result is the scalar loop's, which takes the last
 * slots. With `homes` (a constant at both callers), homes on the guessed grid as well.
 * One loop over one group of lanes: split, its vectors would pass through memory.
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
    const valid = boxOk4(live, as, v128.and(b, isRect), x0, y0, x1, y1);
    const dx = f32x4.sub(x1, x0), dy = f32x4.sub(y1, y0);
    const ok = cls == CLASS_ALL ? valid : v128.and(valid, cls == CLASS_WIDE ? f32x4.ge(dx, dy) : f32x4.gt(dy, dx));
    // pmin(m, v) is `v < m ? v : m`, the scalar loop's select, lane by lane.
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
  minX = min4(x0v, false); minY = min4(y0v, false); maxX = min4(x1v, true); maxY = min4(y1v, true);
  if (homes) { selLarge = large; selFull = full; }
  return selectScalar(i, n, count, mask, cls, sample, homes);
}

/**
 * The select pass one slot at a time from slot i, n selected so far, the bounds so far in
 * minX..maxY: the whole pass in the scalar build, the last slots in the SIMD build. With `homes`,
 * homes on the guessed grid too (the large count and the ranks' or carried in selLarge, selFull).
 * Returns the number selected.
 */
// @ts-ignore: decorator
@inline function selectScalar(i: i32, n: i32, count: i32, mask: i32, cls: i32, sample: i32, homes: bool): i32 {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), histp = hdr(H_HIST);
  let x0m = minX, y0m = minY, x1m = maxX, y1m = maxY;
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
    if (!boxOk(k, a, b, x0, y0, x1, y1)) { noteInvalid(i); continue; }
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
  minX = x0m; minY = y0m; maxX = x1m; maxY = y1m;
  if (homes) { selLarge = large; selFull = full; }
  return n;
}

// Entries at the end of H_SEL the select pass leaves alone (selfPairs' split keeps the wide
// grid's tags there while it builds the tall one).
let selKeep = 0;

// For each four-bit lane mask, the byte shuffle that packs its lanes' i32s to the front, in order.
const PACK: i32 = SIMD ? <i32>memory.data<u8>([
  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80,
  12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
], 16) : 0;

// @ts-ignore: decorator
@inline function bump(p: i32): void {
  setI32(p, i32At(p) + 1);
}

/** The kinds (u8) of four consecutive slots, one per i32 lane. */
// @ts-ignore: decorator
@inline function kinds4(p: i32): v128 {
  return i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p)));
}

/** Whether none of the four group words at p has a bit of `mask` (SIMD build). */
// @ts-ignore: decorator
@inline function noneInMask4(p: i32, mask: i32): bool {
  return !v128.any_true(v128.and(v128.load(p), i32x4.splat(mask)));
}

/** The sum of four i32 lanes. */
// @ts-ignore: decorator
@inline function sum4(v: v128): i32 {
  return i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3);
}

/** The least (or with `most`, the greatest) of four f32 lanes, by plain compares. */
// @ts-ignore: decorator
@inline function min4(v: v128, most: bool): f32 {
  const h = f32x4.shuffle(v, v, 2, 3, 0, 1);
  const w = most ? f32x4.pmax(v, h) : f32x4.pmin(v, h);
  const l0 = f32x4.extract_lane(w, 0), l1 = f32x4.extract_lane(w, 1);
  return most ? pick(l1, l0, l1 > l0) : pick(l1, l0, l1 < l0);
}

/**
 * Cell size: the user's or the size histogram's, raised until the cells fit the scratch. The cell
 * table has one empty column on the right and one empty row below (its pitch is cols + 1), and a
 * zero before cell 0: every neighbour run is then two loads, with no edge tests.
 */
function chooseShape(n: i32, cellSize: f32, cellSizeY: f32, cover: bool): void {
  const w = <f64>maxX - <f64>minX, h = <f64>maxY - <f64>minY;
  const most = cover ? minI32(n * COVER_CELLS_PER_ENTITY + SCRATCH_SLACK, maxI32(COVER_CELLS_MOST, n * CELLS_PER_ENTITY)) : n * CELLS_PER_ENTITY + SCRATCH_SLACK;
  const maxCells = <f64>minI32(hdr(H_CELLS_CAP) - 1, most);
  if (cellSizeY > 0) {
    // A split grid's cells (cellSize wide, cellSizeY high). Too many: the short side grows first
    // (up to the long one), so a box probing across the long cells meets no more of them.
    let sx: f64 = cellSize, sy: f64 = cellSizeY;
    const need = w * h / maxCells / (sx * sy);
    if (need > 1) {
      if (sx < sy) sx *= Math.min(need, sy / sx);
      else sy *= Math.min(need, sx / sy);
      const rest = Math.sqrt(w * h / maxCells / (sx * sy));
      if (rest > 1) { sx *= rest; sy *= rest; }
    }
    const line = Math.max(w / sx, h / sy) / maxCells; // everything on one line
    if (line > 1) { sx *= line; sy *= line; }
    while (cellsOver(sx, sy, cover, maxCells)) {
      if (sx < sy) sx *= 1.0625;
      else sy *= 1.0625;
    }
    setShape(sx, sy, cover);
    return;
  }
  // A reach grid's cells are half as wide: a probe then meets fewer records that do not overlap it.
  const asked: f64 = cellSize > 0 ? <f64>cellSize : autoCellSize(hdr(H_HIST), histSamples) * (cover ? 0.5 : 1);
  let cs = asked;
  const spread = Math.sqrt(w * h / maxCells);
  if (cs < spread) cs = spread;
  if (cs < (w + h) / maxCells) cs = (w + h) / maxCells; // everything on one line
  if (!(cs >= 1e-30)) cs = 1e-30 > (w + h) ? 1 : (w + h); // everything on one point
  // A home grid's size raised to fit the bounds goes up to the next of 16 steps an octave: the
  // bounds of moving entities change every frame, and selfPairs' grid should change only now and
  // then. Raised further, it goes a step at a time: doubling would overshoot to a quarter the cells.
  if (!cover && cs != asked) cs = sizeStep(cs);
  while (cellsOver(cs, cs, cover, maxCells)) cs = cover ? cs * 1.0625 : sizeStep(cs * 1.03125);
  setShape(cs, cs, cover);
}

/** The least m * 2^(e - 4) (m in 16..32) at or above v: sixteen steps an octave. v is at least 1e-30. */
function sizeStep(v: f64): f64 {
  const unit = f64FromHigh((f64High(v) & 0x7ff00000) - (4 << 20)); // 2^(e - 4): the exponent less four, no mantissa
  return Math.ceil(v / unit) * unit;
}

/**
 * The grid's origin on one axis. A home grid's is lo snapped down to a multiple of its cell side,
 * so entities that moved a little make the same grid again (selfPairs then finds homes before it
 * knows the bounds); never above lo, whatever the rounding. A reach grid's is lo.
 */
function originOf(lo: f32, side: f64, cover: bool): f32 {
  if (cover) return lo;
  const o = toF32(Math.floor(<f64>lo / side) * side);
  return o <= lo ? o : lo;
}

/** Whether sx by sy cells from the origin over the bounds, with the padding column and row, are more than maxCells. */
function cellsOver(sx: f64, sy: f64, cover: bool, maxCells: f64): bool {
  const cols = Math.floor((<f64>maxX - <f64>originOf(minX, sx, cover)) / sx) + 2;
  return cols * (Math.floor((<f64>maxY - <f64>originOf(minY, sy, cover)) / sy) + 2) > maxCells;
}

/** The grid's cell sides, origin, columns and rows. */
function setShape(sx: f64, sy: f64, cover: bool): void {
  cellSide = sx;
  cellSideY = sy;
  originX = originOf(minX, sx, cover);
  originY = originOf(minY, sy, cover);
  ncols = toI32(Math.floor((<f64>maxX - <f64>originX) / sx) + 1);
  nrows = toI32(Math.floor((<f64>maxY - <f64>originY) / sy) + 1);
}

// selectHomePass's large count, or -1 when a u16 count may have wrapped. (The guessed grid
// itself, the last one selfPairs built, is in the G_GUESS_* header fields: it outlives the call.)
let guessLarge = 0;
// The large count and the ranks' or of the select or home pass running, between its SIMD body and
// its scalar tail.
let selLarge = 0;
let selFull = 0;

/**
 * Pass 2: home cell of each selected entity and counts per cell, and each entity's rank in its
 * cell (the count before it, in H_PLANES' first plane, free until the walk fills the planes): the
 * scatter then reads its cell's start instead of bumping a cursor, so the random counts are
 * written once, here. The counts are u16 in the entries (free until the scatter; prefix16 makes
 * the cell fields from them). Large entities (reaching more than one cell past home) go to the
 * large list instead (their selection index; their box into H_BOX at that index); returns how many
 * did, or -1 when a u16 count may have wrapped.
 */
function homePass16(n: i32, inv: f32, invY: f32): i32 {
  return homePassWith(n, inv, invY, true);
}

/** homePass16 with i32 counts in the cell fields (none wraps); returns how many entities are large. */
function homePass32(n: i32, inv: f32, invY: f32): i32 {
  return homePassWith(n, inv, invY, false);
}

/** homePass16 (`counts16`, a constant at both callers) or homePass32. */
// @ts-ignore: decorator
@inline function homePassWith(n: i32, inv: f32, invY: f32, counts16: bool): i32 {
  const pitch = ncols + 1, rows = nrows;
  const countp = counts16 ? hdr(H_ENTRIES) : hdr(H_CELLS) + 4;
  if (counts16) fill(countp, 0, (pitch * (rows + 1)) << 1);
  else fill(countp - 4, 0, (pitch * (rows + 1) + 1) << 2);
  selLarge = 0;
  selFull = 0;
  if (SIMD) homesSimd(n, inv, invY, countp, counts16);
  else homesScalar(0, n, inv, invY, countp, counts16);
  // A rank of 0xffff (a u16 count that wrapped) sets all 16 bits of the ranks' or; so does a
  // cell past 32,767 entities now and then, which only costs the i32 pass.
  if (counts16 && selFull >= 0xffff) return -1;
  return selLarge;
}

/**
 * The home pass four entities at a time: boxes and the four cellOf of each by lane, the small
 * test by lane, homes stored as one vector; only the count increments go one by one. Four
 * consecutive slots (the common case: a mask that takes most entities) load as vectors, others
 * gather. The scalar loop takes the last entities.
 */
// @ts-ignore: decorator
@inline function homesSimd(n: i32, inv: f32, invY: f32, countp: i32, counts16: bool): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), homep = hdr(H_HOME), rankp = hdr(H_PLANES);
  const cols = ncols, rows = nrows;
  const circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
  const oxv = f32x4.splat(originX), oyv = f32x4.splat(originY), invv = f32x4.splat(inv), invYv = f32x4.splat(invY);
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
  selLarge = large;
  selFull = full;
  homesScalar(s, n, inv, invY, countp, counts16);
}

/**
 * The home pass one entity at a time from selected entity s: the whole pass in the scalar build,
 * the last entities in the SIMD build. The large count and the ranks' or go on from selLarge and
 * selFull.
 */
// @ts-ignore: decorator
@inline function homesScalar(s: i32, n: i32, inv: f32, invY: f32, countp: i32, counts16: bool): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const boxp = hdr(H_BOX), selp = hdr(H_SEL), homep = hdr(H_HOME), largep = hdr(H_LARGE), rankp = hdr(H_PLANES);
  const cols = ncols, rows = nrows, ox = originX, oy = originY;
  let large = selLarge, full = selFull;
  for (; s < n; s++) {
    const i = i32At(selp + (s << 2)), k = u8At(kp + i);
    const x = f32At(xp + (i << 2)), y = f32At(yp + (i << 2));
    const a = f32At(ap + (i << 2)), b = f32At(bp + (i << 2));
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    const c = homeOf(x0, y0, x1, y1, ox, oy, inv, invY, cols, rows);
    if (c < 0) markLarge(homep, boxp, largep, s, large++, x0, y0, x1, y1);
    else full |= homeOne(s, c, homep, rankp, countp, counts16);
  }
  selLarge = large;
  selFull = full;
}

/** Home cells of four boxes by lane (cellOf's), as homeOf: -1 in the lanes of large boxes. */
// @ts-ignore: decorator
@inline function homes4(x0: v128, y0: v128, x1: v128, y1: v128, oxv: v128, oyv: v128, invv: v128, invYv: v128, lastCol: v128, lastRow: v128, pitchv: v128): v128 {
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
@inline function homeGroup(s: i32, home: v128, bigBits: i32, x0: v128, y0: v128, x1: v128, y1: v128, large: i32, homep: i32, rankp: i32, countp: i32, counts16: bool): i32 {
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
@inline function homeOne(s: i32, c: i32, homep: i32, rankp: i32, countp: i32, counts16: bool): i32 {
  setI32(homep + (s << 2), c);
  const r = rank(countp, c, counts16);
  setI32(rankp + (s << 2), r);
  return r;
}

/** The home cell of box x0..y1 (the cell of its top-left corner; the table's pitch is cols + 1), or -1 when the box is large. */
// @ts-ignore: decorator
@inline function homeOf(x0: f32, y0: f32, x1: f32, y1: f32, ox: f32, oy: f32, inv: f32, invY: f32, cols: i32, rows: i32): i32 {
  const c0x = cellOf(x0, ox, inv, cols), c0y = cellOf(y0, oy, invY, rows);
  const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
  return c1x - c0x > 1 || c1y - c0y > 1 ? -1 : c0y * (cols + 1) + c0x;
}

/** Whether u16 counts for ncells cells fit in the entries (free until the scatter). */
// @ts-ignore: decorator
@inline function countsFit16(ncells: i32): bool {
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
@inline function markLarge(homep: i32, boxp: i32, largep: i32, s: i32, at: i32, x0: f32, y0: f32, x1: f32, y1: f32): void {
  setI32(homep + (s << 2), -1);
  const o = boxp + (s << 4);
  setF32(o, x0);
  setF32(o + 4, y0);
  setF32(o + 8, x1);
  setF32(o + 12, y1);
  setI32(largep + (at << 2), s);
}

/**
 * boxOk by lane: live lanes whose box x0..y1 is finite and whose sizes are not negative (`as`:
 * a of circles and rects, else 0; `bRect`: b of rects, else 0).
 */
// @ts-ignore: decorator
@inline function boxOk4(live: v128, as: v128, bRect: v128, x0: v128, y0: v128, x1: v128, y1: v128): v128 {
  const zero = i32x4.splat(0);
  const finite = f32x4.eq(f32x4.add(f32x4.add(f32x4.add(f32x4.sub(x0, x0), f32x4.sub(y0, y0)), f32x4.sub(x1, x1)), f32x4.sub(y1, y1)), zero);
  return v128.and(v128.and(live, finite), v128.and(f32x4.ge(as, zero), f32x4.ge(bRect, zero)));
}

/** cellOf by lane (trunc_sat is the scalar conversion; lanes below 1, NaN among them, become 0 as there). */
// @ts-ignore: decorator
@inline function cellsOf(v: v128, origin: v128, inv: v128, last: v128): v128 {
  const t = f32x4.mul(f32x4.sub(v, origin), inv);
  return i32x4.min_s(i32x4.max_s(i32x4.trunc_sat_f32x4_s(t), i32x4.splat(0)), last);
}

/** The f32s of four slots in one vector. */
// @ts-ignore: decorator
@inline function gather(p: i32, i0: i32, i1: i32, i2: i32, i3: i32): v128 {
  const v = f32x4.replace_lane(f32x4.splat(f32At(p + (i0 << 2))), 1, f32At(p + (i1 << 2)));
  return f32x4.replace_lane(f32x4.replace_lane(v, 2, f32At(p + (i2 << 2))), 3, f32At(p + (i3 << 2)));
}

/** The u8s of four slots, one per i32 lane. */
// @ts-ignore: decorator
@inline function gatherU8(p: i32, i0: i32, i1: i32, i2: i32, i3: i32): v128 {
  const v = i32x4.replace_lane(i32x4.splat(u8At(p + i0)), 1, u8At(p + i1));
  return i32x4.replace_lane(i32x4.replace_lane(v, 2, u8At(p + i2)), 3, u8At(p + i3));
}

/**
 * Prefix sum: each cell's count becomes its first entry, or with `inclusive` its end (the next
 * cell's first entry; the zero before cell 0 is then the start of cell 0).
 */
function prefixSum(ncells: i32, inclusive: bool): void {
  if (SIMD) prefixSumSimd(ncells, inclusive);
  else prefixSumScalar(0, 0, ncells, inclusive);
}

/**
 * prefixSum four cells a step: each lane's sum with the lanes before it (scan4), plus the total
 * so far in every lane (the carry). The scalar loop's chain of dependent adds is a cycle a cell;
 * the carry's is one add a step, each step's total taken from its own sums.
 */
function prefixSumSimd(ncells: i32, inclusive: bool): void {
  const cellsp = hdr(H_CELLS) + 4;
  let c = 0, carry = i32x4.splat(0);
  for (; c + 4 <= ncells; c += 4) {
    const p = cellsp + (c << 2);
    const v = v128.load(p), sums = scan4(v);
    v128.store(p, i32x4.add(carry, inclusive ? sums : i32x4.sub(sums, v)));
    carry = i32x4.add(carry, i32x4.shuffle(sums, sums, 3, 3, 3, 3));
  }
  prefixSumScalar(c, i32x4.extract_lane(carry, 0), ncells, inclusive);
}

/** prefixSum one cell at a time from cell c, `run` entries before it. */
function prefixSumScalar(c: i32, run: i32, ncells: i32, inclusive: bool): void {
  const cellsp = hdr(H_CELLS) + 4;
  for (; c < ncells; c++) {
    const p = cellsp + (c << 2);
    const k = i32At(p);
    setI32(p, inclusive ? run + k : run);
    run += k;
  }
}

/** Each i32 lane plus the lanes before it (two shifted adds). */
// @ts-ignore: decorator
@inline function scan4(v: v128): v128 {
  const zero = i32x4.splat(0);
  const s1 = i32x4.add(v, i8x16.shuffle(zero, v, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
  return i32x4.add(s1, i8x16.shuffle(zero, s1, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
}

/** prefixSum's inclusive sum from u16 counts in the entries: each cell's field becomes its end. */
function prefix16(ncells: i32): void {
  setI32(hdr(H_CELLS), 0);
  if (SIMD) prefix16Simd(ncells);
  else prefix16Scalar(0, 0, ncells);
}

/**
 * prefix16 eight cells a step: prefixSumSimd's four-lane sums on each half of eight u16s. Both
 * halves' totals are added to the carry off its chain, which is one add a step: taking the carry
 * from the stored sums made it four (add, shuffle, add, shuffle).
 */
function prefix16Simd(ncells: i32): void {
  const cellsp = hdr(H_CELLS) + 4, countp = hdr(H_ENTRIES);
  let c = 0, carry = i32x4.splat(0);
  for (; c + 8 <= ncells; c += 8) {
    const v8 = v128.load(countp + (c << 1)), p = cellsp + (c << 2);
    const lo = scan4(i32x4.extend_low_i16x8_u(v8)), hi = scan4(i32x4.extend_high_i16x8_u(v8));
    const loSum = i32x4.shuffle(lo, lo, 3, 3, 3, 3);
    v128.store(p, i32x4.add(carry, lo));
    v128.store(p, i32x4.add(carry, i32x4.add(loSum, hi)), 16);
    carry = i32x4.add(carry, i32x4.add(loSum, i32x4.shuffle(hi, hi, 3, 3, 3, 3)));
  }
  prefix16Scalar(c, i32x4.extract_lane(carry, 0), ncells);
}

/** prefix16 one cell at a time from cell c, `run` entries before it. */
function prefix16Scalar(c: i32, run: i32, ncells: i32): void {
  const cellsp = hdr(H_CELLS) + 4, countp = hdr(H_ENTRIES);
  for (; c < ncells; c++) {
    run += u16At(countp + (c << 1));
    setI32(cellsp + (c << 2), run);
  }
}

/**
 * Pass 3: scatter the small entities, each to its cell's start (the field before its cell's,
 * after the inclusive prefix sum) plus its rank, so each cell lists its entities by ascending
 * slot, and each cell's field holds its end, the next cell's start. The cell fields are only read
 * here: at 100k entities they are over a megabyte, and a cursor bumped per entity was a second
 * random write to them.
 */
function scatterPass(n: i32): void {
  if (SIMD) scatterSimd(n);
  else scatterScalar(0, n);
}

/**
 * scatterPass four selected entities a step: four consecutive slots load as four vectors,
 * transposed into four (x, y, a, b) records, one store per record where the scalar loop has four
 * loads and four stores. Their homes load as one vector, and a group holding a large entity (home
 * -1) or other slots goes one by one, so the common group has one branch, not one per record.
 */
function scatterSimd(n: i32): void {
  const homep = hdr(H_HOME), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), selp = hdr(H_SEL), rankp = hdr(H_PLANES);
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  let s = 0;
  for (; s + 4 <= n; s += 4) {
    const i = i32At(selp + (s << 2)), homes = v128.load(homep + (s << 2));
    if (bit(i32At(selp + (s << 2) + 12) - i != 3) | bit(i32x4.bitmask(homes) != 0)) {
      for (let t = s; t < s + 4; t++) scatterOne(t, homep, rankp, cellsp, entp, selp, kp, xp, yp, ap, bp);
      continue;
    }
    const x = v128.load(xp + (i << 2)), y = v128.load(yp + (i << 2));
    const a = v128.load(ap + (i << 2)), b = v128.load(bp + (i << 2));
    const xy01 = f32x4.shuffle(x, y, 0, 4, 1, 5), ab01 = f32x4.shuffle(a, b, 0, 4, 1, 5);
    const xy23 = f32x4.shuffle(x, y, 2, 6, 3, 7), ab23 = f32x4.shuffle(a, b, 2, 6, 3, 7);
    const kinds = u32At(kp + i), ranks = v128.load(rankp + (s << 2));
    scatterRecord(i32x4.extract_lane(homes, 0), i32x4.extract_lane(ranks, 0), i, kinds, f32x4.shuffle(xy01, ab01, 0, 1, 4, 5), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 1), i32x4.extract_lane(ranks, 1), i + 1, kinds >> 8, f32x4.shuffle(xy01, ab01, 2, 3, 6, 7), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 2), i32x4.extract_lane(ranks, 2), i + 2, kinds >> 16, f32x4.shuffle(xy23, ab23, 0, 1, 4, 5), cellsp, entp);
    scatterRecord(i32x4.extract_lane(homes, 3), i32x4.extract_lane(ranks, 3), i + 3, kinds >> 24, f32x4.shuffle(xy23, ab23, 2, 3, 6, 7), cellsp, entp);
  }
  scatterScalar(s, n);
}

/** scatterPass one selected entity at a time from s. */
function scatterScalar(s: i32, n: i32): void {
  const homep = hdr(H_HOME), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), selp = hdr(H_SEL), rankp = hdr(H_PLANES);
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  for (; s < n; s++) scatterOne(s, homep, rankp, cellsp, entp, selp, kp, xp, yp, ap, bp);
}

/** Scatters selected entity s (if small) into its cell's entry at its rank. */
// @ts-ignore: decorator
@inline function scatterOne(s: i32, homep: i32, rankp: i32, cellsp: i32, entp: i32, selp: i32, kp: i32, xp: i32, yp: i32, ap: i32, bp: i32): void {
  const c = i32At(homep + (s << 2));
  if (c < 0) return;
  const i = i32At(selp + (s << 2));
  const pos = i32At(cellsp + ((c - 1) << 2)) + i32At(rankp + (s << 2));
  // A copy of the shape and its cell travels with the slot: the pair loops then read memory in
  // order and never gather from the stores, where each gather cost a cache miss.
  const e = entp + pos * ENTRY_BYTES;
  setI32(e, i | (u8At(kp + i) << KIND_SHIFT));
  setF32(e + 4, f32At(xp + (i << 2)));
  setF32(e + 8, f32At(yp + (i << 2)));
  setF32(e + 12, f32At(ap + (i << 2)));
  setF32(e + 16, f32At(bp + (i << 2)));
  setI32(e + 20, c);
}

/** scatterOne for a small entity (home cell c, rank r), slot i's (x, y, a, b) already in one vector and its kind in the low byte of `kind`. */
// @ts-ignore: decorator
@inline function scatterRecord(c: i32, r: i32, i: i32, kind: u32, xyab: v128, cellsp: i32, entp: i32): void {
  const pos = i32At(cellsp + ((c - 1) << 2)) + r;
  const e = entp + pos * ENTRY_BYTES;
  setI32(e, i | ((kind & 0xff) << KIND_SHIFT));
  v128.store(e, xyab, 4);
  setI32(e + 20, c);
}

/** Builds the grid over live entities with (groups & mask) != 0 among slots [0, count); returns how many it holds. */
export function buildGrid(count: i32, mask: i32, cellSize: f32): i32 {
  return build(count, mask, cellSize, false, 0, CLASS_ALL);
}

/**
 * The grid over `mask`: home cells (each small entity in the cell of its top-left corner, the
 * queries looking one cell back), or with `cover` a reach grid (each entity listed in every cell
 * its box reaches once widened left and up by reachW and reachH, the queries looking at their own
 * cells only). With `guess` (selfPairs' one grid), the grid is remembered in the G_GUESS_* fields
 * for the next call. Returns how many it holds, or -1 when a reach grid's records would not fit.
 */
function build(count: i32, mask: i32, cellSize: f32, cover: bool, cellSizeY: f32, cls: i32, guess: bool = false): i32 {
  invalid = 0;
  firstInvalid = -1;
  // selfPairs' one grid, when the last two calls made the same grid: homes found on it in the select pass.
  const guessed = SIMD && guess && hdr(G_GUESS_STABLE) != 0 && countsFit16((hdr(G_GUESS_COLS) + 1) * (hdr(G_GUESS_ROWS) + 1));
  const n = guessed ? selectHomePass(count, mask) : selectPass(count, mask, cls);
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
  setHdr(G_SELECTED, n);
  setHdr(G_MASK, mask);
  setHdr(G_COVER, bit(cover));
  setHdrF(G_REACHW, cover ? reachW : 0);
  setHdrF(G_REACHH, cover ? reachH : 0);
  setHdr(G_SPLIT, 0); // selfPairs sets it after a split
  if (n == 0) {
    setHdr(G_COLS, 0); setHdr(G_ROWS, 0); setHdr(G_ENTRIES, 0); setHdr(G_LARGE, 0);
    return 0;
  }
  if (cover) {
    // Probes look in the cell of their top-left corner only: the grid starts one probe extent earlier.
    minX = reachLo(minX, reachW);
    minY = reachLo(minY, reachH);
    if (!(minX > -Infinity && minY > -Infinity)) return -1;
  }
  chooseShape(n, cellSize, cellSizeY, cover);
  const inv = toF32(1 / cellSide), invY = toF32(1 / cellSideY);
  let large = 0, records = 0;
  if (cover) {
    records = reachPass(n, inv, hdr(H_CAPACITY));
    if (records < 0) return -1;
    prefixSum((ncols + 1) * (nrows + 1), false);
    reachScatter(n, records);
  } else {
    // Counts as u16 in the entries (free until the scatter) when they fit: at 100k entities
    // that is 0.7 MB, where i32 counts are 1.4 MB, over a core's L2 on the machines measured.
    const ncells = (ncols + 1) * (nrows + 1);
    let same = false;
    if (guess) {
      same = cellSide == hdrD(G_GUESS_SIDE) && originX == hdrF(G_GUESS_OX) && originY == hdrF(G_GUESS_OY) &&
        ncols == hdr(G_GUESS_COLS) && nrows == hdr(G_GUESS_ROWS);
      setHdr(G_GUESS_STABLE, bit(same));
      setHdrD(G_GUESS_SIDE, cellSide); setHdrF(G_GUESS_OX, originX); setHdrF(G_GUESS_OY, originY);
      setHdr(G_GUESS_COLS, ncols); setHdr(G_GUESS_ROWS, nrows);
    }
    large = guessed && same ? guessLarge : countsFit16(ncells) ? homePass16(n, inv, invY) : -1;
    if (large >= 0) prefix16(ncells);
    else {
      large = homePass32(n, inv, invY);
      prefixSum(ncells, true);
    }
    records = n - large;
    scatterPass(n);
  }
  setHdr(G_COLS, ncols);
  setHdr(G_ROWS, nrows);
  setHdrF(G_OX, originX);
  setHdrF(G_OY, originY);
  setHdrF(G_MAXX, maxX);
  setHdrF(G_MAXY, maxY);
  setHdrF(G_INV, inv);
  setHdrF(G_INVY, invY);
  setHdrF(G_CELL, toF32(cellSide));
  setHdr(G_ENTRIES, records);
  setHdr(G_LARGE, large);
  return n;
}

/**
 * Pass 2 of a reach grid: counts per cell of every cell each entity reaches, its box widened left
 * by reachW and up by reachH (the probes' largest extents, so a probe finds every entity it can
 * overlap in the one cell of its top-left corner). Each entity's first cell and reach (columns and
 * rows past it) go to H_HOME, 12 bytes per entity (a reach grid holds at most a ninth of the
 * capacity). Returns the records, or -1 when they would pass `most` (a huge entity or probe:
 * crossPairs then builds a home grid).
 */
function reachPass(n: i32, inv: f32, most: i32): i32 {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), cellsp = hdr(H_CELLS) + 4, homep = hdr(H_HOME);
  const cols = ncols, rows = nrows, pitch = cols + 1, ox = originX, oy = originY, w = reachW, h = reachH;
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
function reachScatter(n: i32, records: i32): void {
  const kp = hdr(H_KIND), xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const selp = hdr(H_SEL), cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), homep = hdr(H_HOME), pitch = ncols + 1;
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
  // The SIMD probe's box planes and tag plane, in record order: written with each record, they
  // were six random writes a record where the records alone are one.
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

// A reach record's cell field has this bit when the record is a rect whose f32 box (x, y, x + a,
// y + b in f32) is the box the exact test uses (the f64 sums): then for two such rects the f32
// box test is the exact test, and the probe emits the pair without it.
const REACH_EXACT: i32 = 1 << 31;

/** REACH_EXACT when shape (k, x, y, a, b) is a rect whose f32 edges are its f64 edges, else 0. */
// @ts-ignore: decorator
@inline function rectExact(k: i32, x: f32, y: f32, a: f32, b: f32): i32 {
  return pick(REACH_EXACT, 0, k == KIND_RECT && <f64>toF32(x + a) == <f64>x + <f64>a && <f64>toF32(y + b) == <f64>y + <f64>b);
}

/**
 * In a reach grid, whether a record in cell `cell` is where the pair with box x0..y0 is reported:
 * the cell of the top-left corner of the two boxes' intersection, which both boxes cover, so a pair
 * met in several cells counts in exactly one.
 */
// @ts-ignore: decorator
@inline function pairCell(k: i32, x: f32, y: f32, a: f32, x0: f32, y0: f32, ox: f32, oy: f32, inv: f32, cols: i32, rows: i32, cell: i32): bool {
  const px = maxF32(x0, boxLo(k, x, a)), py = maxF32(y0, boxLo(k, y, a));
  return cellOf(py, oy, inv, rows) * (cols + 1) + cellOf(px, ox, inv, cols) == cell;
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
    setI32(o, a);
    setI32(o + 4, b);
  }
  found++;
}

/**
 * Whether the box of entry record (k, x, y, a, b) overlaps x0..y1 (edges touching count). The
 * record's box is computed as entityBox computes it (same f32 operations), so the test stays
 * conservative for the exact test that follows. Bitwise: one branch at the caller, taken only on
 * an overlap (rare), instead of four unpredictable ones.
 */
// @ts-ignore: decorator
@inline function recordOverlaps(k: i32, x: f32, y: f32, a: f32, b: f32, x0: f32, y0: f32, x1: f32, y1: f32): bool {
  return (bit(x1 >= boxLo(k, x, a)) & bit(boxX1(k, x, a) >= x0) & bit(y1 >= boxLo(k, y, a)) & bit(boxY1(k, y, a, b) >= y0)) != 0;
}

/**
 * Tests the shape (ki, xi..bi) of slot i, box x0..y1, against entry records [from, to); emits (lo,
 * hi) slot pairs. With `sorted` (a constant at every call: the records are sorted by box left
 * edge) the walk stops at the first record starting right of x1.
 */
// @ts-ignore: decorator
@inline function pairsAgainst(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: f32, y0: f32, x1: f32, y1: f32,
  entp: i32, from: i32, to: i32, pairp: i32, cap: i32, sorted: bool,
): void {
  if (!sorted) aabbTests += to - from;
  for (let q = from; q < to; q++) {
    const f = entp + q * ENTRY_BYTES;
    const tag = i32At(f), k = tag >>> KIND_SHIFT;
    const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
    if (sorted) {
      if (boxLo(k, x, a) > x1) break;
      aabbTests++;
    }
    if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
    narrowTests++;
    if (overlapInline(ki, xi, yi, ai, bi, k, x, y, a, b)) {
      const j = tag & TAG_SLOT;
      emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
    }
  }
}

// Above this many small entities per cell on average, selfPairs sorts each cell by left edge.
const CROWDED = 2;

/** Sorts each cell's entry records by box left edge (insertion sort: stable, and cells are short). */
function sortCellsByLeft(cellsp: i32, entp: i32, ncells: i32): void {
  let from = 0;
  for (let c = 0; c < ncells; c++) {
    const to = i32At(cellsp + (c << 2));
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
    from = to;
  }
}

/**
 * overlapShapes with the two same-kind tests the pair loops mostly meet (circle-circle,
 * rect-rect) inline: the same f64 arithmetic, without a call per box overlap.
 */
// @ts-ignore: decorator
@inline function overlapInline(ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, k: i32, x: f32, y: f32, a: f32, b: f32): bool {
  if (ki == k && k == KIND_CIRCLE) return circleCircle(xi, yi, ai, x, y, a);
  if (ki == k && k == KIND_RECT) {
    return rectRect(xi, yi, <f64>xi + <f64>ai, <f64>yi + <f64>bi, x, y, <f64>x + <f64>a, <f64>y + <f64>b);
  }
  return overlapShapes(ki, xi, yi, ai, bi, k, x, y, a, b);
}

/**
 * Sorts the large list by box left edge (Shell sort in place, Ciura's gaps: no scratch, and the
 * baseline runs the same comparisons, so both order the list alike), for the sweep in largePairs.
 */
function sortLargeByLeft(large: i32): void {
  const largep = hdr(H_LARGE), boxp = hdr(H_BOX);
  for (let g = 0; g < GAP_COUNT; g++) {
    const gap = tableI32(GAPS, g);
    if (gap >= large) continue;
    for (let k = gap; k < large; k++) {
      const t = i32At(largep + (k << 2));
      const key = f32At(boxp + (t << 4));
      let q = k;
      while (q >= gap) {
        const u = i32At(largep + ((q - gap) << 2));
        if (!(f32At(boxp + (u << 4)) > key)) break;
        setI32(largep + (q << 2), u);
        q -= gap;
      }
      setI32(largep + (q << 2), t);
    }
  }
}

// Ciura's Shell sort gaps, extended by x2.25, largest first.
const GAP_COUNT = 17;
const GAPS: StaticArray<i32> = [
  1355339, 602373, 267721, 118987, 52883, 23504, 10446, 4643, 1750, 701, 301, 132, 57, 23, 10, 4, 1,
];

/**
 * Tests slot i (box x0..y1) against large-list entries [from, to), which are sorted by left edge:
 * the sweep stops at the first one starting right of this box. Emits (lo, hi) slot pairs.
 */
function largePairs(i: i32, x0: f32, y0: f32, x1: f32, y1: f32, from: i32, to: i32): void {
  const largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  for (let q = from; q < to; q++) {
    const t = i32At(largep + (q << 2));
    const f = boxp + (t << 4);
    aabbTests++;
    if (x1 < f32At(f)) break;
    if (x0 > f32At(f + 8) || y1 < f32At(f + 4) || y0 > f32At(f + 12)) continue;
    const j = i32At(selp + (t << 2));
    narrowTests++;
    if (overlapSlots(i, j)) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
  }
}

// selfPairs' split of thin boxes: tried while the last grid was crowded (G_CROWDED), and after a
// no, again SPLIT_RETRY calls later (G_SPLIT_RETRY counts down). The cell sizes of the two grids
// come from splitPays' sample.
const SPLIT_RETRY = 16;
const SPLIT_THIN = 4; // a box is thin when its long side is at least this many times its short side
let wideX: f32 = 0;
let wideY: f32 = 0;
let tallX: f32 = 0;
let tallY: f32 = 0;

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
      selKeep = wide;
      const tall = build(count, mask, tallX, false, tallY, CLASS_TALL);
      selKeep = 0;
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
        return found;
      }
      beginCall();
    }
  }
  const n = build(count, mask, cellSize, false, 0, CLASS_ALL, true);
  if (n == 0) { setHdr(G_CROWDED, 0); endCall(); return 0; }
  setHdr(G_CROWDED, bit(walkGrid()));
  endCall();
  return found;
}

/** Counts down to the next try of the split; whether it is due. */
// @ts-ignore: decorator
@inline function splitDue(): bool {
  const retry = hdr(G_SPLIT_RETRY) - 1;
  setHdr(G_SPLIT_RETRY, retry);
  return retry <= 0;
}

/**
 * The wide grid just walked, in its order (cells row by row, then the large list): tags (slot |
 * kind << KIND_SHIFT) at the end of H_SEL, shapes (x, y, a, b) at the end of H_BOX. The tall
 * grid's build uses only the starts of both (an entry per tall entity), so the lists survive it.
 * Probing the tall grid in this order, with the shapes read in order, keeps it in cache; in slot
 * order each probe missed it at 100k entities.
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
      narrowTests++;
      if (overlapSlots(i, j)) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
    }
  }
  cellsVisited += visited;
  aabbTests += tests;
}

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
    if (!boxOk(k, a, b, x0, y0, x1, y1)) continue;
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
 * selfWalk4: a probe's row run mostly holds three to seven, so the loop mostly runs once.
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

/**
 * The pairs of the grid just built: small against small in the half stencil, then the large list
 * against the cells and against itself. Returns whether the grid was crowded.
 */
function walkGrid(): bool {
  const cols = ncols, rows = nrows, pitch = cols + 1, small = hdr(G_ENTRIES);
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  // Small against small: each entity against the rest of its cell and the half stencil (E, then
  // SW-S-SE, contiguous in the entry list). The walk goes over the entries, not the cells, so
  // empty cells cost nothing; the padding column and row make the runs two loads each. Crowded
  // cells (more than CROWDED small entities per cell on average: long thin boxes in cells sized
  // for their length) are sorted by left edge first, and each cell's walk is cut short.
  const crowded = small > cols * rows * CROWDED;
  if (crowded) sortCellsByLeft(cellsp, entp, (rows + 1) * pitch);
  if (SIMD) selfWalk4(small, pitch, crowded);
  else walkScalar(small, pitch, crowded);
  cellsVisited += cols * rows;
  // Large against small (through the cells their boxes reach) and against each other, by sort
  // and sweep on the left edge: a world of many large entities must not cost large^2 / 2 tests.
  const large = hdr(G_LARGE), largep = hdr(H_LARGE);
  sortLargeByLeft(large);
  for (let k = 0; k < large; k++) {
    const s = i32At(largep + (k << 2));
    const o = boxp + (s << 4);
    bx0 = f32At(o); by0 = f32At(o + 4); bx1 = f32At(o + 8); by1 = f32At(o + 12);
    const i = i32At(selp + (s << 2));
    scanCells(i, -1, MODE_SELF, 0, false, true);
    largePairs(i, bx0, by0, bx1, by1, k + 1, large);
  }
  return crowded;
}

/** walkGrid's small-against-small walk in the scalar build, entry by entry. */
function walkScalar(small: i32, pitch: i32, crowded: bool): void {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  for (let p = 0; p < small; p++) {
    const e = entp + p * ENTRY_BYTES;
    const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
    const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
    const c = i32At(e + 20);
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    const east = i32At(cellsp + ((c + 1) << 2));
    const below0 = i32At(cellsp + ((c + pitch - 2) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    if (crowded) {
      // Each cell sorted by left edge: a cell's walk stops at the first box starting right of this one.
      const end = i32At(cellsp + (c << 2));
      const s0 = i32At(cellsp + ((c + pitch - 1) << 2)), s1 = i32At(cellsp + ((c + pitch) << 2));
      pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, p + 1, end, pairp, cap, true);
      pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, end, east, pairp, cap, true);
      pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, below0, s0, pairp, cap, true);
      pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, s0, s1, pairp, cap, true);
      pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, s1, below1, pairp, cap, true);
      continue;
    }
    pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, p + 1, east, pairp, cap, false); // the rest of this cell, then E
    pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entp, below0, below1, pairp, cap, false);
  }
}

/**
 * The box of every entry record, as recordOverlaps computes it, into four planes (x0s, y0s, x1s,
 * y1s, each PLANE_STRIDE floats): the SIMD pair walk then tests four records with four loads.
 * Each record's cell field goes to cellp (i32 per record; H_HOME, free once the scatter has read
 * it), or with `tags` (a reach grid) its tag, with the cell field's REACH_EXACT bit (H_LARGE).
 * SIMD build only. Four records a step: (tag, x, y, a) and (y, a, b, cell) of each loaded as two
 * vectors and transposed, the boxes by lane, one vector store per plane where a record at a time
 * takes four loads and four stores; the cells go to their own array, so the walk's first pass
 * reads four bytes an entity instead of a 24-byte record. The last records go one at a time.
 */
function fillPlanes(entp: i32, n: i32, planep: i32, stride: i32, cellp: i32, tags: bool): void {
  let p = 0;
  {
    const circle = i32x4.splat(KIND_CIRCLE), rect = i32x4.splat(KIND_RECT);
    const tagMask = i32x4.splat(tags ? -1 : 0), fieldMask = i32x4.splat(tags ? REACH_EXACT : -1);
    for (; p + 4 <= n; p += 4) {
      const e = entp + p * ENTRY_BYTES;
      const l0 = v128.load(e), l1 = v128.load(e + ENTRY_BYTES), l2 = v128.load(e + 2 * ENTRY_BYTES), l3 = v128.load(e + 3 * ENTRY_BYTES);
      const h0 = v128.load(e, 8), h1 = v128.load(e + ENTRY_BYTES, 8), h2 = v128.load(e + 2 * ENTRY_BYTES, 8), h3 = v128.load(e + 3 * ENTRY_BYTES, 8);
      const t0 = i32x4.shuffle(l0, l1, 0, 4, 1, 5), t1 = i32x4.shuffle(l2, l3, 0, 4, 1, 5);
      const t2 = i32x4.shuffle(l0, l1, 2, 6, 3, 7), t3 = i32x4.shuffle(l2, l3, 2, 6, 3, 7);
      const u0 = i32x4.shuffle(h0, h1, 2, 6, 3, 7), u1 = i32x4.shuffle(h2, h3, 2, 6, 3, 7);
      const tag = i32x4.shuffle(t0, t1, 0, 1, 4, 5), k = i32x4.shr_u(tag, KIND_SHIFT);
      const x = i32x4.shuffle(t0, t1, 2, 3, 6, 7), y = i32x4.shuffle(t2, t3, 0, 1, 4, 5), a = i32x4.shuffle(t2, t3, 2, 3, 6, 7);
      const b = i32x4.shuffle(u0, u1, 0, 1, 4, 5);
      const ac = v128.and(a, i32x4.eq(k, circle));
      const o = planep + (p << 2);
      v128.store(o, f32x4.sub(x, ac));
      v128.store(o + stride, f32x4.sub(y, ac));
      v128.store(o + 2 * stride, f32x4.add(x, v128.and(a, i32x4.ge_u(k, circle))));
      v128.store(o + 3 * stride, f32x4.add(y, v128.bitselect(b, ac, i32x4.eq(k, rect))));
      v128.store(cellp + (p << 2), v128.or(v128.and(tag, tagMask), v128.and(i32x4.shuffle(u0, u1, 2, 3, 6, 7), fieldMask)));
    }
  }
  for (; p < n; p++) {
    const f = entp + p * ENTRY_BYTES;
    const k = i32At(f) >>> KIND_SHIFT;
    const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
    const o = planep + (p << 2);
    setF32(o, boxLo(k, x, a));
    setF32(o + stride, boxLo(k, y, a));
    setF32(o + 2 * stride, boxX1(k, x, a));
    setF32(o + 3 * stride, boxY1(k, y, a, b));
    const field = i32At(f + 20);
    setI32(cellp + (p << 2), tags ? i32At(f) | (field & REACH_EXACT) : field);
  }
}

/**
 * selfPairs' small-against-small walk in the SIMD build: the same runs, pairs, order and counts
 * as the scalar loop, but four records tested per step from the box planes, so a run of up to
 * four records costs one step and no branch per record. In a bullet hell most runs hold zero to
 * three records; the scalar loop paid a mispredicted loop exit on most of them. Outside crowded
 * grids an entity's two runs share one step and one branch, and its shape is loaded only when a
 * record overlaps it.
 */
function selfWalk4(small: i32, pitch: i32, crowded: bool): void {
  const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  const planep = hdr(H_PLANES), stride = (hdr(H_CAPACITY) + PLANE_SLACK) << 2;
  const cellp = hdr(H_HOME);
  fillPlanes(entp, small, planep, stride, cellp, false);
  let tests = 0;
  if (!crowded) {
    // Pass 1: the first four records of both runs in one step per entity, and the entity listed,
    // without a branch, when one overlaps or a run is longer (its hit lanes in the top byte).
    // Most entities meet nothing; a branch per entity mispredicted on those that do, and keeping
    // their shapes live for the hit path spilled the loop's registers. Beside each listed entity
    // goes its SW-S-SE run's start, with the top bit set when a run is longer than four records
    // (in H_LARGE past the large list): pass 2 then loads the records it tests straight from the
    // list, where finding them through the entity's cell made three loads wait on one another
    // (paired 0.965 and 0.985 on circles at 100k). The test count adds up in a vector, from the
    // runs' splats, and "longer" is tested as (n1 | n2) > 4, which also lists the few entities
    // with a run of four and another run (pass 2 finds their runs short): V8's code for the loop
    // went from 118 instructions to 104 (paired 0.95-0.98).
    const listp = cellp, runp = hdr(H_LARGE) + (hdr(G_LARGE) << 2), iota = i32x4(0, 1, 2, 3);
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
    tests += i32x4.extract_lane(testv, 0);
    // Pass 2: the listed entities, in entry order: the rest of this cell, then E; then SW-S-SE
    // (the scalar loop's order). Records past the fourth go through pairsAgainst4, which counts
    // them again. The pair and test counts stay in locals (V8 keeps wasm globals in memory).
    let nf = found, nt = narrowTests;
    for (let q = 0; q < listed; q++) {
      const v = i32At(listp + (q << 2)), p = v & TAG_SLOT, bits = v >>> 24;
      const runs = i32At(runp + (q << 2)), below0 = runs & 0x7fffffff;
      const e = entp + p * ENTRY_BYTES;
      const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
      const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
      nt += popcnt32(bits);
      if (runs >= 0) {
        // Both runs within four records (nearly every entity): one loop over both runs' hits, of
        // which a listed entity then has one or more, so the exit is taken after the first hit
        // on most entities; a loop per run mispredicted whether each run had any (paired
        // 0.981-0.984 on circles at 100k).
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
      // Long runs (rare outside crowded grids) go through pairsAgainst4, on the globals.
      const o = planep + (p << 2);
      if (n1 > 4) {
        tests -= n1 - 4;
        found = nf; narrowTests = nt;
        pairsPastFour(i, k, x, y, a, b, o, entp, planep, stride, p + 5, east, pairp, cap);
        nf = found; nt = narrowTests;
      }
      for (let m = bits >> 4; m != 0; m &= m - 1) nf = hitAt(i, k, x, y, a, b, entp + (below0 + ctz32(m)) * ENTRY_BYTES, pairp, cap, nf);
      if (n2 > 4) {
        tests -= n2 - 4;
        found = nf; narrowTests = nt;
        pairsPastFour(i, k, x, y, a, b, o, entp, planep, stride, below0 + 4, below1, pairp, cap);
        nf = found; nt = narrowTests;
      }
    }
    found = nf;
    narrowTests = nt;
    aabbTests += tests;
    return;
  }
  for (let p = 0; p < small; p++) {
    const e = entp + p * ENTRY_BYTES, c = i32At(e + 20), o = planep + (p << 2);
    const x0 = f32x4.splat(f32At(o)), y0 = f32x4.splat(f32At(o + stride));
    const x1 = f32x4.splat(f32At(o + 2 * stride)), y1 = f32x4.splat(f32At(o + 3 * stride));
    const east = i32At(cellsp + ((c + 1) << 2));
    const below0 = i32At(cellsp + ((c + pitch - 2) << 2)), below1 = i32At(cellsp + ((c + pitch + 1) << 2));
    const tag = i32At(e), i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
    const x = f32At(e + 4), y = f32At(e + 8), a = f32At(e + 12), b = f32At(e + 16);
    const end = i32At(cellsp + (c << 2));
    const s0 = i32At(cellsp + ((c + pitch - 1) << 2)), s1 = i32At(cellsp + ((c + pitch) << 2));
    pairsAgainst4(i, k, x, y, a, b, x0, y0, x1, y1, entp, planep, stride, p + 1, end, pairp, cap, true);
    pairsAgainst4(i, k, x, y, a, b, x0, y0, x1, y1, entp, planep, stride, end, east, pairp, cap, true);
    pairsAgainst4(i, k, x, y, a, b, x0, y0, x1, y1, entp, planep, stride, below0, s0, pairp, cap, true);
    pairsAgainst4(i, k, x, y, a, b, x0, y0, x1, y1, entp, planep, stride, s0, s1, pairp, cap, true);
    pairsAgainst4(i, k, x, y, a, b, x0, y0, x1, y1, entp, planep, stride, s1, below1, pairp, cap, true);
  }
  aabbTests += tests;
}

/**
 * pairsAgainst four records a step, from the box planes: lanes past the run are masked off, and
 * only the records whose boxes overlap (few) go one by one to the exact test. With `sorted` the
 * tests counted are the records starting left of this box's right edge (the scalar loop's break).
 */
// @ts-ignore: decorator
@inline function pairsAgainst4(
  i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, x0: v128, y0: v128, x1: v128, y1: v128,
  entp: i32, planep: i32, stride: i32, from: i32, to: i32, pairp: i32, cap: i32, sorted: bool,
): void {
  if (!sorted) aabbTests += to - from;
  let q = from;
  do {
    const o = planep + (q << 2);
    const inRun = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(to - q));
    const hit = v128.and(inRun, planeOverlap(o, stride, x0, y0, x1, y1));
    for (let bits = i32x4.bitmask(hit); bits != 0; bits &= bits - 1) recordHit(i, ki, xi, yi, ai, bi, entp + (q + ctz32(bits)) * ENTRY_BYTES, pairp, cap);
    if (sorted) {
      const left = v128.and(inRun, f32x4.le(v128.load(o), x1));
      aabbTests += popcnt32(i32x4.bitmask(left));
      if (i32x4.bitmask(left) != i32x4.bitmask(inRun)) break;
    }
    q += 4;
  } while (q < to);
}

/**
 * The walk's second pass past a run's first four records: pairsAgainst4 from `from` to `to` for
 * entry i (shape k..b), its box loaded from the planes at o (its own entry). Counts on the globals.
 */
// @ts-ignore: decorator
@inline function pairsPastFour(
  i: i32, k: i32, x: f32, y: f32, a: f32, b: f32, o: i32, entp: i32, planep: i32, stride: i32, from: i32, to: i32, pairp: i32, cap: i32,
): void {
  pairsAgainst4(i, k, x, y, a, b, f32x4.splat(f32At(o)), f32x4.splat(f32At(o + stride)), f32x4.splat(f32At(o + 2 * stride)),
    f32x4.splat(f32At(o + 3 * stride)), entp, planep, stride, from, to, pairp, cap, false);
}

/** Which of the four plane boxes at p overlap box x0..y1 (splat in each lane; edges touching count), as recordOverlaps. */
// @ts-ignore: decorator
@inline function planeOverlap(p: i32, stride: i32, x0: v128, y0: v128, x1: v128, y1: v128): v128 {
  return v128.and(v128.and(f32x4.le(v128.load(p), x1), f32x4.le(v128.load(p + stride), y1)),
    v128.and(f32x4.ge(v128.load(p + 2 * stride), x0), f32x4.ge(v128.load(p + 3 * stride), y0)));
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
  const o = pick(pairp + (nf << 3), LANES, nf < cap);
  setI32(o, minI32(i, j));
  setI32(o + 4, maxI32(i, j));
  return nf + bit(ok);
}

/** The box of shape i overlaps entry record f's: the exact test, and the pair (lo, hi) when it holds. */
// @ts-ignore: decorator
@inline function recordHit(i: i32, ki: i32, xi: f32, yi: f32, ai: f32, bi: f32, f: i32, pairp: i32, cap: i32): void {
  narrowTests++;
  const tag = i32At(f), j = tag & TAG_SLOT;
  if (overlapInline(ki, xi, yi, ai, bi, tag >>> KIND_SHIFT, f32At(f + 4), f32At(f + 8), f32At(f + 12), f32At(f + 16))) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
}

/**
 * Tests the box bx0..by1 of slot `self` against what the grid holds: the small entities in the
 * cells that box can reach, then the large list. MODE_PAIRS emits (self, j), MODE_SELF (lo, hi),
 * MODE_RESULTS writes j (filtered by `mask`), MODE_FIRST returns the lowest eligible slot or
 * NO_SLOT. Slot `skip` is never reported. `smallOnly` leaves out the large list (selfPairs pairs
 * the large entities among themselves).
 */
function scanCells(self: i32, skip: i32, mode: i32, mask: i32, exclusive: bool, smallOnly: bool): i32 {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), invY = hdrF(G_INVY);
  const x0 = bx0, y0 = by0, x1 = bx1, y1 = by1;
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
    cellsVisited += c1x - c0x + 1;
    for (let p = from; p < to; p++) {
      const f = entp + p * ENTRY_BYTES;
      const tag = i32At(f), j = tag & TAG_SLOT;
      if (mode == MODE_FIRST && j >= best) continue; // a run spans cells: later cells may hold lower slots
      if (j == skip) continue;
      const k = tag >>> KIND_SHIFT;
      const x = f32At(f + 4), y = f32At(f + 8), a = f32At(f + 12), b = f32At(f + 16);
      aabbTests++;
      if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
      if (spans && !pairCell(k, x, y, a, x0, y0, ox, oy, inv, cols, rows, i32At(f + 20) & ~REACH_EXACT)) continue;
      if (!eligible(j, mode, mask, exclusive, gp, flagp)) continue;
      narrowTests++;
      if (!overlapShapes(sk, sx, sy, sa, sb, k, x, y, a, b)) continue;
      if (mode == MODE_FIRST) best = j;
      else if (mode == MODE_RESULTS) { setI32(resp + (found << 2), j); found++; }
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
    aabbTests++;
    if (x1 < f32At(f) || x0 > f32At(f + 8) || y1 < f32At(f + 4) || y0 > f32At(f + 12)) continue;
    if (!eligible(j, mode, mask, exclusive, gp, flagp)) continue;
    narrowTests++;
    if (!overlapSlots(self, j)) continue;
    if (mode == MODE_FIRST) best = j;
    else if (mode == MODE_RESULTS) { setI32(resp + (found << 2), j); found++; }
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

// liveInBoth's counts: live slots in maskA, and in maskB.
let liveA = 0;
let liveB = 0;

/** Live slots in [0, count) in maskA (into liveA) and in maskB (into liveB), in one pass. */
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
 * Each live slot i in `mask`, in slot order, probes the grid of the last build: the small entities
 * in the cells its box can reach, then the large list, as scanCells does, with the grid's fields
 * read once per call and the probe's box in locals. Emits (i, j), or (j, i) with `rev`; slot i
 * itself is never reported.
 */
function probeGrid(count: i32, mask: i32, rev: bool): void {
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const cols = hdr(G_COLS), rows = hdr(G_ROWS), pitch = cols + 1;
  if (cols == 0) return;
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
    if (!boxOk(ki, ai, bi, x0, y0, x1, y1)) { noteInvalid(i); continue; }
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
        narrowTests++;
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
      narrowTests++;
      if (!overlapSlots(i, j)) continue;
      if (rev) emitPair(pairp, cap, j, i);
      else emitPair(pairp, cap, i, j);
    }
  }
  cellsVisited += visited;
  aabbTests += tests;
}

/**
 * Each live slot i in `mask`, in slot order, against the reach grid of the last build: the
 * records of the one cell holding its box's top-left corner (every entity it can overlap is
 * listed there), tested in record order. Emits (i, j), or (j, i) with `rev`; slot i itself is
 * never reported. A probe counts one cell and its run's records (less itself) as tests. Leaves
 * the largest probe width and height it met in seenW and seenH, the live probes in probesLive.
 */
function probeReach(count: i32, mask: i32, rev: bool): void {
  seenW = 0;
  seenH = 0;
  probesLive = 0;
  if (hdr(G_COLS) == 0) return;
  if (SIMD) probeReachSimd(count, mask, rev);
  else probeReachScalar(count, mask, rev);
}

/** probeReach's end: the counts into the call's stats and the next call's choice (G_SPARSE_RUNS). */
// @ts-ignore: decorator
@inline function endProbeReach(visited: i32, tests: i32, probes: i32, w: f32, h: f32): void {
  cellsVisited += visited;
  aabbTests += tests;
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
    if (!boxOk(ki, ai, bi, x0, y0, x1, y1)) { noteInvalid(i); continue; }
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

// What probeReachSimd's first pass leaves for the rest of the call.
let reachVisited = 0;
let reachTests = 0;
let reachProbes = 0;
let reachListed = 0;
let reachCand = 0;
let reachWidth: f32 = 0;
let reachHeight: f32 = 0;

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
 * pass (reachListed) tests the listed probes in order.
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
  const listed = reachCandidates(reachCand, reachListed);
  const self = reachListedPairs(listed, rev);
  endProbeReach(reachVisited, reachTests - self, reachProbes, reachWidth, reachHeight);
}

/**
 * probeReachSimd's first pass over slots [0, count & ~3): returns where it stopped, its counts
 * in the reach* globals. One loop: split, the vectors it keeps would pass through memory.
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
      ok = boxOk4(live, a, b, x0, y0, x1, y1);
    } else {
      const isCircle = i32x4.eq(k, circle);
      const ac = v128.and(a, isCircle), as = v128.and(a, i32x4.ge_u(k, circle)), bs = v128.bitselect(b, ac, i32x4.eq(k, rect));
      x0 = f32x4.sub(x, ac); y0 = f32x4.sub(y, ac); x1 = f32x4.add(x, as); y1 = f32x4.add(y, bs);
      ok = boxOk4(live, as, v128.and(b, i32x4.eq(k, rect)), x0, y0, x1, y1);
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
  reachVisited = visited;
  reachTests = stagedTests;
  reachProbes = probes;
  reachListed = listed;
  reachCand = cand;
  reachWidth = min4(wv, true);
  reachHeight = min4(hv, true);
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
  let visited = reachVisited, tests = reachTests, probes = reachProbes, listed = reachListed, cand = reachCand;
  let w = reachWidth, h = reachHeight;
  for (; i < count; i++) {
    const ki = u8At(kp + i);
    if ((i32At(gp + (i << 2)) & mask) == 0 || ki == KIND_NONE) continue;
    probes++;
    const xi = f32At(xp + (i << 2)), yi = f32At(yp + (i << 2));
    const ai = f32At(ap + (i << 2)), bi = f32At(bp + (i << 2));
    const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
    if (!boxOk(ki, ai, bi, x0, y0, x1, y1)) { noteInvalid(i); continue; }
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
  reachVisited = visited;
  reachTests = tests;
  reachProbes = probes;
  reachListed = listed;
  reachCand = cand;
  reachWidth = w;
  reachHeight = h;
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
  let nf = found, nt = narrowTests, self = 0;
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
  found = nf;
  narrowTests = nt;
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
    // load, and its records' compare waits on them; read four at a time, they overlap. One probe
    // a step: 1.03-1.04 of the time (clustered bipartite at 10k, warm paired blocks).
    const o = STAGE + (l << 2);
    const c0 = i32At(o + STAGE_PLANE), c1 = i32At(o + STAGE_PLANE + 4), c2 = i32At(o + STAGE_PLANE + 8), c3 = i32At(o + STAGE_PLANE + 12);
    const f0 = i32At(c0 - 4), t0 = i32At(c0), f1 = i32At(c1 - 4), t1 = i32At(c1);
    const f2 = i32At(c2 - 4), t2 = i32At(c2), f3 = i32At(c3 - 4), t3 = i32At(c3);
    tests += t0 - f0 + t1 - f1 + t2 - f2 + t3 - f3;
    // (A helper taking o + 4 and so on for the lanes: 1.02 of the time; the offsets stay constants here.)
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

/** emitPair with the pair count in a local: writes (a, b) as pair `n` if it fits; returns n + 1. */
// @ts-ignore: decorator
@inline function emitAt(pairp: i32, cap: i32, n: i32, a: i32, b: i32): i32 {
  if (n < cap) {
    const o = pairp + (n << 3);
    setI32(o, a);
    setI32(o + 4, b);
  }
  return n + 1;
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
  narrowTests++;
  if (reachOverlap(ki, xi, yi, ai, bi, exact, f)) {
    if (rev) emitPair(pairp, cap, j, i);
    else emitPair(pairp, cap, i, j);
  }
  return false;
}

// The widening of the current reach grid: the largest probe width and height it allows for.
let reachW: f32 = 0;
let reachH: f32 = 0;
// The largest probe width and height the last probeReach met.
let seenW: f32 = 0;
let seenH: f32 = 0;
/**
 * The largest box width and height among the live slots in `mask` with valid boxes, into reachW
 * and reachH; false when one is not finite (the boxes span more than f32 can hold).
 */
function probeExtent(count: i32, mask: i32): bool {
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
    const ok = boxOk4(live, as, v128.and(b, i32x4.eq(k, rect)), x0, y0, x1, y1);
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
    if (!boxOk(k, a, b, x0, y0, x1, y1)) continue;
    const dx = toF32(x1 - x0), dy = toF32(y1 - y0);
    w = pick(dx, w, dx > w);
    h = pick(dy, h, dy > h);
  }
  reachW = w;
  reachH = h;
}

/**
 * Coordinate v moved left (or up) by extent `ext`, and a little more: a probe's box starts at
 * least ext before the far edge of any box it overlaps, but its width was rounded to f32, so the
 * margin covers that rounding and this one. Computed in f64 (the baseline's numbers), rounded once.
 */
// @ts-ignore: decorator
@inline function reachLo(v: f32, ext: f32): f32 {
  const lo = <f64>v - <f64>ext * (1 + 1.0 / 1048576);
  return toF32(lo - Math.abs(lo) * (1.0 / 4194304));
}

/** The end of a crossPairs call: the invalid entities both sides met, and the stats. */
// @ts-ignore: decorator
@inline function endCross(): void {
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
  endCall();
}

// The live probes the last probeReach met (counted on the way, for crossAgain).
let probesLive = 0;

/**
 * crossPairs repeated with the same masks, on the side and widening of the last call, without
 * first counting both sides (liveInBoth: a pass over every slot). The select pass counts the
 * indexed side, the probe pass the probing side; the call stands when they still make the indexed
 * side the smaller and no probe grew. Returns false otherwise: the caller starts over.
 */
function crossAgain(count: i32, maskA: i32, maskB: i32, cellSize: f32): bool {
  const indexA = hdr(G_INDEX_SIDE) == INDEX_A, probeMask = indexA ? maskB : maskA;
  if (hdr(G_PROBE_KNOWN) == 0 || hdr(G_PROBE_MASK) != probeMask) return false;
  beginCall();
  reachW = hdrF(G_PROBE_W);
  reachH = hdrF(G_PROBE_H);
  const n = build(count, indexA ? maskA : maskB, cellSize, true, 0, CLASS_ALL);
  if (n <= 0) return false; // no grid to probe (the probes go uncounted), or records too many
  const indexed = n + invalid; // live in the indexed mask, as liveInBoth counts them
  if (indexed * COVER_RECORDS > hdr(H_CAPACITY)) return false;
  probeReach(count, probeMask, indexA);
  if (!(seenW <= reachW && seenH <= reachH)) return false;
  if (indexA ? indexed >= probesLive : probesLive < indexed) return false; // crossPairs' choice: index A when na < nb
  setHdrF(G_PROBE_W, seenW);
  setHdrF(G_PROBE_H, seenH);
  endCross();
  return true;
}

/** All overlapping pairs (a, b) with a in maskA and b in maskB, a != b; returns the total, which may exceed the capacity. */
export function crossPairs(count: i32, maskA: i32, maskB: i32, cellSize: f32): i32 {
  maskA |= 0; // the js backend may pass masks as numbers up to 2^32: as i32, they compare with the header's
  maskB |= 0;
  if (hdr(G_INDEX_SIDE) != INDEX_NONE && hdr(G_INDEX_MASK_A) == maskA && hdr(G_INDEX_MASK_B) == maskB && crossAgain(count, maskA, maskB, cellSize)) return found;
  setHdr(G_INDEX_SIDE, INDEX_NONE);
  beginCall();
  liveInBoth(count, maskA, maskB);
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
  reachW = known ? hdrF(G_PROBE_W) : -1;
  reachH = known ? hdrF(G_PROBE_H) : -1;
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
      if (seenW <= reachW && seenH <= reachH) {
        setHdr(G_PROBE_KNOWN, 1);
        setHdr(G_PROBE_MASK, probeMask);
        setHdrF(G_PROBE_W, seenW);
        setHdrF(G_PROBE_H, seenH);
        setHdr(G_INDEX_SIDE, indexA ? INDEX_A : INDEX_B);
        setHdr(G_INDEX_MASK_A, maskA);
        setHdr(G_INDEX_MASK_B, maskB);
        endCross();
        return found;
      }
      beginCall(); // a probe grew: its pairs so far and the stats go
      if (!(seenW < Infinity && seenH < Infinity)) break;
      reachW = seenW;
      reachH = seenH;
      known = true;
    }
  }
  // A home grid of the larger side (cheaper to build per entity than to probe), probed by the other.
  const swap = na > nb << 1;
  build(count, swap ? maskA : maskB, cellSize, false, 0, CLASS_ALL);
  probeGrid(count, swap ? maskB : maskA, swap);
  endCross();
  return found;
}

/**
 * The seed's markAsHit / markAsStopped pass: bullets (maskA) in ascending slot order each stop at
 * the lowest-slot enemy (maskB) they overlap; with `exclusive`, an enemy already hit this call
 * absorbs no further bullet (the seed's `!enemy.alreadyHit()`). Writes (bullet, enemy) pairs and
 * FLAG_STOPPED / FLAG_HIT into the flags store; returns the number of hits.
 */
export function firstHits(count: i32, maskA: i32, maskB: i32, cellSize: f32, exclusive: bool): i32 {
  beginCall();
  build(count, maskB, cellSize, false, 0, CLASS_ALL);
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS), flagp = hdr(H_FLAGS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  fill(flagp, 0, count);
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
    if (!boxOk(sk, sa, sb, x0, y0, x1, y1)) { noteInvalid(i); continue; }
    let best = NO_SLOT;
    if (large > 0) {
      bx0 = x0; by0 = y0; bx1 = x1; by1 = y1;
      best = scanCells(i, i, MODE_FIRST, 0, exclusive, false);
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
          aabbTests++;
          if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
          if (exclusive && (u8At(flagp + j) & FLAG_HIT)) continue;
          narrowTests++;
          if (overlapShapes(sk, sx, sy, sa, sb, k, x, y, a, b)) best = j;
        }
      }
    }
    if (best == NO_SLOT) continue;
    setU8(flagp + i, u8At(flagp + i) | FLAG_STOPPED);
    setU8(flagp + best, u8At(flagp + best) | FLAG_HIT);
    emitPair(pairp, cap, i, best);
  }
  cellsVisited += visited;
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
export function queryProbe(count: i32, mask: i32, useGrid: bool, exclude: i32): i32 {
  beginCall();
  const probe = hdr(H_CAPACITY);
  const kp = hdr(H_KIND), gp = hdr(H_GROUPS);
  const xp = hdr(H_X), yp = hdr(H_Y), ap = hdr(H_A), bp = hdr(H_B);
  if (!entityBox(probe, kp, xp, yp, ap, bp)) { endCall(); return 0; }
  if (useGrid) {
    scanCells(probe, exclude, MODE_RESULTS, mask, false, false);
  } else {
    const resp = hdr(H_RESULTS);
    const x0 = bx0, y0 = by0, x1 = bx1, y1 = by1;
    for (let j = 0; j < count; j++) {
      if ((i32At(gp + (j << 2)) & mask) == 0 || u8At(kp + j) == KIND_NONE || j == exclude) continue;
      if (!entityBox(j, kp, xp, yp, ap, bp)) continue;
      aabbTests++;
      if (x1 < bx0 || x0 > bx1 || y1 < by0 || y0 > by1) continue;
      narrowTests++;
      if (overlapSlots(probe, j)) { setI32(resp + (found << 2), j); found++; }
    }
  }
  endCall();
  return found;
}
