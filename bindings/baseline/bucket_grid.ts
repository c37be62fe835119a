// The pure-TS baseline: assembly/bucket_grid.ts ported function for function onto typed-array
// views of the same memory layout (layout/grid.ts). Same algorithm, same passes, no object per
// entity, so the benchmark compares compilers and not algorithms. Read the wasm file for the why
// of each step. Passes stay in small functions: V8 optimizes them whole, where one long function
// with several loops kept falling back from its on-stack-replaced loop.
import {
  CELLS_PER_ENTITY, COVER_CELLS_MOST, COVER_CELLS_PER_ENTITY, COVER_RECORDS, ENTRY_BYTES, FLAG_HIT, KIND_SHIFT, TAG_SLOT, FLAG_STOPPED, G_CELL, G_COLS, G_COVER, G_ENTRIES, G_INV, G_LARGE, G_MASK, G_MAXX,
  G_MAXY, G_OX, G_OY, G_ROWS, G_SELECTED, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_CELLS_CAP, H_ENTRIES,
  H_FLAGS, H_GROUPS, H_HIST, H_HOME, H_KIND, H_LARGE, H_PAIRS, H_PAIRS_CAP, H_RESULTS, H_SEL, H_X, H_Y,
  BASELINE_ARENA_BASE, HEADER, HIST_BUCKETS, KIND_CIRCLE, KIND_NONE, KIND_RECT, NO_SLOT, S_AABB_TESTS,
  S_CELLS_VISITED, S_FIRST_INVALID, S_FOUND, S_INVALID, S_NARROW_TESTS, SCRATCH_SLACK,
  CLASS_ALL, CLASS_TALL, CLASS_WIDE, G_INVY, G_REACHH, G_REACHW, G_SPLIT, SPLIT_LARGE, H_PLANES, MAX_COORD, PLANE_SLACK,
} from "../../layout/grid.js";
import { overlapShapes } from "./shapes.js";
import type { Kernel } from "../kernel.js";

// Ciura's Shell sort gaps, extended by x2.25, largest first (as the core).
// Past this many slots the size histogram counts every eighth selected entity (as the core).
const HIST_SAMPLE_FROM = 4096;
// Above this many small entities per cell on average, cells are sorted by left edge (as the core).
const CROWDED = 2;

// selfPairs' split of thin boxes (as the core): retried SPLIT_RETRY calls after a no; a box is
// thin when its long side is at least SPLIT_THIN times its short side.
const SPLIT_RETRY = 16;
const SPLIT_THIN = 4;

const SHELL_GAPS = [1355339, 602373, 267721, 118987, 52883, 23504, 10446, 4643, 1750, 701, 301, 132, 57, 23, 10, 4, 1];

const MODE_PAIRS = 0;
const MODE_FIRST = 1;
const MODE_RESULTS = 2;
const MODE_SELF = 3;
const MODE_PAIRS_REV = 4;
const HDR = HEADER >> 2;
const ENTRY_WORDS = ENTRY_BYTES >> 2;
const fround = Math.fround;
const bitsF32 = new Float32Array(1);
const bitsU32 = new Uint32Array(bitsF32.buffer);

/** The TS baseline kernel over a WebAssembly.Memory of its own (never compiled to wasm). */
export class BaselineKernel implements Kernel {
  readonly memory: WebAssembly.Memory;
  private buffer: ArrayBuffer | null = null;
  private f32 = new Float32Array(0);
  private i32 = new Int32Array(0);
  private u8 = new Uint8Array(0);
  private stageX = new Float64Array(0);
  private stageY = new Float64Array(0);
  private storeX = new Float32Array(0);
  private storeY = new Float32Array(0);

  // The box of the last entityBox call, the counters of the current call, the grid being built.
  private bx0 = 0;
  private by0 = 0;
  private bx1 = 0;
  private by1 = 0;
  private aabbTests = 0;
  private narrowTests = 0;
  private cellsVisited = 0;
  private invalid = 0;
  private firstInvalid = -1;
  private found = 0;
  private minX = 0;
  private minY = 0;
  private maxX = 0;
  private maxY = 0;
  private originX = 0;
  private originY = 0;
  private cellSide = 1;
  private cellSideY = 1;
  private ncols = 0;
  private nrows = 0;
  private histSamples = 0;
  private reachW = 0;
  private reachH = 0;
  private seenW = 0;
  private seenH = 0;
  // The core's lastMask / lastW / lastH: the probes' extents in the last crossPairs that probed a reach grid.
  private lastMask = 0;
  private lastW = -1;
  private lastH = -1;
  // The core's lastIndexA / lastMaskA / lastMaskB / probesLive: crossAgain's side and check.
  private lastIndexA = -1;
  private lastMaskA = 0;
  private lastMaskB = 0;
  private probesLive = 0;
  private lastCrowded = false;
  private splitRetry = 0;
  private wideX = 0;
  private wideY = 0;
  private tallX = 0;
  private tallY = 0;

  constructor(memory: WebAssembly.Memory) {
    this.memory = memory;
  }

  arenaBase(): number {
    return BASELINE_ARENA_BASE;
  }

  /** Views over the whole memory, rebuilt when it has grown. */
  private views(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.f32 = new Float32Array(this.buffer);
      this.i32 = new Int32Array(this.buffer);
      this.u8 = new Uint8Array(this.buffer);
    }
  }

  private entityBox(i: number, kp: number, xw: number, yw: number, aw: number, bw: number): boolean {
    const f32 = this.f32;
    const k = this.u8[kp + i];
    const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
    const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
    this.bx0 = x0; this.by0 = y0; this.bx1 = x1; this.by1 = y1;
    return boxOk(k, a, b, x0, y0, x1, y1);
  }

  private noteInvalid(i: number): void {
    if (this.invalid === 0) this.firstInvalid = i;
    this.invalid++;
  }

  private overlapSlots(i: number, j: number): boolean {
    const h = this.i32, f32 = this.f32, u8 = this.u8, kp = h[HDR + H_KIND];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    return overlapShapes(
      u8[kp + i], f32[xw + i], f32[yw + i], f32[aw + i], f32[bw + i],
      u8[kp + j], f32[xw + j], f32[yw + j], f32[aw + j], f32[bw + j],
    );
  }

  private autoCellSize(histw: number, n: number): number {
    const i32 = this.i32;
    const target = n - ((n / 10) | 0);
    let seen = 0;
    let k = 0;
    for (; k < HIST_BUCKETS; k++) {
      seen += i32[histw + k];
      if (seen >= target) break;
    }
    if (k === 0) return 0;
    if (k > 253) k = 253;
    return Math.pow(2, k - 126);
  }

  private selectPass(count: number, mask: number, cls: number): number {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const selw = h[HDR + H_SEL] >> 2, histw = h[HDR + H_HIST] >> 2;
    i32.fill(0, histw, histw + HIST_BUCKETS);
    let n = 0;
    const sample = count >= HIST_SAMPLE_FROM ? 7 : 0;
    let x0m = Infinity, y0m = Infinity, x1m = -Infinity, y1m = -Infinity;
    for (let i = 0; i < count; i++) {
      const k = u8[kp + i];
      if ((i32[gw + i] & mask) === 0 || k === KIND_NONE) continue;
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
      if (!boxOk(k, a, b, x0, y0, x1, y1)) { this.noteInvalid(i); continue; }
      if (cls !== CLASS_ALL && (fround(x1 - x0) >= fround(y1 - y0)) !== (cls === CLASS_WIDE)) continue;
      i32[selw + n] = i;
      if (x0 < x0m) x0m = x0;
      if (y0 < y0m) y0m = y0;
      if (x1 > x1m) x1m = x1;
      if (y1 > y1m) y1m = y1;
      if ((n & sample) === 0) {
        // The f32 exponent of the extent (an f32 difference), read through its bits, as the core does.
        const ex = fround(x1 - x0), ey = fround(y1 - y0);
        bitsF32[0] = ex > ey ? ex : ey;
        i32[histw + (bitsU32[0] >>> 23)]++;
      }
      n++;
    }
    this.histSamples = (n + sample) >> (sample === 0 ? 0 : 3);
    this.minX = x0m + 0; this.minY = y0m + 0; this.maxX = x1m + 0; this.maxY = y1m + 0; // -0 + 0 is +0, as in the core
    return n;
  }

  private chooseShape(n: number, cellSize: number, cellSizeY: number, cover: boolean): void {
    const h = this.i32;
    const w = this.maxX - this.minX, hgt = this.maxY - this.minY;
    const most = cover ? Math.min(n * COVER_CELLS_PER_ENTITY + SCRATCH_SLACK, Math.max(COVER_CELLS_MOST, n * CELLS_PER_ENTITY)) : n * CELLS_PER_ENTITY + SCRATCH_SLACK;
    const maxCells = Math.min(h[HDR + H_CELLS_CAP] - 1, most);
    if (cellSizeY > 0) {
      // Too many cells: the short side grows first, up to the long one (as the core).
      let sx = cellSize, sy = cellSizeY;
      const need = w * hgt / maxCells / (sx * sy);
      if (need > 1) {
        if (sx < sy) sx *= Math.min(need, sy / sx);
        else sy *= Math.min(need, sx / sy);
        const rest = Math.sqrt(w * hgt / maxCells / (sx * sy));
        if (rest > 1) { sx *= rest; sy *= rest; }
      }
      const line = Math.max(w / sx, hgt / sy) / maxCells;
      if (line > 1) { sx *= line; sy *= line; }
      while (this.cellsOver(sx, sy, cover, maxCells)) {
        if (sx < sy) sx *= 1.0625;
        else sy *= 1.0625;
      }
      this.setShape(sx, sy, cover);
      return;
    }
    const asked = cellSize > 0 ? cellSize : this.autoCellSize(h[HDR + H_HIST] >> 2, this.histSamples) * (cover ? 0.5 : 1);
    let cs = asked;
    const spread = Math.sqrt(w * hgt / maxCells);
    if (cs < spread) cs = spread;
    if (cs < (w + hgt) / maxCells) cs = (w + hgt) / maxCells;
    if (!(cs >= 1e-30)) cs = 1e-30 > w + hgt ? 1 : w + hgt;
    if (!cover && cs !== asked) cs = sizeStep(cs); // a home grid's raised size: the next of 16 steps an octave (as the core)
    while (this.cellsOver(cs, cs, cover, maxCells)) cs = cover ? cs * 1.0625 : sizeStep(cs * 1.03125);
    this.setShape(cs, cs, cover);
  }

  /** Whether sx by sy cells from the origin over the bounds, with the padding column and row, are more than maxCells (as the core). */
  private cellsOver(sx: number, sy: number, cover: boolean, maxCells: number): boolean {
    const cols = Math.floor((this.maxX - originOf(this.minX, sx, cover)) / sx) + 2;
    return cols * (Math.floor((this.maxY - originOf(this.minY, sy, cover)) / sy) + 2) > maxCells;
  }

  /** The grid's cell sides, origin, columns and rows (as the core). */
  private setShape(sx: number, sy: number, cover: boolean): void {
    this.cellSide = sx;
    this.cellSideY = sy;
    this.originX = originOf(this.minX, sx, cover);
    this.originY = originOf(this.minY, sy, cover);
    this.ncols = Math.floor((this.maxX - this.originX) / sx) + 1;
    this.nrows = Math.floor((this.maxY - this.originY) / sy) + 1;
  }

  private homePass(n: number, inv: number, invY: number): number {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const boxw = h[HDR + H_BOX] >> 2, selw = h[HDR + H_SEL] >> 2, cellsw = (h[HDR + H_CELLS] >> 2) + 1;
    const homew = h[HDR + H_HOME] >> 2, largew = h[HDR + H_LARGE] >> 2;
    const cols = this.ncols, rows = this.nrows, pitch = cols + 1, ox = this.originX, oy = this.originY;
    i32.fill(0, cellsw - 1, cellsw + pitch * (rows + 1));
    let large = 0;
    for (let s = 0; s < n; s++) {
      const i = i32[selw + s], k = u8[kp + i];
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
      const c0x = cellOf(x0, ox, inv, cols), c0y = cellOf(y0, oy, invY, rows);
      const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
      if (c1x - c0x > 1 || c1y - c0y > 1) {
        this.markLarge(homew, boxw, largew, s, large++, x0, y0, x1, y1);
        continue;
      }
      const c = c0y * pitch + c0x;
      i32[homew + s] = c;
      i32[cellsw + c]++;
    }
    return large;
  }

  /** Selected entity s goes to the large list at index `at` (as the core's markLarge). */
  private markLarge(homew: number, boxw: number, largew: number, s: number, at: number, x0: number, y0: number, x1: number, y1: number): void {
    const f32 = this.f32, i32 = this.i32;
    i32[homew + s] = -1;
    const o = boxw + (s << 2);
    f32[o] = x0; f32[o + 1] = y0; f32[o + 2] = x1; f32[o + 3] = y1;
    i32[largew + at] = s;
  }

  private prefixSum(ncells: number): void {
    const i32 = this.i32, cellsw = (this.i32[HDR + H_CELLS] >> 2) + 1;
    let run = 0;
    for (let c = cellsw; c < cellsw + ncells; c++) {
      const k = i32[c];
      i32[c] = run;
      run += k;
    }
  }

  private scatterPass(n: number): void {
    const h = this.i32, i32 = this.i32, f32 = this.f32, u8 = this.u8;
    const homew = h[HDR + H_HOME] >> 2, cellsw = (h[HDR + H_CELLS] >> 2) + 1, entw = h[HDR + H_ENTRIES] >> 2;
    const selw = h[HDR + H_SEL] >> 2, kp = h[HDR + H_KIND];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    for (let s = 0; s < n; s++) {
      const c = i32[homew + s];
      if (c < 0) continue;
      const i = i32[selw + s];
      const e = entw + i32[cellsw + c]++ * ENTRY_WORDS;
      i32[e] = i | (u8[kp + i] << KIND_SHIFT);
      f32[e + 1] = f32[xw + i]; f32[e + 2] = f32[yw + i]; f32[e + 3] = f32[aw + i]; f32[e + 4] = f32[bw + i];
      i32[e + 5] = c;
    }
  }

  /** The grid over `mask`: home cells, or with `cover` a reach grid; -1 when that would not fit (as the core's build). */
  buildGrid(count: number, mask: number, cellSize: number, cover = false, cellSizeY = 0, cls = CLASS_ALL): number {
    this.views();
    const h = this.i32, f32 = this.f32;
    this.invalid = 0;
    this.firstInvalid = -1;
    mask = mask | 0;
    const n = this.selectPass(count, mask, cls);
    h[HDR + S_INVALID] = this.invalid;
    h[HDR + S_FIRST_INVALID] = this.firstInvalid;
    h[HDR + G_SELECTED] = n;
    h[HDR + G_MASK] = mask;
    h[HDR + G_COVER] = cover ? 1 : 0;
    this.f32[HDR + G_REACHW] = cover ? this.reachW : 0;
    this.f32[HDR + G_REACHH] = cover ? this.reachH : 0;
    h[HDR + G_SPLIT] = 0; // selfPairs sets it after a split
    if (n === 0) {
      h[HDR + G_COLS] = 0; h[HDR + G_ROWS] = 0; h[HDR + G_ENTRIES] = 0; h[HDR + G_LARGE] = 0;
      return 0;
    }
    if (cover) {
      // Probes look in the cell of their top-left corner only: the grid starts one probe extent earlier.
      this.minX = reachLo(this.minX, this.reachW);
      this.minY = reachLo(this.minY, this.reachH);
      if (!(this.minX > -Infinity && this.minY > -Infinity)) return -1;
    }
    this.chooseShape(n, cellSize, cellSizeY, cover);
    const inv = fround(1 / this.cellSide), invY = fround(1 / this.cellSideY);
    let large = 0, records: number;
    if (cover) {
      records = this.reachPass(n, inv, h[HDR + H_CAPACITY]);
      if (records < 0) return -1;
      this.prefixSum((this.ncols + 1) * (this.nrows + 1));
      this.reachScatter(n);
    } else {
      large = this.homePass(n, inv, invY);
      records = n - large;
      this.prefixSum((this.ncols + 1) * (this.nrows + 1));
      this.scatterPass(n);
    }
    h[HDR + G_COLS] = this.ncols;
    h[HDR + G_ROWS] = this.nrows;
    f32[HDR + G_OX] = this.originX;
    f32[HDR + G_OY] = this.originY;
    f32[HDR + G_MAXX] = this.maxX;
    f32[HDR + G_MAXY] = this.maxY;
    f32[HDR + G_INV] = inv;
    f32[HDR + G_INVY] = invY;
    f32[HDR + G_CELL] = this.cellSide;
    h[HDR + G_ENTRIES] = records;
    h[HDR + G_LARGE] = large;
    return n;
  }

  /** Counts per reached cell (boxes widened by the probe extents), each entity's first cell and reach into H_HOME; the records, or -1 past `most` (as the core's reachPass). */
  private reachPass(n: number, inv: number, most: number): number {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const selw = h[HDR + H_SEL] >> 2, cellsw = (h[HDR + H_CELLS] >> 2) + 1, homew = h[HDR + H_HOME] >> 2;
    const cols = this.ncols, rows = this.nrows, pitch = cols + 1, ox = this.originX, oy = this.originY, w = this.reachW, rh = this.reachH;
    i32.fill(0, cellsw - 1, cellsw + pitch * (rows + 1));
    let records = 0;
    for (let s = 0; s < n; s++) {
      const i = i32[selw + s], k = u8[kp + i];
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const c0x = cellOf(reachLo(boxLo(k, x, a), w), ox, inv, cols), c0y = cellOf(reachLo(boxLo(k, y, a), rh), oy, inv, rows);
      const c1x = cellOf(boxX1(k, x, a), ox, inv, cols), c1y = cellOf(boxY1(k, y, a, b), oy, inv, rows);
      const r = (c1x - c0x + 1) * (c1y - c0y + 1);
      if (r > most - records) return -1;
      records += r;
      const c = c0y * pitch + c0x, o = homew + s * 3;
      i32[o] = c; i32[o + 1] = c1x - c0x; i32[o + 2] = c1y - c0y;
      for (let row = c; row <= c + (c1y - c0y) * pitch; row += pitch) {
        for (let q = row; q <= row + c1x - c0x; q++) i32[cellsw + q]++;
      }
    }
    return records;
  }

  /** A record of each entity in every cell it reaches (reachPass's cells), in selection order (as the core's reachScatter). */
  private reachScatter(n: number): void {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const selw = h[HDR + H_SEL] >> 2, cellsw = (h[HDR + H_CELLS] >> 2) + 1, entw = h[HDR + H_ENTRIES] >> 2;
    const homew = h[HDR + H_HOME] >> 2, pitch = this.ncols + 1;
    for (let s = 0; s < n; s++) {
      const i = i32[selw + s], tag = i | (u8[kp + i] << KIND_SHIFT);
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const o = homew + s * 3, c = i32[o], dx = i32[o + 1], dy = i32[o + 2];
      for (let row = c; row <= c + dy * pitch; row += pitch) {
        for (let q = row; q <= row + dx; q++) {
          const e = entw + i32[cellsw + q]++ * ENTRY_WORDS;
          i32[e] = tag;
          f32[e + 1] = x; f32[e + 2] = y; f32[e + 3] = a; f32[e + 4] = b;
          i32[e + 5] = q;
        }
      }
    }
  }

  private beginCall(): void {
    this.views();
    this.aabbTests = 0;
    this.narrowTests = 0;
    this.cellsVisited = 0;
    this.found = 0;
  }

  private endCall(): void {
    const h = this.i32;
    h[HDR + S_AABB_TESTS] = this.aabbTests;
    h[HDR + S_NARROW_TESTS] = this.narrowTests;
    h[HDR + S_CELLS_VISITED] = this.cellsVisited;
    h[HDR + S_FOUND] = this.found;
  }

  private emitPair(pairw: number, cap: number, a: number, b: number): void {
    if (this.found < cap) {
      const o = pairw + (this.found << 1);
      this.i32[o] = a;
      this.i32[o + 1] = b;
    }
    this.found++;
  }

  /**
   * The shape (ki, xi..bi) of slot i, box x0..y1, against entry records [from, to); emits (lo, hi)
   * slot pairs. With `sorted` (records sorted by box left edge) the walk stops at the first record
   * starting right of x1 (as the core).
   */
  private pairsAgainst(
    i: number, ki: number, xi: number, yi: number, ai: number, bi: number,
    x0: number, y0: number, x1: number, y1: number, entw: number, from: number, to: number, pairw: number, cap: number,
    sorted: boolean,
  ): void {
    const f32 = this.f32, i32 = this.i32;
    if (!sorted) this.aabbTests += to - from;
    for (let q = from; q < to; q++) {
      const f = entw + q * ENTRY_WORDS;
      const tag = i32[f], k = tag >>> KIND_SHIFT;
      const x = f32[f + 1], y = f32[f + 2], a = f32[f + 3], b = f32[f + 4];
      if (sorted) {
        if (boxLo(k, x, a) > x1) break;
        this.aabbTests++;
      }
      if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
      this.narrowTests++;
      if (overlapShapes(ki, xi, yi, ai, bi, k, x, y, a, b)) {
        const j = tag & TAG_SLOT;
        this.emitPair(pairw, cap, i < j ? i : j, i < j ? j : i);
      }
    }
  }

  /** Sorts each cell's entry records by box left edge: the core's stable insertion sort. */
  private sortCellsByLeft(cellsw: number, entw: number, ncells: number): void {
    const i32 = this.i32, f32 = this.f32;
    let from = 0;
    for (let c = 0; c < ncells; c++) {
      const to = i32[cellsw + c];
      for (let p = from + 1; p < to; p++) {
        const e = entw + p * ENTRY_WORDS;
        const tag = i32[e], x = f32[e + 1], y = f32[e + 2], a = f32[e + 3], b = f32[e + 4], cell = i32[e + 5];
        const key = boxLo(tag >>> KIND_SHIFT, x, a);
        let q = p;
        while (q > from) {
          const f = entw + (q - 1) * ENTRY_WORDS;
          if (!(boxLo(i32[f] >>> KIND_SHIFT, f32[f + 1], f32[f + 3]) > key)) break;
          i32.copyWithin(f + ENTRY_WORDS, f, f + ENTRY_WORDS);
          q--;
        }
        if (q === p) continue;
        const g = entw + q * ENTRY_WORDS;
        i32[g] = tag; f32[g + 1] = x; f32[g + 2] = y; f32[g + 3] = a; f32[g + 4] = b; i32[g + 5] = cell;
      }
      from = to;
    }
  }

  /** Slot i (box x0..y1) against large-list entries [from, to); emits (lo, hi) slot pairs. */
  /** Sorts the large list by box left edge: the core's Shell sort, same gaps, same comparisons. */
  private sortLargeByLeft(large: number): void {
    const h = this.i32, f32 = this.f32, i32 = this.i32;
    const largew = h[HDR + H_LARGE] >> 2, boxw = h[HDR + H_BOX] >> 2;
    for (let g = 0; g < SHELL_GAPS.length; g++) {
      const gap = SHELL_GAPS[g];
      if (gap >= large) continue;
      for (let k = gap; k < large; k++) {
        const t = i32[largew + k];
        const key = f32[boxw + (t << 2)];
        let q = k;
        while (q >= gap) {
          const u = i32[largew + q - gap];
          if (!(f32[boxw + (u << 2)] > key)) break;
          i32[largew + q] = u;
          q -= gap;
        }
        i32[largew + q] = t;
      }
    }
  }

  /** Tests slot i against large-list entries [from, to), sorted by left edge: stops at the first starting right of the box. */
  private largePairs(i: number, x0: number, y0: number, x1: number, y1: number, from: number, to: number): void {
    const h = this.i32, f32 = this.f32, i32 = this.i32;
    const largew = h[HDR + H_LARGE] >> 2, boxw = h[HDR + H_BOX] >> 2, selw = h[HDR + H_SEL] >> 2;
    const pairw = h[HDR + H_PAIRS] >> 2, cap = h[HDR + H_PAIRS_CAP];
    for (let q = from; q < to; q++) {
      const t = i32[largew + q];
      const f = boxw + (t << 2);
      this.aabbTests++;
      if (x1 < f32[f]) break;
      if (x0 > f32[f + 2] || y1 < f32[f + 1] || y0 > f32[f + 3]) continue;
      const j = i32[selw + t];
      this.narrowTests++;
      if (this.overlapSlots(i, j)) this.emitPair(pairw, cap, i < j ? i : j, i < j ? j : i);
    }
  }

  selfPairs(count: number, mask: number, cellSize: number): number {
    this.beginCall();
    const h = this.i32;
    mask = mask | 0;
    // Nearly all boxes thin: a grid of wide cells for the wide ones, of tall cells for the tall
    // ones, the wide boxes (in their grid's order) probing the tall grid (as the core).
    if (cellSize <= 0 && this.lastCrowded && --this.splitRetry <= 0) {
      this.splitRetry = SPLIT_RETRY;
      if (this.splitPays(count, mask)) {
        const wide = this.buildGrid(count, mask, this.wideX, false, this.wideY, CLASS_WIDE);
        if (wide > 0) this.walkGrid();
        this.probeOrder(wide);
        const tall = this.buildGrid(count, mask, this.tallX, false, this.tallY, CLASS_TALL);
        if (h[HDR + G_LARGE] <= SPLIT_LARGE) {
          this.splitRetry = 0;
          if (tall > 0) {
            this.walkGrid();
            this.probeSplit(wide);
          }
          h[HDR + G_SELECTED] = tall + wide;
          h[HDR + G_MASK] = 0;
          h[HDR + G_SPLIT] = 1;
          this.endCall();
          return this.found;
        }
        this.beginCall();
      }
    }
    const n = this.buildGrid(count, mask, cellSize);
    if (n === 0) { this.lastCrowded = false; this.endCall(); return 0; }
    this.lastCrowded = this.walkGrid();
    this.endCall();
    return this.found;
  }

  /** Whether selfPairs should split, and the split grids' cell sizes (as the core's splitPays). */
  private splitPays(count: number, mask: number): boolean {
    const h = this.i32, f32 = this.f32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const step = Math.max(1, count >> 10);
    let live = 0, thin = 0, wx = 0, wy = 0, tx = 0, ty = 0;
    for (let i = 0; i < count; i += step) {
      const k = u8[kp + i];
      if ((h[gw + i] & mask) === 0 || k === KIND_NONE) continue;
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
      if (!boxOk(k, a, b, x0, y0, x1, y1)) continue;
      const dx = fround(x1 - x0), dy = fround(y1 - y0);
      live++;
      if (dx >= dy) {
        if (dx >= fround(dy * SPLIT_THIN) && dx > 0) thin++;
        if (dx > wx) wx = dx;
        if (dy > wy) wy = dy;
      } else {
        if (dy >= fround(dx * SPLIT_THIN)) thin++;
        if (dx > tx) tx = dx;
        if (dy > ty) ty = dy;
      }
    }
    if (live < 64 || thin < live - (live >> 5)) return false;
    this.wideX = pow2Above(wx); this.wideY = pow2Above(Math.max(wy, fround(wx / 64)));
    this.tallY = pow2Above(ty); this.tallX = pow2Above(Math.max(tx, fround(ty / 64)));
    return true;
  }

  /** The wide grid's tags and shapes in its order, at the ends of H_SEL and H_BOX (as the core's probeOrder). */
  private probeOrder(n: number): void {
    const h = this.i32, i32 = this.i32, f32 = this.f32, u8 = this.u8;
    const capacity = h[HDR + H_CAPACITY];
    const tagw = (h[HDR + H_SEL] >> 2) + capacity - n, shapew = (h[HDR + H_BOX] >> 2) + ((capacity - n) << 2);
    const entw = h[HDR + H_ENTRIES] >> 2, small = h[HDR + G_ENTRIES], largew = h[HDR + H_LARGE] >> 2, selw = h[HDR + H_SEL] >> 2;
    const kp = h[HDR + H_KIND], xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    for (let k = 0; k < n - small; k++) i32[largew + k] = i32[selw + i32[largew + k]];
    for (let p = 0; p < small; p++) {
      const e = entw + p * ENTRY_WORDS, o = shapew + (p << 2);
      i32[tagw + p] = i32[e];
      f32[o] = f32[e + 1]; f32[o + 1] = f32[e + 2]; f32[o + 2] = f32[e + 3]; f32[o + 3] = f32[e + 4];
    }
    for (let k = small; k < n; k++) {
      const i = i32[largew + k - small], o = shapew + (k << 2);
      i32[tagw + k] = i | (u8[kp + i] << KIND_SHIFT);
      f32[o] = f32[xw + i]; f32[o + 1] = f32[yw + i]; f32[o + 2] = f32[aw + i]; f32[o + 3] = f32[bw + i];
    }
  }

  /** The wide boxes (probeOrder's lists) against the tall grid: scanCells per box (as the core's probeSplit). */
  private probeSplit(n: number): void {
    const h = this.i32, i32 = this.i32, f32 = this.f32;
    const capacity = h[HDR + H_CAPACITY];
    const tagw = (h[HDR + H_SEL] >> 2) + capacity - n, shapew = (h[HDR + H_BOX] >> 2) + ((capacity - n) << 2);
    for (let t = 0; t < n; t++) {
      const tag = i32[tagw + t], k = tag >>> KIND_SHIFT, o = shapew + (t << 2);
      const x = f32[o], y = f32[o + 1], a = f32[o + 2], b = f32[o + 3];
      this.bx0 = boxLo(k, x, a); this.by0 = boxLo(k, y, a); this.bx1 = boxX1(k, x, a); this.by1 = boxY1(k, y, a, b);
      this.scanCells(tag & TAG_SLOT, -1, MODE_SELF, 0, false, false);
    }
  }

  /** The pairs of the grid just built; returns whether it was crowded (as the core's walkGrid). */
  private walkGrid(): boolean {
    const h = this.i32, f32 = this.f32, i32 = this.i32;
    const cols = this.ncols, rows = this.nrows, pitch = cols + 1, small = h[HDR + G_ENTRIES];
    const cellsw = (h[HDR + H_CELLS] >> 2) + 1, entw = h[HDR + H_ENTRIES] >> 2;
    const boxw = h[HDR + H_BOX] >> 2, selw = h[HDR + H_SEL] >> 2;
    const pairw = h[HDR + H_PAIRS] >> 2, cap = h[HDR + H_PAIRS_CAP];
    // Over the entries, not the cells, with the padded cell table; crowded cells sorted by left
    // edge and their walks cut short (as the core).
    const crowded = small > cols * rows * CROWDED;
    if (crowded) this.sortCellsByLeft(cellsw, entw, (rows + 1) * pitch);
    for (let p = 0; p < small; p++) {
      const e = entw + p * ENTRY_WORDS;
      const tag = i32[e], i = tag & TAG_SLOT, k = tag >>> KIND_SHIFT;
      const x = f32[e + 1], y = f32[e + 2], a = f32[e + 3], b = f32[e + 4], c = i32[e + 5];
      const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
      const east = i32[cellsw + c + 1], below0 = i32[cellsw + c + pitch - 2], below1 = i32[cellsw + c + pitch + 1];
      if (crowded) {
        const end = i32[cellsw + c], s0 = i32[cellsw + c + pitch - 1], s1 = i32[cellsw + c + pitch];
        this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, p + 1, end, pairw, cap, true);
        this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, end, east, pairw, cap, true);
        this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, below0, s0, pairw, cap, true);
        this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, s0, s1, pairw, cap, true);
        this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, s1, below1, pairw, cap, true);
        continue;
      }
      this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, p + 1, east, pairw, cap, false);
      this.pairsAgainst(i, k, x, y, a, b, x0, y0, x1, y1, entw, below0, below1, pairw, cap, false);
    }
    this.cellsVisited += cols * rows;
    // Large against small and against each other, by sort and sweep on the left edge (as the core).
    const large = h[HDR + G_LARGE], largew = h[HDR + H_LARGE] >> 2;
    this.sortLargeByLeft(large);
    for (let k = 0; k < large; k++) {
      const s = i32[largew + k];
      const o = boxw + (s << 2);
      this.bx0 = f32[o]; this.by0 = f32[o + 1]; this.bx1 = f32[o + 2]; this.by1 = f32[o + 3];
      const i = i32[selw + s];
      this.scanCells(i, -1, MODE_SELF, 0, false, true);
      this.largePairs(i, this.bx0, this.by0, this.bx1, this.by1, k + 1, large);
    }
    return crowded;
  }

  private scanCells(self: number, skip: number, mode: number, mask: number, exclusive: boolean, smallOnly: boolean): number {
    const h = this.i32, f32 = this.f32, i32 = this.i32;
    const cols = h[HDR + G_COLS], rows = h[HDR + G_ROWS];
    const ox = f32[HDR + G_OX], oy = f32[HDR + G_OY], inv = f32[HDR + G_INV], invY = f32[HDR + G_INVY];
    const x0 = this.bx0, y0 = this.by0, x1 = this.bx1, y1 = this.by1;
    if (cols === 0 || x1 < ox || y1 < oy || x0 > f32[HDR + G_MAXX] || y0 > f32[HDR + G_MAXY]) return NO_SLOT;
    // A reach grid lists each entity wherever it reaches: no look-back, a pair counted once (pairCell).
    const cover = h[HDR + G_COVER] !== 0, back = cover ? 0 : 1;
    const c0x = Math.max(cellOf(x0, ox, inv, cols) - back, 0), c0y = Math.max(cellOf(y0, oy, invY, rows) - back, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
    const spans = cover && (c1x !== c0x || c1y !== c0y);
    const cellsw = (h[HDR + H_CELLS] >> 2) + 1, entw = h[HDR + H_ENTRIES] >> 2, pitch = cols + 1;
    const boxw = h[HDR + H_BOX] >> 2, selw = h[HDR + H_SEL] >> 2;
    const pairw = h[HDR + H_PAIRS] >> 2, cap = h[HDR + H_PAIRS_CAP], resw = h[HDR + H_RESULTS] >> 2;
    const sk = this.u8[h[HDR + H_KIND] + self];
    const sx = f32[(h[HDR + H_X] >> 2) + self], sy = f32[(h[HDR + H_Y] >> 2) + self];
    const sa = f32[(h[HDR + H_A] >> 2) + self], sb = f32[(h[HDR + H_B] >> 2) + self];
    let best = NO_SLOT;
    for (let cy = c0y; cy <= c1y; cy++) {
      const row = cy * pitch;
      const from = i32[cellsw + row + c0x - 1], to = i32[cellsw + row + c1x];
      this.cellsVisited += c1x - c0x + 1;
      for (let p = from; p < to; p++) {
        const f = entw + p * ENTRY_WORDS;
        const tag = i32[f], j = tag & TAG_SLOT;
        if (mode === MODE_FIRST && j >= best) continue;
        if (j === skip) continue;
        const k = tag >>> KIND_SHIFT;
        const x = f32[f + 1], y = f32[f + 2], a = f32[f + 3], b = f32[f + 4];
        this.aabbTests++;
        if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
        if (spans && !pairCell(k, x, y, a, x0, y0, ox, oy, inv, cols, rows, i32[f + 5])) continue;
        if (!this.eligible(j, mode, mask, exclusive)) continue;
        this.narrowTests++;
        if (!overlapShapes(sk, sx, sy, sa, sb, k, x, y, a, b)) continue;
        if (mode === MODE_FIRST) best = j;
        else if (mode === MODE_RESULTS) { i32[resw + this.found] = j; this.found++; }
        else if (mode === MODE_PAIRS) this.emitPair(pairw, cap, self, j);
        else if (mode === MODE_PAIRS_REV) this.emitPair(pairw, cap, j, self);
        else this.emitPair(pairw, cap, self < j ? self : j, self < j ? j : self);
      }
    }
    if (smallOnly) return best;
    const large = h[HDR + G_LARGE], largew = h[HDR + H_LARGE] >> 2;
    for (let k = 0; k < large; k++) {
      const t = i32[largew + k];
      const j = i32[selw + t];
      if (mode === MODE_FIRST && j >= best) break;
      if (j === skip) continue;
      const f = boxw + (t << 2);
      this.aabbTests++;
      if (x1 < f32[f] || x0 > f32[f + 2] || y1 < f32[f + 1] || y0 > f32[f + 3]) continue;
      if (!this.eligible(j, mode, mask, exclusive)) continue;
      this.narrowTests++;
      if (!this.overlapSlots(self, j)) continue;
      if (mode === MODE_FIRST) best = j;
      else if (mode === MODE_RESULTS) { i32[resw + this.found] = j; this.found++; }
      else if (mode === MODE_PAIRS_REV) this.emitPair(pairw, cap, j, self);
      else if (mode === MODE_SELF) this.emitPair(pairw, cap, self < j ? self : j, self < j ? j : self);
      else this.emitPair(pairw, cap, self, j);
    }
    return best;
  }

  private eligible(j: number, mode: number, mask: number, exclusive: boolean): boolean {
    const h = this.i32;
    if (mode === MODE_FIRST && exclusive && (this.u8[h[HDR + H_FLAGS] + j] & FLAG_HIT)) return false;
    if (mode === MODE_RESULTS && (h[(h[HDR + H_GROUPS] >> 2) + j] & mask) === 0) return false;
    return true;
  }

  /** Live slots in maskB after the last liveInBoth. */
  private liveB = 0;

  /** Live slots in maskA (returned) and in maskB (into liveB), in one pass, as the core's liveInBoth. */
  private liveInBoth(count: number, maskA: number, maskB: number): number {
    const h = this.i32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    let na = 0, nb = 0;
    for (let i = 0; i < count; i++) {
      if (u8[kp + i] === KIND_NONE) continue;
      const g = i32[gw + i];
      if ((g & maskA) !== 0) na++;
      if ((g & maskB) !== 0) nb++;
    }
    this.liveB = nb;
    return na;
  }

  /** crossPairs with the grid over maskA, each maskB entity (in slot order) probing it: emits (a, b). */
  private crossPairsProbingB(count: number, maskA: number, maskB: number, cellSize: number): number {
    this.buildGrid(count, maskA, cellSize);
    const h = this.i32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    for (let i = 0; i < count; i++) {
      if ((i32[gw + i] & maskB) === 0 || u8[kp + i] === KIND_NONE) continue;
      if (!this.entityBox(i, kp, xw, yw, aw, bw)) { this.noteInvalid(i); continue; }
      this.scanCells(i, i, MODE_PAIRS_REV, 0, false, false);
    }
    h[HDR + S_INVALID] = this.invalid;
    h[HDR + S_FIRST_INVALID] = this.firstInvalid;
    this.endCall();
    return this.found;
  }

  crossPairs(count: number, maskA: number, maskB: number, cellSize: number): number {
    maskA = maskA | 0;
    maskB = maskB | 0;
    if (this.lastIndexA >= 0 && this.lastMaskA === maskA && this.lastMaskB === maskB) {
      const found = this.crossAgain(count, maskA, maskB, cellSize);
      if (found >= 0) return found;
    }
    this.lastIndexA = -1;
    this.beginCall();
    const na = this.liveInBoth(count, maskA, maskB), nb = this.liveB;
    // A reach grid of the smaller side probed by the larger when it fits, else a home grid of the
    // larger side (as the core).
    // The grid is widened by the last call's probe extents (same mask); a probe that grew past
    // them starts the call over (as the core).
    const indexA = na < nb, probeMask = indexA ? maskB : maskA;
    let known = this.lastW >= 0 && this.lastMask === probeMask;
    this.reachW = this.lastW;
    this.reachH = this.lastH;
    this.lastW = -1;
    if (Math.min(na, nb) * COVER_RECORDS <= this.i32[HDR + H_CAPACITY]) {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (!known && !this.probeExtent(count, probeMask)) break;
        if (this.buildGrid(count, indexA ? maskA : maskB, cellSize, true) < 0) {
          if (!known) break;
          known = false;
          continue;
        }
        this.probeReach(count, probeMask, indexA);
        if (this.seenW <= this.reachW && this.seenH <= this.reachH) {
          this.lastMask = probeMask;
          this.lastW = this.seenW;
          this.lastH = this.seenH;
          this.lastIndexA = indexA ? 1 : 0;
          this.lastMaskA = maskA;
          this.lastMaskB = maskB;
          return this.endCross();
        }
        this.beginCall();
        if (!(this.seenW < Infinity && this.seenH < Infinity)) break;
        this.reachW = this.seenW;
        this.reachH = this.seenH;
        known = true;
      }
    }
    if (na > nb * 2) return this.crossPairsProbingB(count, maskA, maskB, cellSize);
    this.buildGrid(count, maskB, cellSize);
    const h = this.i32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    for (let i = 0; i < count; i++) {
      if ((i32[gw + i] & maskA) === 0 || u8[kp + i] === KIND_NONE) continue;
      if (!this.entityBox(i, kp, xw, yw, aw, bw)) { this.noteInvalid(i); continue; }
      this.scanCells(i, i, MODE_PAIRS, 0, false, false);
    }
    return this.endCross();
  }

  /**
   * The core's crossAgain: the last call's side and widening, without counting both sides first;
   * the pass counts must still make the indexed side the smaller and no probe may have grown.
   * Returns the pairs, or -1 when the call must start over.
   */
  private crossAgain(count: number, maskA: number, maskB: number, cellSize: number): number {
    const indexA = this.lastIndexA === 1, probeMask = indexA ? maskB : maskA;
    if (this.lastW < 0 || this.lastMask !== probeMask) return -1;
    this.beginCall();
    this.reachW = this.lastW;
    this.reachH = this.lastH;
    const n = this.buildGrid(count, indexA ? maskA : maskB, cellSize, true);
    if (n <= 0) return -1;
    const indexed = n + this.invalid;
    if (indexed * COVER_RECORDS > this.i32[HDR + H_CAPACITY]) return -1;
    this.probeReach(count, probeMask, indexA);
    if (!(this.seenW <= this.reachW && this.seenH <= this.reachH)) return -1;
    if (indexA ? indexed >= this.probesLive : this.probesLive < indexed) return -1;
    this.lastW = this.seenW;
    this.lastH = this.seenH;
    return this.endCross();
  }

  private endCross(): number {
    const h = this.i32;
    h[HDR + S_INVALID] = this.invalid;
    h[HDR + S_FIRST_INVALID] = this.firstInvalid;
    this.endCall();
    return this.found;
  }

  /** The largest box width and height among the live slots in `mask` with valid boxes; false when one is not finite (as the core's probeExtent). */
  private probeExtent(count: number, mask: number): boolean {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    let w = 0, rh = 0;
    for (let i = 0; i < count; i++) {
      const k = u8[kp + i];
      if ((i32[gw + i] & mask) === 0 || k === KIND_NONE) continue;
      const x = f32[xw + i], y = f32[yw + i], a = f32[aw + i], b = f32[bw + i];
      const x0 = boxLo(k, x, a), y0 = boxLo(k, y, a), x1 = boxX1(k, x, a), y1 = boxY1(k, y, a, b);
      if (!boxOk(k, a, b, x0, y0, x1, y1)) continue;
      const dx = fround(x1 - x0), dy = fround(y1 - y0);
      if (dx > w) w = dx;
      if (dy > rh) rh = dy;
    }
    this.reachW = w;
    this.reachH = rh;
    return w < Infinity && rh < Infinity;
  }

  /**
   * The core's probeReach: each live slot in `mask`, in slot order, tests the records of the one
   * cell holding its box's top-left corner, in record order (the core's SIMD build lists the
   * probes first; pairs, order and counts are the same).
   */
  private probeReach(count: number, mask: number, rev: boolean): void {
    const h = this.i32, f32 = this.f32, i32 = this.i32, u8 = this.u8;
    const cols = h[HDR + G_COLS], rows = h[HDR + G_ROWS], pitch = cols + 1;
    this.seenW = 0;
    this.seenH = 0;
    this.probesLive = 0;
    if (cols === 0) return;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const ox = f32[HDR + G_OX], oy = f32[HDR + G_OY], inv = f32[HDR + G_INV], gx1 = f32[HDR + G_MAXX], gy1 = f32[HDR + G_MAXY];
    const cellsw = (h[HDR + H_CELLS] >> 2) + 1, entw = h[HDR + H_ENTRIES] >> 2;
    const pairw = h[HDR + H_PAIRS] >> 2, cap = h[HDR + H_PAIRS_CAP];
    let visited = 0, tests = 0, w = 0, rh = 0, live = 0;
    for (let i = 0; i < count; i++) {
      const ki = u8[kp + i];
      if ((i32[gw + i] & mask) === 0 || ki === KIND_NONE) continue;
      live++;
      const xi = f32[xw + i], yi = f32[yw + i], ai = f32[aw + i], bi = f32[bw + i];
      const x0 = boxLo(ki, xi, ai), y0 = boxLo(ki, yi, ai), x1 = boxX1(ki, xi, ai), y1 = boxY1(ki, yi, ai, bi);
      if (!boxOk(ki, ai, bi, x0, y0, x1, y1)) { this.noteInvalid(i); continue; }
      const dx = fround(x1 - x0), dy = fround(y1 - y0);
      if (dx > w) w = dx;
      if (dy > rh) rh = dy;
      if (x0 < ox || y0 < oy || x0 > gx1 || y0 > gy1) continue;
      visited++;
      const c = cellOf(y0, oy, inv, rows) * pitch + cellOf(x0, ox, inv, cols);
      const from = i32[cellsw + c - 1], to = i32[cellsw + c];
      tests += to - from;
      for (let q = from; q < to; q++) {
        const f = entw + q * ENTRY_WORDS;
        const tag = i32[f], k = tag >>> KIND_SHIFT, j = tag & TAG_SLOT;
        const x = f32[f + 1], y = f32[f + 2], a = f32[f + 3], b = f32[f + 4];
        if (!recordOverlaps(k, x, y, a, b, x0, y0, x1, y1)) continue;
        if (j === i) { tests--; continue; }
        this.narrowTests++;
        if (!overlapShapes(ki, xi, yi, ai, bi, k, x, y, a, b)) continue;
        if (rev) this.emitPair(pairw, cap, j, i);
        else this.emitPair(pairw, cap, i, j);
      }
    }
    this.cellsVisited += visited;
    this.aabbTests += tests;
    this.seenW = w;
    this.seenH = rh;
    this.probesLive = live;
  }

  firstHits(count: number, maskA: number, maskB: number, cellSize: number, exclusive: boolean): number {
    this.beginCall();
    this.buildGrid(count, maskB, cellSize);
    const h = this.i32, i32 = this.i32, u8 = this.u8;
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2, flagp = h[HDR + H_FLAGS];
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    const pairw = h[HDR + H_PAIRS] >> 2, cap = h[HDR + H_PAIRS_CAP];
    u8.fill(0, flagp, flagp + count);
    maskA = maskA | 0;
    for (let i = 0; i < count; i++) {
      if ((i32[gw + i] & maskA) === 0 || u8[kp + i] === KIND_NONE) continue;
      if (!this.entityBox(i, kp, xw, yw, aw, bw)) { this.noteInvalid(i); continue; }
      const best = this.scanCells(i, i, MODE_FIRST, 0, exclusive, false);
      if (best === NO_SLOT) continue;
      u8[flagp + i] |= FLAG_STOPPED;
      u8[flagp + best] |= FLAG_HIT;
      this.emitPair(pairw, cap, i, best);
    }
    h[HDR + S_INVALID] = this.invalid;
    h[HDR + S_FIRST_INVALID] = this.firstInvalid;
    this.endCall();
    return this.found;
  }

  queryProbe(count: number, mask: number, useGrid: boolean, exclude: number): number {
    this.beginCall();
    const h = this.i32, i32 = this.i32, u8 = this.u8;
    const probe = h[HDR + H_CAPACITY];
    const kp = h[HDR + H_KIND], gw = h[HDR + H_GROUPS] >> 2;
    const xw = h[HDR + H_X] >> 2, yw = h[HDR + H_Y] >> 2, aw = h[HDR + H_A] >> 2, bw = h[HDR + H_B] >> 2;
    mask = mask | 0;
    if (!this.entityBox(probe, kp, xw, yw, aw, bw)) { this.endCall(); return 0; }
    if (useGrid) {
      this.scanCells(probe, exclude, MODE_RESULTS, mask, false, false);
    } else {
      const resw = h[HDR + H_RESULTS] >> 2;
      const x0 = this.bx0, y0 = this.by0, x1 = this.bx1, y1 = this.by1;
      for (let j = 0; j < count; j++) {
        if ((i32[gw + j] & mask) === 0 || u8[kp + j] === KIND_NONE || j === exclude) continue;
        if (!this.entityBox(j, kp, xw, yw, aw, bw)) continue;
        this.aabbTests++;
        if (x1 < this.bx0 || x0 > this.bx1 || y1 < this.by0 || y0 > this.by1) continue;
        this.narrowTests++;
        if (this.overlapSlots(probe, j)) { i32[resw + this.found] = j; this.found++; }
      }
    }
    this.endCall();
    return this.found;
  }

  setPositions(n: number): number {
    this.positionViews(n);
    const bad = firstOutOfRange(this.stageX, this.stageY, n);
    if (bad >= 0) return bad;
    // TypedArray.set converts f64 to f32 faster than a loop in V8 (about 0.75 ns a number, where a
    // loop over views passed in took 2).
    this.storeX.set(this.stageX);
    this.storeY.set(this.stageY);
    return -1;
  }

  /**
   * setPositions' views: the first n staged f64s of x and y, and the x and y stores, made again
   * when the memory, the layout or n has changed (a game passes the same length frame after frame).
   */
  private positionViews(n: number): void {
    this.views();
    const h = this.i32, xs = h[HDR + H_PLANES], xw = h[HDR + H_X], stage = h[HDR + H_CAPACITY] + PLANE_SLACK;
    if (this.stageX.buffer === this.buffer && this.stageX.byteOffset === xs && this.stageX.length === n && this.storeX.byteOffset === xw) return;
    this.stageX = new Float64Array(this.buffer!, xs, n);
    this.stageY = new Float64Array(this.buffer!, xs + 8 * stage, n);
    this.storeX = new Float32Array(this.buffer!, xw, n);
    this.storeY = new Float32Array(this.buffer!, h[HDR + H_Y], n);
  }
}

/** The first index whose x or y is not a finite number of magnitude at most MAX_COORD, or -1. */
function firstOutOfRange(xs: Float64Array, ys: Float64Array, n: number): number {
  for (let i = 0; i < n; i++) {
    if (!(Math.abs(xs[i]) <= MAX_COORD && Math.abs(ys[i]) <= MAX_COORD)) return i;
  }
  return -1;
}

// The core's box arithmetic (assembly/bucket_grid.ts): point (x, y, x, y), circle (x - a, y - a,
// x + a, y + a), rect (x, y, x + a, y + b), each coordinate rounded to f32 as the core computes it.
/** The power of two above v (the upper bound of its f32 exponent bucket), as the core's pow2Above. */
function pow2Above(v: number): number {
  bitsF32[0] = v;
  return Math.pow(2, Math.min((bitsU32[0] >>> 23) + 1, 254) - 127);
}

function boxLo(k: number, v: number, a: number): number {
  return fround(v - (k === KIND_CIRCLE ? a : 0));
}
function boxX1(k: number, x: number, a: number): number {
  return fround(x + (k >= KIND_CIRCLE ? a : 0));
}
function boxY1(k: number, y: number, a: number, b: number): number {
  return fround(y + (k === KIND_RECT ? b : k === KIND_CIRCLE ? a : 0));
}

/** Sizes not negative and the box finite, as the core's boxOk. */
function boxOk(k: number, a: number, b: number, x0: number, y0: number, x1: number, y1: number): boolean {
  return (k >= KIND_CIRCLE ? a : 0) >= 0 && (k === KIND_RECT ? b : 0) >= 0 &&
    (x0 - x0) + (y0 - y0) + (x1 - x1) + (y1 - y1) === 0;
}

/** Whether the box of entry record (k, x, y, a, b) overlaps x0..y1, edges touching included. */
function recordOverlaps(k: number, x: number, y: number, a: number, b: number, x0: number, y0: number, x1: number, y1: number): boolean {
  return x1 >= boxLo(k, x, a) && boxX1(k, x, a) >= x0 && y1 >= boxLo(k, y, a) && boxY1(k, y, a, b) >= y0;
}

/** Cell column (or row) of v, clamped into the grid; compared as a float first, so huge and NaN values clamp too. */
function cellOf(v: number, origin: number, inv: number, n: number): number {
  const t = fround(fround(v - origin) * inv); // f32 arithmetic, as the core's: a cell boundary is the same float
  return t < 1 ? 0 : (t >= n ? n - 1 : t | 0);
}

/** The least m * 2^(e - 4) (m in 16..32) at or above v >= 1e-30: sixteen steps an octave (as the core's sizeStep, which reads e from v's bits). */
function sizeStep(v: number): number {
  let e = Math.floor(Math.log2(v));
  if (2 ** e > v) e--; // log2 may round across a power of two
  else if (2 ** (e + 1) <= v) e++;
  const unit = 2 ** (e - 4);
  return Math.ceil(v / unit) * unit;
}

/** The grid's origin on one axis: a home grid's snapped down to a multiple of its cell side, never above lo; a reach grid's lo (as the core's originOf). */
function originOf(lo: number, side: number, cover: boolean): number {
  if (cover) return lo;
  const o = fround(Math.floor(lo / side) * side);
  return o <= lo ? o : lo;
}

/** v moved left (or up) by extent `ext` and a margin for f32 rounding, rounded once (as the core's reachLo). */
function reachLo(v: number, ext: number): number {
  const lo = v - ext * (1 + 1 / 1048576);
  return fround(lo - Math.abs(lo) * (1 / 4194304));
}

/** In a reach grid, whether cell `cell` holds the top-left corner of the two boxes' intersection (as the core's pairCell). */
function pairCell(k: number, x: number, y: number, a: number, x0: number, y0: number, ox: number, oy: number, inv: number, cols: number, rows: number, cell: number): boolean {
  const px = Math.max(x0, boxLo(k, x, a)), py = Math.max(y0, boxLo(k, y, a));
  return cellOf(py, oy, inv, rows) * (cols + 1) + cellOf(px, ox, inv, cols) === cell;
}
