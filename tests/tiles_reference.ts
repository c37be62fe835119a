// Brute-force references for the tile part, written straight from the seeds with plain objects:
// the tower seed's updateCollisionPoint (every monster tested, no cell lists), and a box moved one
// unit at a time, testing every cell it overlaps (no grid traversal).
//
// y grows downward, as in TileMap. The tower seed is y-up; its player is converted here by
// mirroring (y -> -y) every rule that depends on up and down, each such line marked "mirrored", so
// that the test compares TileMap with the seed's player on the same numbers, exactly, at the
// documented tuning. Row 0 is the top row; a point on the line between two rows is in the row above
// it (the seed's floor() of a y-up row, mirrored: ceil() - 1).
import { IdKind, NULL_ID, type TileMap } from "../bindings/node.js";

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
      if (tm.idAt(IdKind.Monster, id) !== NULL_ID) this.monsters.push({ id, x: b[4 * id], y: b[4 * id + 1], w: b[4 * id + 2], h: b[4 * id + 3] });
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

  /** The seed's getCell, with the outside rules: ground below (row >= rows), walls beside (unless wrapping), air above (row < 0). */
  getCell(row: number, col: number): RefCell {
    const solid = { platform: true, ladder: false, coin: false, oneWay: false, spike: false };
    const air = { platform: false, ladder: false, coin: false, oneWay: false, spike: false };
    if (row < 0) return air;
    if (row >= this.rows) return this.floor ? solid : air;
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
    const row = Math.ceil(py / T) - 1; // mirrored: on a row line, the row above
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

  /** Solid for a box moving sideways or up (-y): platforms only. */
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
   * Moves a box (x, y its top-left corner) one unit at a time, x then y; a step into a solid cell
   * is refused and ends that axis with a contact. One-way cells stop only a box moving down (+y)
   * whose bottom is on or above their top. Integer coordinates only (exact unit steps). Returns
   * [x, y, contacts].
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
      const bottom = y + h;
      const solid = (c: number, r: number) => this.solidAt(c, r) || (sy > 0 && this.getCell(r, c).oneWay && r * this.T >= bottom);
      if (this.overlaps(x, y + sy, w, h, solid)) {
        contacts |= sy > 0 ? 4 : 8; // Down, Up
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

/** The controller's tuning, as in TileControllerTuning. */
export interface RefTuning {
  w: number; h: number; maxdx: number; maxdy: number; climbdy: number; gravity: number; impulse: number; accel: number;
  friction: number; surface: number; ladderEdge: number; fallingJump: number; stepFrames: number; hurtFrames: number; coinScore: number;
}

interface RefPoint { x: number; y: number; row: number; col: number; cell: number; blocked: boolean; stand: boolean; ladder: boolean; coin: boolean; hurt: boolean }

/**
 * The tower seed's player, written as the article writes it (an object with named collision
 * points, updateCollisionPoint, checkCollision and the resolutions), mirrored into y-down (the
 * lines marked "mirrored"), over RefMap's brute-force point check. The origin is the middle of the
 * feet. The parts the article leaves to its source (stepping up, the hurt timer) follow TileMap's
 * documented rules.
 */
export class RefPlayer {
  x: number; y: number; dx = 0; dy = 0;
  falling = false; climbing = false; fallingJump = 0;
  stepping = 0; stepCount = 0; stepY = 0; hurting = 0; score = 0; hits = 0;
  input = { left: false, right: false, up: false, down: false, jump: false };
  private readonly collision: Record<string, RefPoint>;

  constructor(private readonly map: RefMap, private readonly t: RefTuning, x: number, y: number) {
    this.x = map.normalizex(x);
    this.y = y;
    const w = t.w, h = t.h, px = map.T / 32;
    const p = (x: number, y: number): RefPoint => ({ x, y, row: 0, col: 0, cell: -1, blocked: false, stand: false, ladder: false, coin: false, hurt: false });
    // mirrored: every point's dy negated (the head at -h, the under points a pixel below the feet).
    this.collision = {
      topLeft: p(-w / 4, 2 * px - h), topRight: p(w / 4, 2 * px - h), middleLeft: p(-w / 2, -h / 2), middleRight: p(w / 2, -h / 2),
      bottomLeft: p(-w / 4, 0), bottomRight: p(w / 4, 0), underLeft: p(-w / 4, px), underRight: p(w / 4, px),
      ladderUp: p(0, -h / 2), ladderDown: p(0, px),
    };
  }

  setInput(bits: number): void {
    this.input = { left: !!(bits & 1), right: !!(bits & 2), up: !!(bits & 4), down: !!(bits & 8), jump: !!(bits & 16) };
  }

  private updateCollisionPoint(point: RefPoint): void {
    const r = this.map.point(this.x, this.y, point.x, point.y);
    const T = this.map.T;
    point.col = Math.floor(this.map.normalizex(this.x + point.x) / T);
    if (this.map.wrap && point.col >= this.map.cols) point.col = this.map.cols - 1;
    point.row = Math.ceil((this.y + point.y) / T) - 1; // mirrored
    point.cell = r.cell;
    point.blocked = !!(r.hits & 1);
    point.stand = !!(r.hits & (1 | 16));
    point.ladder = !!(r.hits & 2);
    point.coin = !!(r.hits & 4);
    point.hurt = !!(r.hits & (8 | 32));
  }

  update(dt: number): void {
    const t = this.t, T = this.map.T;
    const wasleft = this.dx < 0, wasright = this.dx > 0;
    if (this.stepping) {
      this.y -= T / t.stepFrames; // mirrored
      this.x = this.map.normalizex(this.x + this.stepping * (t.w / 4) / t.stepFrames);
      if (--this.stepCount <= 0 || this.y <= this.stepY) { this.y = this.stepY; this.stepping = 0; this.stepCount = 0; } // mirrored
    } else {
      const falling = this.falling;
      let ddx = 0, ddy = falling ? t.gravity : 0; // mirrored
      if (this.climbing) {
        ddy = 0;
        this.dy = this.input.up ? -t.climbdy : this.input.down ? t.climbdy : 0; // mirrored
      }
      if (this.input.left) ddx = ddx - t.accel;
      else if (wasleft) ddx = ddx + t.friction;
      if (this.input.right) ddx = ddx + t.accel;
      else if (wasright) ddx = ddx - t.friction;
      if (this.input.jump && (!falling || this.fallingJump > 0)) {
        if (this.climbing) this.stopClimbing();
        this.dy = 0;
        ddy = -t.impulse; // mirrored
        this.falling = true;
        this.fallingJump = 0;
        this.input.jump = false;
      }
      this.x = this.map.normalizex(this.x + dt * this.dx);
      this.y = this.y + dt * this.dy;
      const bound = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
      this.dx = bound(this.dx + dt * ddx, -t.maxdx, t.maxdx);
      this.dy = bound(this.dy + dt * ddy, -t.maxdy, t.maxdy);
      for (let k = 0; k < 32 && this.checkCollision(); k++) { /* until no more collisions */ }
      if ((wasleft && this.dx > 0) || (wasright && this.dx < 0)) this.dx = 0;
      if (this.falling && this.fallingJump > 0) this.fallingJump--;
    }
    if (this.hurting > 0 && !this.hurtNow) this.hurting--;
    this.hurtNow = false;
  }

  private hurtNow = false;

  private checkCollision(): boolean {
    const T = this.map.T, t = this.t;
    const falling = this.falling, fallingUp = this.falling && this.dy < 0, fallingDown = this.falling && this.dy >= 0; // mirrored
    const climbing = this.climbing, climbingDown = this.climbing && this.input.down;
    const runningLeft = this.dx < 0, runningRight = this.dx > 0;
    const c = this.collision;
    const { topLeft: tl, topRight: tr, middleLeft: ml, middleRight: mr, bottomLeft: bl, bottomRight: br, underLeft: ul, underRight: ur, ladderDown: ld, ladderUp: lu } = c;
    for (const p of Object.values(c)) this.updateCollisionPoint(p);
    const nearRowSurface = (y: number, row: number) => y < row * T + t.surface; // mirrored: the row's top is row * T

    for (const p of [tl, tr, ml, mr, bl, br]) {
      if (p.coin) {
        this.map.map[p.row][p.col].coin = false;
        this.score += t.coinScore;
        return true;
      }
    }
    if (fallingDown && bl.stand && !ml.blocked && !tl.blocked && nearRowSurface(this.y + bl.y, bl.row)) return this.collideDown(bl);
    if (fallingDown && br.stand && !mr.blocked && !tr.blocked && nearRowSurface(this.y + br.y, br.row)) return this.collideDown(br);
    if (fallingDown && ld.ladder && !lu.ladder) return this.collideDown(ld);
    if (fallingUp && tl.blocked && !ml.blocked && !bl.blocked) return this.collideUp(tl);
    if (fallingUp && tr.blocked && !mr.blocked && !br.blocked) return this.collideUp(tr);
    if (climbingDown && ld.stand) return this.stopClimbing(ld);
    if (runningRight && tr.blocked && !tl.blocked) return this.collide(tr);
    if (runningRight && mr.blocked && !ml.blocked) return this.collide(mr);
    if (runningRight && br.blocked && !bl.blocked) return falling ? this.collide(br) : this.startSteppingUp(1, br);
    if (runningLeft && tl.blocked && !tr.blocked) return this.collide(tl, true);
    if (runningLeft && ml.blocked && !mr.blocked) return this.collide(ml, true);
    if (runningLeft && bl.blocked && !br.blocked) return falling ? this.collide(bl, true) : this.startSteppingUp(-1, bl);
    const onLadder = (lu.ladder || ld.ladder) && t.ladderEdge > Math.abs(this.x - (lu.col + 0.5) * T) / (T / 2);
    if (!climbing && onLadder && ((lu.ladder && this.input.up) || (ld.ladder && this.input.down))) {
      this.climbing = true;
      this.dx = 0;
      return false;
    } else if (!climbing && !falling && !ul.stand && !ur.stand && !onLadder) {
      this.falling = true;
      this.fallingJump = t.fallingJump;
      return false;
    }
    if (climbing && !onLadder) return this.stopClimbing();
    if (!this.hurting && (tl.hurt || tr.hurt || ml.hurt || mr.hurt || bl.hurt || br.hurt || lu.hurt || ld.hurt)) {
      this.hurting = t.hurtFrames;
      this.hurtNow = true;
      this.hits++;
      return true;
    }
    return false;
  }

  private collide(point: RefPoint, left = false): boolean {
    this.x = this.map.normalizex((point.col + (left ? 1 : 0)) * this.map.T - point.x);
    this.dx = 0;
    return true;
  }

  private collideUp(point: RefPoint): boolean {
    this.y = (point.row + 1) * this.map.T - point.y; // mirrored: the row's underside
    this.dy = 0;
    return true;
  }

  private collideDown(point: RefPoint): boolean {
    this.y = point.row * this.map.T; // mirrored: the row's top
    this.dy = 0;
    this.falling = false;
    return true;
  }

  private stopClimbing(point?: RefPoint): boolean {
    this.climbing = false;
    this.dy = 0;
    if (point) this.y = point.row * this.map.T; // mirrored
    return true;
  }

  private startSteppingUp(dir: number, point: RefPoint): boolean {
    this.stepping = dir;
    this.stepCount = this.t.stepFrames;
    this.stepY = point.row * this.map.T; // mirrored
    return false;
  }
}
