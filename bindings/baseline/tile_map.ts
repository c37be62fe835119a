// The pure-TS baseline of assembly/tile_map.ts: the same functions, the same f64 arithmetic in the
// same order, over typed-array views of the same layout (layout/tiles.ts), so both
// backends give bit-identical results. Read the wasm file for the why of each step.
import { TILES_HEADER, BASELINE_ARENA_BASE } from "../../layout/grid.js";
import {
  BOX_FIELDS, CELL_COIN, CELL_MONSTER_NEAR, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE, CONTACT_DOWN, CONTACT_LEFT,
  CONTACT_RIGHT, CONTACT_UP, EDGE_EPS_DEN, EDGE_EPS_NUM, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER,
  HIT_ONE_WAY, HIT_SPIKE, NO_MONSTER, OUTSIDE, P_COIN_W, P_TILE, S_T_CELLS_VISITED, S_T_MONSTER_TESTS,
  T_BOX_HITS, T_BOXES, T_CELLS, T_COLS, T_ENT_X, T_ENT_Y, T_FLOOR, T_MON_BOX, T_MON_HEAD, T_MON_NEXT,
  T_OUT_CELL, T_OUT_HITS, T_OUT_MONSTER, T_PARAMS, T_POINT_COUNT, T_POINTS, T_ROWS, T_WRAP,
} from "../../layout/tiles.js";

const TH = TILES_HEADER >> 2;
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/** Whether v is an exact power of two (a zero mantissa), so v * (1 / v) divides exactly. */
function isPowerOfTwo(v: number): boolean {
  bits[0] = v;
  return v > 0 && words[0] === 0 && (words[1] & 0xfffff) === 0 && (1 / v) * v === 1;
}

/** The tile map's loops in TS over a WebAssembly.Memory of its own. */
export class BaselineTileMap {
  readonly memory: WebAssembly.Memory;
  private buffer: ArrayBuffer | null = null;
  protected f64 = new Float64Array(0);
  protected i32 = new Int32Array(0);
  protected u8 = new Uint8Array(0);

  protected cols = 0;
  protected rows = 0;
  protected wrap = false;
  protected floorSolid = false;
  protected cells = 0; // byte offset
  protected monHead = 0; // i32 index
  protected monNext = 0; // i32 index
  protected monBox = 0; // f64 index
  protected tile = 1;
  protected tileInv = 0; // 1 / tile when exact (a power of two), else 0
  protected width = 1;
  protected coinHalf = 0;
  protected eps = 0;
  protected cellsVisited = 0;
  protected monsterTests = 0;

  protected lastCol = 0;
  protected lastRow = 0;
  protected lastCell = 0;
  protected lastMonster = 0;
  private contact = 0;
  protected qx = 0;
  protected qy = 0;
  // Where the last sweep ended: a field, because a double returned from a call that V8 does not
  // inline is boxed on the heap each time.
  private moved = 0;

  constructor(memory: WebAssembly.Memory) {
    this.memory = memory;
  }

  arenaBase(): number {
    return BASELINE_ARENA_BASE;
  }

  protected th(field: number): number {
    return this.i32[TH + field];
  }

  protected param(p: number): number {
    return this.f64[(this.i32[TH + T_PARAMS] >> 3) + p];
  }

  protected loadMap(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.f64 = new Float64Array(this.buffer);
      this.i32 = new Int32Array(this.buffer);
      this.u8 = new Uint8Array(this.buffer);
    }
    this.cols = this.th(T_COLS);
    this.rows = this.th(T_ROWS);
    this.wrap = this.th(T_WRAP) !== 0;
    this.floorSolid = this.th(T_FLOOR) !== 0;
    this.cells = this.th(T_CELLS);
    this.monHead = this.th(T_MON_HEAD) >> 2;
    this.monNext = this.th(T_MON_NEXT) >> 2;
    this.monBox = this.th(T_MON_BOX) >> 3;
    this.tile = this.param(P_TILE);
    this.tileInv = isPowerOfTwo(this.tile) ? 1 / this.tile : 0;
    this.width = this.cols * this.tile;
    this.coinHalf = this.param(P_COIN_W) * 0.5;
    this.eps = this.tile * (EDGE_EPS_NUM / EDGE_EPS_DEN);
    this.cellsVisited = 0;
    this.monsterTests = 0;
  }

  protected saveStats(): void {
    this.i32[TH + S_T_CELLS_VISITED] = this.cellsVisited;
    this.i32[TH + S_T_MONSTER_TESTS] = this.monsterTests;
  }

  protected normX(x: number): number {
    const width = this.width;
    if (!this.wrap || (x >= 0 && x < width)) return x;
    let r = x - Math.floor(x / width) * width;
    if (r >= width) r -= width;
    if (r < 0) r = 0;
    return r;
  }

  protected cellOf(v: number): number {
    // `| 0` as the core's <i32>: keeps cell indices small integers, which V8 never boxes.
    return Math.floor(this.tileInv !== 0 ? v * this.tileInv : v / this.tile) | 0;
  }

  protected flagsAt(col: number, row: number): number {
    this.cellsVisited++;
    if (row < 0) return this.floorSolid ? CELL_PLATFORM : 0;
    if (row >= this.rows) return 0;
    const cols = this.cols;
    if (this.wrap) {
      if (col < 0 || col >= cols) {
        col = col % cols;
        if (col < 0) col += cols;
      }
    } else if (col < 0 || col >= cols) {
      return CELL_PLATFORM;
    }
    return this.u8[this.cells + row * cols + col];
  }

  /**
   * pointHits for the point (qx, qy): fields, not arguments, because V8 boxes a double passed to a
   * call it does not inline (one heap number per point, measured by tests/tile_allocation.test.ts).
   */
  protected pointHits(): number {
    const px = this.qx, py = this.qy;
    const cols = this.cols, rows = this.rows, tile = this.tile;
    let col = this.cellOf(px);
    const row = this.cellOf(py);
    if (this.wrap && col >= cols) col = cols - 1;
    const f = this.flagsAt(col, row);
    let hits = 0;
    if (f & CELL_PLATFORM) hits |= HIT_BLOCKED;
    if (f & CELL_LADDER) hits |= HIT_LADDER;
    if (f & CELL_ONE_WAY) hits |= HIT_ONE_WAY;
    if (f & CELL_SPIKE) hits |= HIT_SPIKE;
    const inside = row >= 0 && row < rows && col >= 0 && col < cols;
    this.lastCol = col;
    this.lastRow = row;
    this.lastCell = inside ? row * cols + col : OUTSIDE;
    this.lastMonster = NO_MONSTER;
    if (!inside) return hits;
    if (f & CELL_COIN) {
      const cx = (col + 0.5) * tile;
      if (px >= cx - this.coinHalf && px <= cx + this.coinHalf && py >= row * tile && py <= (row + 1) * tile) hits |= HIT_COIN;
    }
    if ((f & CELL_MONSTER_NEAR) === 0) return hits;
    const i32 = this.i32, f64 = this.f64, wrap = this.wrap, width = this.width;
    let best = NO_MONSTER;
    for (let r = row - 1; r <= row + 1; r++) {
      if (r < 0 || r >= rows) continue;
      for (let c = col - 1; c <= col + 1; c++) {
        let cc = c;
        if (wrap) {
          if (cc < 0) cc += cols;
          else if (cc >= cols) cc -= cols;
        } else if (cc < 0 || cc >= cols) continue;
        let m = i32[this.monHead + r * cols + cc];
        while (m >= 0) {
          this.monsterTests++;
          const b = this.monBox + 4 * m;
          const mx = f64[b], my = f64[b + 1], mw = f64[b + 2], mh = f64[b + 3];
          if ((m < best || best < 0) && py >= my && py <= my + mh) {
            if ((px >= mx && px <= mx + mw) || (wrap && px + width >= mx && px + width <= mx + mw)) best = m;
          }
          m = i32[this.monNext + m];
        }
      }
    }
    if (best >= 0) {
      hits |= HIT_MONSTER;
      this.lastMonster = best;
    }
    return hits;
  }

  collidePoints(count: number): number {
    this.loadMap();
    const np = this.th(T_POINT_COUNT);
    const pts = this.th(T_POINTS) >> 3;
    const ex = this.th(T_ENT_X) >> 3, ey = this.th(T_ENT_Y) >> 3;
    const outCell = this.th(T_OUT_CELL) >> 2, outHits = this.th(T_OUT_HITS), outMon = this.th(T_OUT_MONSTER) >> 2;
    const f64 = this.f64, i32 = this.i32, u8 = this.u8;
    let hit = 0;
    for (let e = 0; e < count; e++) {
      const ox = f64[ex + e], oy = f64[ey + e];
      const o = e * np;
      for (let p = 0; p < np; p++) {
        this.qx = this.normX(ox + f64[pts + 2 * p]);
        this.qy = oy + f64[pts + 2 * p + 1];
        const h = this.pointHits();
        i32[outCell + o + p] = this.lastCell;
        u8[outHits + o + p] = h;
        i32[outMon + o + p] = this.lastMonster;
        if (h !== 0) hit++;
      }
    }
    this.saveStats();
    return hit;
  }

  private sweepX(x: number, y: number, w: number, h: number, dx: number): void {
    const tile = this.tile, eps = this.eps, cols = this.cols;
    let r0 = this.cellOf(y + eps), r1 = (Math.ceil((y + h - eps) / tile) | 0) - 1;
    if (r1 < r0) r1 = r0;
    if (r0 < -1) r0 = -1;
    if (r1 > this.rows) r1 = this.rows;
    if (dx > 0) {
      const cFrom = Math.ceil((x + w - eps) / tile) | 0;
      let cTo = (Math.ceil((x + w + dx - eps) / tile) | 0) - 1;
      if (this.wrap && cTo - cFrom > cols) cTo = cFrom + cols;
      for (let c = cFrom; c <= cTo; c++) {
        for (let r = r0; r <= r1; r++) {
          if (this.flagsAt(c, r) & CELL_PLATFORM) {
            this.contact |= CONTACT_RIGHT;
            this.moved = c * tile - w;
            return;
          }
        }
      }
    } else if (dx < 0) {
      const cFrom = this.cellOf(x + eps) - 1;
      let cTo = this.cellOf(x + dx + eps);
      if (this.wrap && cFrom - cTo > cols) cTo = cFrom - cols;
      for (let c = cFrom; c >= cTo; c--) {
        for (let r = r0; r <= r1; r++) {
          if (this.flagsAt(c, r) & CELL_PLATFORM) {
            this.contact |= CONTACT_LEFT;
            this.moved = (c + 1) * tile;
            return;
          }
        }
      }
    }
    this.moved = x + dx;
  }

  private sweepY(x: number, y: number, w: number, h: number, dy: number): void {
    const tile = this.tile, eps = this.eps, cols = this.cols, rows = this.rows;
    let c0 = this.cellOf(x + eps), c1 = (Math.ceil((x + w - eps) / tile) | 0) - 1;
    if (c1 < c0) c1 = c0;
    if (this.wrap) {
      if (c1 - c0 >= cols) c1 = c0 + cols - 1;
    } else {
      if (c0 < -1) c0 = -1;
      if (c1 > cols) c1 = cols;
    }
    if (dy < 0) {
      let rFrom = this.cellOf(y + eps) - 1;
      let rTo = this.cellOf(y + dy + eps);
      if (rFrom > rows - 1) rFrom = rows - 1;
      if (this.floorSolid) {
        if (rTo < -1) rTo = -1;
      } else if (rTo < 0) {
        rTo = 0;
      }
      for (let r = rFrom; r >= rTo; r--) {
        for (let c = c0; c <= c1; c++) {
          if (this.flagsAt(c, r) & (CELL_PLATFORM | CELL_ONE_WAY)) {
            this.contact |= CONTACT_DOWN;
            this.moved = (r + 1) * tile;
            return;
          }
        }
      }
    } else if (dy > 0) {
      let rFrom = Math.ceil((y + h - eps) / tile) | 0;
      let rTo = (Math.ceil((y + h + dy - eps) / tile) | 0) - 1;
      if (!this.floorSolid && rFrom < 0) rFrom = 0;
      if (rTo > rows - 1) rTo = rows - 1;
      for (let r = rFrom; r <= rTo; r++) {
        for (let c = c0; c <= c1; c++) {
          if (this.flagsAt(c, r) & CELL_PLATFORM) {
            this.contact |= CONTACT_UP;
            this.moved = r * tile - h;
            return;
          }
        }
      }
    }
    this.moved = y + dy;
  }

  moveBoxes(count: number): number {
    this.loadMap();
    const boxes = this.th(T_BOXES) >> 3, out = this.th(T_BOX_HITS);
    const f64 = this.f64, u8 = this.u8;
    let touched = 0;
    for (let i = 0; i < count; i++) {
      const b = boxes + i * BOX_FIELDS;
      let x = f64[b], y = f64[b + 1];
      const w = f64[b + 2], h = f64[b + 3], dx = f64[b + 4], dy = f64[b + 5];
      this.contact = 0;
      if (w > 0 && h > 0) {
        this.sweepX(x, y, w, h, dx);
        x = this.normX(this.moved);
        this.sweepY(x, y, w, h, dy);
        y = this.moved;
        f64[b] = x;
        f64[b + 1] = y;
      }
      u8[out + i] = this.contact;
      if (this.contact !== 0) touched++;
    }
    this.saveStats();
    return touched;
  }

  /** Clears a coin from a cell (the controller collects it). */
  protected clearCoin(cell: number): void {
    this.u8[this.th(T_CELLS) + cell] &= ~CELL_COIN;
  }
}
