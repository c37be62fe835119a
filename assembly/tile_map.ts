// The tile map's hot loops: collision points for many entities, and swept box moves against the
// cells (grid traversal). Free functions over the regions the tile header points at
// (layout/tiles.ts); the facade validates everything, the core never allocates and skips
// what it cannot use. Coordinates are y-down and f64 (see layout/tiles.ts for the cells' rule and
// why f64).
import { TILES_HEADER } from "../layout/grid.ts";
import {
  BOX_FIELDS, CELL_COIN, CELL_MONSTER_NEAR, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE, CONTACT_DOWN, CONTACT_LEFT,
  CONTACT_RIGHT, CONTACT_UP, EDGE_EPS_DEN, EDGE_EPS_NUM, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER,
  HIT_ONE_WAY, HIT_SPIKE, NO_MONSTER, OUTSIDE, P_COIN_HALF, P_COIN_W, P_EDGE_EPS, P_MAP_WIDTH, P_TILE, P_TILE_INV, S_T_CELLS_VISITED, S_T_MONSTER_TESTS,
  T_BOX_HITS, T_BOXES, T_CELLS, T_COLS, T_ENT_X, T_ENT_Y, T_FLOOR, T_MON_BOX, T_MON_HEAD, T_MON_NEXT,
  T_OUT_CELL, T_OUT_HITS, T_OUT_MONSTER, T_PARAMS, T_POINT_COUNT, T_POINTS, T_ROWS, T_WRAP, TILES_SCRATCH, X_DT, X_OLD_Y, X_QX, X_QY,
} from "../layout/tiles.ts";
import { headerI32, setHeaderI32 } from "./header.ts";

// @ts-ignore: decorator
@inline export function th(field: i32): i32 {
  return headerI32(TILES_HEADER, field);
}

// @ts-ignore: decorator
@inline export function setTh(field: i32, value: i32): void {
  setHeaderI32(TILES_HEADER, field, value);
}

// @ts-ignore: decorator
@inline export function param(p: i32): f64 {
  return load<f64>(th(T_PARAMS) + (p << 3));
}

// Addresses of the f64 scratch slots (X_* in layout/tiles.ts, valid during one kernel call):
// constants, so a read is one load.
const SCRATCH = TILES_HEADER + TILES_SCRATCH;
export const AT_QX = SCRATCH + (X_QX << 3);
export const AT_QY = SCRATCH + (X_QY << 3);
export const AT_DT = SCRATCH + (X_DT << 3);
export const AT_OLD_Y = SCRATCH + (X_OLD_Y << 3);

// The map, read once per call into globals so the helpers below stay small.
let cols: i32 = 0;
let rows: i32 = 0;
let wrap: bool = false;
let floorSolid: bool = false;
let cells: i32 = 0;
let monHead: i32 = 0;
let monNext: i32 = 0;
let monBox: i32 = 0;
// The map's f64 constants live in the params region (P_TILE, and the P_TILE_INV .. P_EDGE_EPS that
// loadMap derives), read where they are used: an f64 module global is a boxed number in the js
// backend's translation, and storing one there allocates.
let params: i32 = 0;
// @ts-ignore: decorator
@inline export function tile(): f64 { return load<f64>(params + (P_TILE << 3)); }
/** 1 / tile when that is exact (tile a power of two), else 0. */
// @ts-ignore: decorator
@inline export function tileInv(): f64 { return load<f64>(params + (P_TILE_INV << 3)); }
// @ts-ignore: decorator
@inline export function width(): f64 { return load<f64>(params + (P_MAP_WIDTH << 3)); }
// @ts-ignore: decorator
@inline function coinHalf(): f64 { return load<f64>(params + (P_COIN_HALF << 3)); }
// @ts-ignore: decorator
@inline function eps(): f64 { return load<f64>(params + (P_EDGE_EPS << 3)); }
let cellsVisited: i32 = 0;
let monsterTests: i32 = 0;

// What the last pointHits found.
export let lastCol: i32 = 0;
export let lastRow: i32 = 0;
export let lastCell: i32 = 0;
export let lastMonster: i32 = 0;
/** CELL_COIN and CELL_MONSTER_NEAR of the last pointHits' cell when it is inside the map: exactHits has work. */
export let lastExact: i32 = 0;

/** Reads the map header into globals; every exported call starts here. */
export function loadMap(): void {
  cols = th(T_COLS);
  rows = th(T_ROWS);
  wrap = th(T_WRAP) != 0;
  floorSolid = th(T_FLOOR) != 0;
  cells = th(T_CELLS);
  monHead = th(T_MON_HEAD);
  monNext = th(T_MON_NEXT);
  monBox = th(T_MON_BOX);
  params = th(T_PARAMS);
  const t = param(P_TILE);
  let inv = 1 / t;
  if (inv * t != 1 || reinterpret<u64>(t) & 0xfffffffffffff) inv = 0;
  store<f64>(params + (P_TILE_INV << 3), inv);
  store<f64>(params + (P_MAP_WIDTH << 3), <f64>cols * t);
  store<f64>(params + (P_COIN_HALF << 3), param(P_COIN_W) * 0.5);
  store<f64>(params + (P_EDGE_EPS << 3), t * (<f64>EDGE_EPS_NUM / <f64>EDGE_EPS_DEN));
  cellsVisited = 0;
  monsterTests = 0;
}

export function saveStats(): void {
  setTh(S_T_CELLS_VISITED, cellsVisited);
  setTh(S_T_MONSTER_TESTS, monsterTests);
}

/** x folded into [0, w) on a wrapping map of width w (width()); unchanged otherwise. */
// @ts-ignore: decorator
@inline export function foldX(x: f64, w: f64): f64 {
  if (!wrap || (x >= 0 && x < w)) return x;
  let r = x - Math.floor(x / w) * w;
  // Rounding can land a tiny negative x exactly on w.
  if (r >= w) r -= w;
  if (r < 0) r = 0;
  return r;
}

/** x folded into [0, width) on a wrapping map; unchanged otherwise. */
// @ts-ignore: decorator
@inline export function normX(x: f64): f64 {
  return foldX(x, width());
}

/** The column (or the row of a box edge) of coordinate v, given tileInv() and tile() (loops read them once). */
// @ts-ignore: decorator
@inline export function cellIn(v: f64, inv: f64, t: f64): i32 {
  // A power-of-two tile divides exactly by multiplying with its inverse (a division costs ~4x more).
  return <i32>Math.floor(inv != 0 ? v * inv : v / t);
}

// @ts-ignore: decorator
@inline export function cellOf(v: f64): i32 {
  return cellIn(v, tileInv(), tile());
}

/**
 * The row of a point at y = v: a point on the line between two rows is in the row above it (the
 * seed's y-up rule seen in a mirror), so feet resting on a floor are in the cell above the floor.
 */
// @ts-ignore: decorator
@inline export function rowIn(v: f64, inv: f64, t: f64): i32 {
  return <i32>Math.ceil(inv != 0 ? v * inv : v / t) - 1;
}

// @ts-ignore: decorator
@inline export function rowOf(v: f64): i32 {
  return rowIn(v, tileInv(), tile());
}

/** Rows in the map (rows >= this are the floor, when solid). */
// @ts-ignore: decorator
@inline export function mapRows(): i32 {
  return rows;
}

/** Flags of cell (col, row): outside the map, rows below are the floor, columns beside are walls. */
export function flagsAt(col: i32, row: i32): i32 {
  cellsVisited++;
  if (row < 0) return 0;
  if (row >= rows) return floorSolid ? CELL_PLATFORM : 0;
  if (wrap) {
    if (col < 0 || col >= cols) {
      col = col % cols;
      if (col < 0) col += cols;
    }
  } else if (col < 0 || col >= cols) {
    return CELL_PLATFORM;
  }
  return <i32>load<u8>(cells + row * cols + col);
}

// @ts-ignore: decorator
@inline function between(n: f64, lo: f64, hi: f64): bool {
  return n >= lo && n <= hi;
}

/**
 * The seed's updateCollisionPoint for a point (already normalised) in cell (col, row), its cellOf:
 * the HIT_* flags its cell gives. Sets lastCol/lastRow/lastCell/lastMonster, and lastExact when the
 * cell has a coin or a monster near: then the caller stores the point at AT_QX, AT_QY and
 * exactHits adds the seed's exact box checks. Callers hand cells, not coordinates, so no double
 * crosses this call (the js backend would box it).
 */
export function pointHits(col: i32, row: i32): i32 {
  if (wrap && col >= cols) col = cols - 1; // px just below width() can round up to cols
  const f = flagsAt(col, row);
  let hits = 0;
  if (f & CELL_PLATFORM) hits |= HIT_BLOCKED;
  if (f & CELL_LADDER) hits |= HIT_LADDER;
  if (f & CELL_ONE_WAY) hits |= HIT_ONE_WAY;
  if (f & CELL_SPIKE) hits |= HIT_SPIKE;
  const inside = row >= 0 && row < rows && col >= 0 && col < cols;
  lastCol = col;
  lastRow = row;
  lastCell = inside ? row * cols + col : OUTSIDE;
  lastMonster = NO_MONSTER;
  lastExact = inside ? f & (CELL_COIN | CELL_MONSTER_NEAR) : 0;
  return hits;
}

/**
 * The exact checks of the last pointHits, for its point at (AT_QX, AT_QY) when it set lastExact:
 * HIT_COIN inside the coin's box, HIT_MONSTER inside a monster's (the lowest id, into lastMonster).
 */
export function exactHits(): i32 {
  const px = load<f64>(AT_QX), py = load<f64>(AT_QY);
  const col = lastCol, row = lastRow;
  let hits = 0;
  if (lastExact & CELL_COIN) {
    // A coin is COIN_W wide, centred in its column, the full row high.
    const cx = (<f64>col + 0.5) * tile();
    if (between(px, cx - coinHalf(), cx + coinHalf()) && between(py, <f64>row * tile(), <f64>(row + 1) * tile())) hits |= HIT_COIN;
  }
  // Monsters are no bigger than a cell and listed in the cell of their centre, so the 3 x 3 cells
  // around the point hold every monster whose box can contain it; only cells a box touches are searched.
  if ((lastExact & CELL_MONSTER_NEAR) == 0) return hits;
  let best = NO_MONSTER;
  for (let r = row - 1; r <= row + 1; r++) {
    if (r < 0 || r >= rows) continue;
    for (let c = col - 1; c <= col + 1; c++) {
      let cc = c;
      if (wrap) {
        if (cc < 0) cc += cols;
        else if (cc >= cols) cc -= cols;
      } else if (cc < 0 || cc >= cols) continue;
      let m = load<i32>(monHead + ((r * cols + cc) << 2));
      while (m >= 0) {
        monsterTests++;
        const b = monBox + (m << 5);
        const mx = load<f64>(b), my = load<f64>(b, 8), mw = load<f64>(b, 16), mh = load<f64>(b, 24);
        if ((m < best || best < 0) && between(py, my, my + mh)) {
          // On the tower a box may straddle the seam: the point also counts one width further on.
          if (between(px, mx, mx + mw) || (wrap && between(px + width(), mx, mx + mw))) best = m;
        }
        m = load<i32>(monNext + (m << 2));
      }
    }
  }
  if (best >= 0) {
    hits |= HIT_MONSTER;
    lastMonster = best;
  }
  return hits;
}

/**
 * The HIT_* flags of the point (px, py), already normalised: pointHits of its cell (column cellIn,
 * row rowIn), then the exact checks where its cell asks for them. inv and t are tileInv() and
 * tile(). Sets what pointHits sets.
 */
// @ts-ignore: decorator
@inline export function hitsAt(px: f64, py: f64, inv: f64, t: f64): i32 {
  let h = pointHits(cellIn(px, inv, t), rowIn(py, inv, t));
  if (lastExact != 0) {
    store<f64>(AT_QX, px);
    store<f64>(AT_QY, py);
    h |= exactHits();
  }
  return h;
}

/**
 * Collision points for entities [0, count): each entity's origin plus each of the T_POINT_COUNT
 * offsets, looked up in the map. Writes cell, HIT_* and monster per (entity, point); returns how
 * many points hit anything.
 */
export function collidePoints(count: i32): i32 {
  loadMap();
  const np = th(T_POINT_COUNT);
  const pts = th(T_POINTS);
  const ex = th(T_ENT_X), ey = th(T_ENT_Y);
  const outCell = th(T_OUT_CELL), outHits = th(T_OUT_HITS), outMon = th(T_OUT_MONSTER);
  // The map's reals, read once: the stores below could alias them for the compiler.
  const w = width(), inv = tileInv(), t = tile();
  let hit = 0;
  for (let e = 0; e < count; e++) {
    const ox = load<f64>(ex + (e << 3)), oy = load<f64>(ey + (e << 3));
    const o = e * np;
    for (let p = 0; p < np; p++) {
      const px = foldX(ox + load<f64>(pts + (p << 4)), w);
      const py = oy + load<f64>(pts + (p << 4), 8);
      const h = hitsAt(px, py, inv, t);
      store<i32>(outCell + ((o + p) << 2), lastCell);
      store<u8>(outHits + o + p, <u8>h);
      store<i32>(outMon + ((o + p) << 2), lastMonster);
      if (h != 0) hit++;
    }
  }
  saveStats();
  return hit;
}

// @ts-ignore: decorator
@inline function solidSide(col: i32, row: i32): bool {
  return (flagsAt(col, row) & CELL_PLATFORM) != 0;
}

// @ts-ignore: decorator
@inline function solidBelow(col: i32, row: i32): bool {
  return (flagsAt(col, row) & (CELL_PLATFORM | CELL_ONE_WAY)) != 0;
}

let contact: i32 = 0;

/** Moves a box (top-left x, y; size w, h) by dx along x, stopping at the first solid column it enters. */
function sweepX(x: f64, y: f64, w: f64, h: f64, dx: f64): f64 {
  // The rows the box covers; a box resting exactly on a row's top does not cover it, so a run of
  // floor tiles below it is never in the way (no seams to snag on).
  let r0 = cellOf(y + eps()), r1 = <i32>Math.ceil((y + h - eps()) / tile()) - 1;
  if (r1 < r0) r0 = r1; // thinner than twice the tolerance: the upper of the two rows
  // Rows above the map all read like row -1 and rows below like row `rows`. Each column is read
  // from the bottom row up, so a map and its mirror image visit as many cells.
  if (r0 < -1) r0 = -1;
  if (r1 > rows) r1 = rows;
  if (dx > 0) {
    const cFrom = <i32>Math.ceil((x + w - eps()) / tile());
    let cTo = <i32>Math.ceil((x + w + dx - eps()) / tile()) - 1;
    // On a wrapping map, a band with no solid cell in `cols` columns has none at all.
    if (wrap && cTo - cFrom > cols) cTo = cFrom + cols;
    for (let c = cFrom; c <= cTo; c++) {
      for (let r = r1; r >= r0; r--) {
        if (solidSide(c, r)) {
          contact |= CONTACT_RIGHT;
          return <f64>c * tile() - w;
        }
      }
    }
  } else if (dx < 0) {
    const cFrom = cellOf(x + eps()) - 1;
    let cTo = cellOf(x + dx + eps());
    if (wrap && cFrom - cTo > cols) cTo = cFrom - cols;
    for (let c = cFrom; c >= cTo; c--) {
      for (let r = r1; r >= r0; r--) {
        if (solidSide(c, r)) {
          contact |= CONTACT_LEFT;
          return <f64>(c + 1) * tile();
        }
      }
    }
  }
  return x + dx;
}

/** Moves a box by dy along y; one-way cells stop it only on the way down (+y: it enters them from above). */
function sweepY(x: f64, y: f64, w: f64, h: f64, dy: f64): f64 {
  let c0 = cellOf(x + eps()), c1 = <i32>Math.ceil((x + w - eps()) / tile()) - 1;
  if (c1 < c0) c1 = c0;
  if (wrap) {
    if (c1 - c0 >= cols) c1 = c0 + cols - 1;
  } else {
    if (c0 < -1) c0 = -1;
    if (c1 > cols) c1 = cols;
  }
  if (dy > 0) {
    // Down: the rows below the box's bottom edge, nearest first.
    let rFrom = <i32>Math.ceil((y + h - eps()) / tile());
    let rTo = <i32>Math.ceil((y + h + dy - eps()) / tile()) - 1;
    if (rFrom < 0) rFrom = 0; // rows above the map are empty
    if (floorSolid) {
      if (rTo > rows) rTo = rows;
    } else if (rTo > rows - 1) {
      rTo = rows - 1;
    }
    for (let r = rFrom; r <= rTo; r++) {
      for (let c = c0; c <= c1; c++) {
        if (solidBelow(c, r)) {
          contact |= CONTACT_DOWN;
          return <f64>r * tile() - h;
        }
      }
    }
  } else if (dy < 0) {
    let rFrom = cellOf(y + eps()) - 1;
    let rTo = cellOf(y + dy + eps());
    if (!floorSolid && rFrom > rows - 1) rFrom = rows - 1;
    if (rTo < 0) rTo = 0;
    for (let r = rFrom; r >= rTo; r--) {
      for (let c = c0; c <= c1; c++) {
        if (solidSide(c, r)) {
          contact |= CONTACT_UP;
          return <f64>(r + 1) * tile();
        }
      }
    }
  }
  return y + dy;
}

/**
 * Moves boxes [0, count) by their (dx, dy), x first then y, through the cells they cross (grid
 * traversal: nothing tunnels, however fast). Writes the new x, y in place and CONTACT_* per box;
 * returns how many boxes touched something. Boxes with a size that is not positive stay put.
 */
export function moveBoxes(count: i32): i32 {
  loadMap();
  const boxes = th(T_BOXES), out = th(T_BOX_HITS);
  let touched = 0;
  for (let i = 0; i < count; i++) {
    const b = boxes + i * (BOX_FIELDS << 3);
    let x = load<f64>(b), y = load<f64>(b, 8);
    const w = load<f64>(b, 16), h = load<f64>(b, 24), dx = load<f64>(b, 32), dy = load<f64>(b, 40);
    contact = 0;
    if (w > 0 && h > 0) {
      x = normX(sweepX(x, y, w, h, dx));
      y = sweepY(x, y, w, h, dy);
      store<f64>(b, x);
      store<f64>(b, y, 8);
    }
    store<u8>(out + i, <u8>contact);
    if (contact != 0) touched++;
  }
  saveStats();
  return touched;
}
