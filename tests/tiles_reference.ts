// Brute-force references for the tile part, written straight from the seeds with plain objects:
// the tower seed's updateCollisionPoint (every monster tested, no cell lists), and a box moved one
// unit at a time, testing every cell it overlaps (no grid traversal).
import type { TileMap } from "../bindings/node.js";

interface RefCell {
  platform: boolean;
  ladder: boolean;
  coin: boolean;
  oneWay: boolean;
  spike: boolean;
}

interface RefMonster {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The map as the seed holds it: a 2D array of cell objects and a list of monsters. */
export class RefMap {
  readonly map: RefCell[][] = [];
  readonly monsters: RefMonster[] = [];
  readonly cols: number;
  readonly rows: number;
  readonly T: number;
  readonly wrap: boolean;
  readonly floor: boolean;
  readonly coinW: number;

  constructor(tm: TileMap, coinW: number) {
    this.cols = tm.cols;
    this.rows = tm.rows;
    this.T = tm.tileSize;
    this.wrap = tm.wrap;
    this.floor = tm.solidFloor;
    this.coinW = coinW;
    for (let row = 0; row < this.rows; row++) {
      this.map[row] = [];
      for (let col = 0; col < this.cols; col++) {
        const f = tm.cells[row * this.cols + col];
        this.map[row][col] = { platform: !!(f & 1), ladder: !!(f & 2), coin: !!(f & 4), oneWay: !!(f & 8), spike: !!(f & 16) };
      }
    }
    const b = tm.monsterBoxes;
    for (let id = 0; id < tm.monsterCount; id++) {
      if (tm.isMonster(id)) this.monsters.push({ id, x: b[4 * id], y: b[4 * id + 1], w: b[4 * id + 2], h: b[4 * id + 3] });
    }
  }

  normalizex(x: number): number {
    if (!this.wrap) return x;
    const W = this.cols * this.T;
    let r = x % W;
    if (r < 0) r += W;
    if (r >= W) r -= W;
    return r;
  }

  /** The seed's getCell, with the outside rules: ground below, walls beside (unless wrapping), air above. */
  getCell(row: number, col: number): RefCell {
    const solid = { platform: true, ladder: false, coin: false, oneWay: false, spike: false };
    const air = { platform: false, ladder: false, coin: false, oneWay: false, spike: false };
    if (row < 0) return this.floor ? solid : air;
    if (row >= this.rows) return air;
    if (this.wrap) col = ((col % this.cols) + this.cols) % this.cols;
    else if (col < 0 || col >= this.cols) return solid;
    return this.map[row][col];
  }

  /** updateCollisionPoint for the point (x + dx, y + dy). */
  point(x: number, y: number, dx: number, dy: number): { cell: number; hits: number; monster: number } {
    const between = (n: number, lo: number, hi: number) => n >= lo && n <= hi;
    const T = this.T;
    const px = this.normalizex(x + dx), py = y + dy;
    let col = Math.floor(px / T);
    if (this.wrap && col >= this.cols) col = this.cols - 1;
    const row = Math.floor(py / T);
    const cell = this.getCell(row, col);
    const inside = row >= 0 && row < this.rows && col >= 0 && col < this.cols;
    let hits = (cell.platform ? 1 : 0) | (cell.ladder ? 2 : 0) | (cell.oneWay ? 16 : 0) | (cell.spike ? 32 : 0);
    if (inside && cell.coin && between(px, (col + 0.5) * T - this.coinW / 2, (col + 0.5) * T + this.coinW / 2) && between(py, row * T, (row + 1) * T)) hits |= 4;
    let monster = -1;
    if (inside) {
      for (const m of this.monsters) {
        const inX = between(px, m.x, m.x + m.w) || (this.wrap && between(px + this.cols * T, m.x, m.x + m.w));
        if (inX && between(py, m.y, m.y + m.h) && (monster < 0 || m.id < monster)) monster = m.id;
      }
    }
    if (monster >= 0) hits |= 8;
    return { cell: inside ? row * this.cols + col : -1, hits, monster };
  }

  /** Solid for a box moving sideways or up: platforms only. */
  private solidAt(col: number, row: number): boolean {
    return this.getCell(row, col).platform;
  }

  /** Cells a box overlaps (interiors touch), given integer-aligned data. */
  private overlaps(x: number, y: number, w: number, h: number, solid: (col: number, row: number) => boolean): boolean {
    const T = this.T;
    for (let col = Math.floor(x / T); col * T < x + w; col++) {
      for (let row = Math.floor(y / T); row * T < y + h; row++) {
        if (solid(col, row)) return true;
      }
    }
    return false;
  }

  /**
   * Moves a box one unit at a time, x then y; a step into a solid cell is refused and ends that
   * axis with a contact. One-way cells stop only a box whose bottom is on or above their top.
   * Integer coordinates only (exact unit steps). Returns [x, y, contacts].
   */
  moveBox(x: number, y: number, w: number, h: number, dx: number, dy: number): [number, number, number] {
    let contacts = 0;
    const sx = Math.sign(dx);
    for (let k = 0; k < Math.abs(dx); k++) {
      if (this.overlaps(x + sx, y, w, h, (c, r) => this.solidAt(c, r))) {
        contacts |= sx > 0 ? 2 : 1;
        break;
      }
      x += sx;
    }
    x = this.normalizex(x);
    const sy = Math.sign(dy);
    for (let k = 0; k < Math.abs(dy); k++) {
      const bottom = y;
      const solid = (c: number, r: number) => this.solidAt(c, r) || (sy < 0 && this.getCell(r, c).oneWay && (r + 1) * this.T <= bottom);
      if (this.overlaps(x, y + sy, w, h, solid)) {
        contacts |= sy > 0 ? 8 : 4;
        break;
      }
      y += sy;
    }
    return [x, y, contacts];
  }

  /** Whether a box overlaps any solid cell (for placing test boxes in free space). */
  boxFree(x: number, y: number, w: number, h: number): boolean {
    return !this.overlaps(x, y, w, h, (c, r) => this.solidAt(c, r) || this.getCell(r, c).oneWay);
  }
}
