// What the controllers of one part see of the other parts of the world ("Controllers against
// every part" in docs/world.md): the geometry each controller's own rules already understand.
//
// - Four-sensor characters ("2D Platformer Advanced Collision Detection", characters.ts) test
//   sensor boxes against rects. Solid tile cells are rects; one-way cells are rects that only the
//   bottom sensor sees, while falling with the feet at or above the cell's top at the frame start.
//   A polyhedron is seen by each sensor as the rect its rules read from a rect: the bottom sensor
//   lands on the highest point of the polyhedron under the feet (its top boundary over the foot
//   x-range, so a slope is walkable), the top sensor bumps on its lowest point over that range, and
//   a side sensor is pushed out to its far side within the side sensor's height band (a polyhedron
//   shaped as a box behaves exactly as the same rect). A surface is one-way ground: only a surface
//   whose front faces up, only for the bottom sensor, landing on its highest point under the feet
//   when the feet were at or above it at the frame start.
// - Tile characters ("Rotating Tower Collision Detection", tile_controller.ts) look up a cell's
//   flags at each collision point: a point inside a rect-level rect or a polyhedron is blocked too,
//   and the resolutions take that shape's edge along the point's vertical or horizontal line
//   (the outermost, where several shapes hold the point) where they would take the cell's.
//
// The extremes of a polyhedron within a box are found by a small linear programme per call
// (polyClip): no vertex list is stored, and any number of faces works. Everything here reads and
// writes doubles through the scratch block below, never through module variables or the arguments
// of calls V8 may not inline (the js backend would box them).
import { PLATFORMS_HEADER, RECTS_HEADER, TILES_HEADER } from "../layout/grid.ts";
import { HS_STRIDE, P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_ROWS, P_HALFSPACES, P_POLY_CELLS, P_POLY_COUNT,
  P_POLY_EXTENT, P_POLY_ITEMS, P_POLY_START, P_SURF_CELLS, P_SURF_COUNT, P_SURF_ITEMS, P_SURFACES, SURF_STRIDE,
} from "../layout/platforms.ts";
import {
  RH_CANDS, RH_DEPTH, RH_INST_BOX, RH_INSTANCES,
} from "../layout/rects.ts";
import { CELL_ONE_WAY, CELL_PLATFORM, P_TILE, T_CELLS, T_COLS, T_FLOOR, T_PARAMS, T_ROWS, T_WRAP } from "../layout/tiles.ts";
import { headerI32 } from "./header.ts";
import { f32At, f64At, i32At, setF64, setI32, u8At } from "./memory.ts";
import { rectEnd, rectStart, rh, treeQueryAt, worldRectInto } from "./rect_level.ts";

// Scratch (f64 slots of a static block; valid during one kernel call).
const SCRATCH = <i32>memory.data(36 * 8);
// @ts-ignore: decorator
@inline export function sc(slot: i32): f64 { return f64At(SCRATCH + (slot << 3)); }
// @ts-ignore: decorator
@inline export function setSc(slot: i32, v: f64): void { setF64(SCRATCH + (slot << 3), v); }

// The character being stepped and its configuration (characters.ts writes them).
export const C_X = 0; // master box top-left, after the move (and, for the vertical pass, after the side pushes)
export const C_Y = 1;
export const C_W = 2;
export const C_H = 3;
export const C_XS = 4; // top-left at the frame start
export const C_YS = 5;
export const C_STOP = 6; // sensorTop
export const C_SBOTTOM = 7; // sensorBottom
export const C_STEP = 8; // stepHeight
export const C_INSET = 9; // inset
export const C_ACC_A = 10; // side pass: toRight (max); vertical pass: ground (min)
export const C_ACC_B = 11; // side pass: toLeft (min); vertical pass: ceiling (max)
// The box polyClip clips a polyhedron to, and the extremes it finds.
const R_X0 = 12, R_Y0 = 13, R_X1 = 14, R_Y1 = 15;
const E_X0 = 16, E_Y0 = 17, E_X1 = 18, E_Y1 = 19;
// Tile controllers: the point tested by shapeAt and the edges of what holds it.
export const Q_X = 20;
export const Q_Y = 21;
export const Q_LEFT = 22; // the shape's extremes along the horizontal and vertical lines through the point
export const Q_RIGHT = 23;
export const Q_TOP = 24;
export const Q_BOTTOM = 25;
export const Q_X1 = 26; // polyDrop: the second foot's x, and the lowest top looked for
export const Q_YMAX = 27;
// The box eachPlatformNear searches.
const B_X0 = 28, B_Y0 = 29, B_X1 = 30, B_Y1 = 31;
// The world box of the rect rectAt placed last.
const W_X0 = 32, W_Y0 = 33, W_X1 = 34, W_Y1 = 35;

/** Far enough to stand for "unbounded" beyond every coordinate the facade accepts (MAX_COORD 1e30). */
const FAR: f64 = 1e36;
const UNBOUNDED: f64 = 1e35;

// @ts-ignore: decorator
@inline function th(field: i32): i32 { return headerI32(TILES_HEADER, field); }
// @ts-ignore: decorator
@inline function ph(field: i32): i32 { return headerI32(PLATFORMS_HEADER, field); }

/** The tile map has cells (a world without one has cols 0). */
// @ts-ignore: decorator
@inline export function worldHasTiles(): bool { return th(T_COLS) > 0 && th(T_ROWS) > 0; }
/** The rect level has instances. */
// @ts-ignore: decorator
@inline export function worldHasRects(): bool { return headerI32(RECTS_HEADER, RH_INSTANCES) > 0; }
/** The platforms hold a polyhedron. */
// @ts-ignore: decorator
@inline export function worldHasPolyhedra(): bool { return ph(P_POLY_COUNT) > 0; }
/** The platforms hold a surface or a polyhedron. */
// @ts-ignore: decorator
@inline export function worldHasPlatforms(): bool { return ph(P_SURF_COUNT) + ph(P_POLY_COUNT) > 0; }

/** Flags of tile cell (col, row), y-down, as everywhere in the world: columns beside a map that does not wrap are walls, rows below it the floor (when solid), rows above it empty. */
function cellFlags(col: i32, row: i32): i32 {
  const cols = th(T_COLS), rows = th(T_ROWS);
  if (row < 0) return 0;
  if (row >= rows) return th(T_FLOOR) != 0 ? CELL_PLATFORM : 0;
  if (col < 0 || col >= cols) {
    if (th(T_WRAP) == 0) return CELL_PLATFORM;
    col %= cols;
    if (col < 0) col += cols;
  }
  return u8At(th(T_CELLS) + row * cols + col);
}

// @ts-ignore: decorator
@inline function tileSize(): f64 { return f64At(th(T_PARAMS) + (P_TILE << 3)); }

// @ts-ignore: decorator
@inline function overlap(ax0: f64, ay0: f64, ax1: f64, ay1: f64, bx0: f64, by0: f64, bx1: f64, by1: f64): bool {
  return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

// ---- four-sensor characters ----------------------------------------------------------------

/** charOthers' passes. */
export const PASS_SIDES = 0;
export const PASS_VERTICAL = 1;

/**
 * PASS_SIDES: the side sensors of the character (C_*) against solid tile cells and polyhedra:
 * raises C_ACC_A (where the left sensor is pushed to) and lowers C_ACC_B (the right sensor's), as
 * rects do. PASS_VERTICAL: its top and bottom sensors (C_X after the side pushes) against solid and
 * one-way tile cells, polyhedra and surfaces: lowers the ground C_ACC_A, raises the ceiling C_ACC_B.
 * One function with two call sites, so binaryen keeps it out of the character loop: inlined there,
 * it would make that loop too big for V8 to inline the rect queries into it in the js backend
 * (whose doubles would then be boxed at each call).
 */
export function charOthers(pass: i32): void {
  if (pass == PASS_SIDES) {
    if (worldHasTiles()) tileSides();
    if (ph(P_POLY_COUNT) > 0) { masterBox(); eachPlatformNear(ACT_SIDES); }
  } else {
    if (worldHasTiles()) tileVertical();
    if (worldHasPlatforms()) { masterBox(); eachPlatformNear(ACT_VERTICAL); }
  }
}

/** The character's master box as the box eachPlatformNear searches. */
function masterBox(): void {
  const x = sc(C_X), y = sc(C_Y);
  setSc(B_X0, x); setSc(B_Y0, y); setSc(B_X1, x + sc(C_W)); setSc(B_Y1, y + sc(C_H));
}

/**
 * Closed cell range of the master box: cells whose closed box touches it (as rects, touching
 * counts). In f64: a character may be as large, or as far out, as MAX_COORD, past what an i32
 * counts, and the ranges below are bounded before any loop runs over them.
 */
// @ts-ignore: decorator
@inline function firstCell(v: f64, inv: f64): f64 { return Math.ceil(v * inv) - 1; }
// @ts-ignore: decorator
@inline function lastCellOf(v: f64, inv: f64): f64 { return Math.floor(v * inv); }

/** Cells a range may hold before the sensors test representatives of it instead of every cell. */
const FEW_CELLS: f64 = 64;

/** Whether the cell ranges are short and inside i32's range: then every cell is tested, counted in i32. */
// @ts-ignore: decorator
@inline function few(c0: f64, c1: f64, r0: f64, r1: f64): bool {
  return c1 - c0 <= FEW_CELLS && r1 - r0 <= FEW_CELLS && Math.abs(c0) < 1073741824 && Math.abs(c1) < 1073741824 && r1 < 1073741824;
}

/**
 * Flags of the cell at (col, row) for a column and row in f64 (row >= 0): beyond the map's columns
 * a wall (or, wrapping, the column modulo cols), below its rows the floor.
 */
function cellFlagsAt(col: f64, row: f64): i32 {
  const cols = th(T_COLS), rows = th(T_ROWS);
  const r = row >= <f64>rows ? rows : <i32>row;
  if (col >= 0 && col < <f64>cols) return cellFlags(<i32>col, r);
  if (th(T_WRAP) == 0) return cellFlags(-1, r);
  let m = col % <f64>cols;
  if (m < 0) m += <f64>cols;
  const c = <i32>m;
  return cellFlags(c < cols ? c : 0, r);
}

/**
 * Interval k of the columns [c0, c1] the sensors test, [colFrom, colTo] (colTo < colFrom: none). A
 * range of at most FEW_CELLS is tested whole (k = 0). A longer one is tested through
 * representatives, which give the same extremes: every test only raises or lowers one, beyond the
 * map the columns are all alike (walls, or copies of the map when it wraps), and whether a cell
 * meets a sensor changes only at the range's ends and at the character's middle column `mid`. So:
 * each end, the columns around `mid` (a map's width either way when it wraps), and the map's own.
 */
// @ts-ignore: decorator
@inline function colFrom(k: i32, c0: f64, c1: f64, mid: f64): f64 {
  const wrap = th(T_WRAP) != 0;
  const a = c1 - c0 <= FEW_CELLS ? (k == 0 ? c0 : Infinity)
    : k == 0 ? c0 : k == 1 ? c1 - 1 : k == 2 ? mid - (wrap ? <f64>th(T_COLS) + 2 : 1) : k == 3 && !wrap ? -1 : Infinity;
  return Math.max(a, c0);
}
// @ts-ignore: decorator
@inline function colTo(k: i32, c0: f64, c1: f64, mid: f64): f64 {
  const wrap = th(T_WRAP) != 0;
  const b = c1 - c0 <= FEW_CELLS ? (k == 0 ? c1 : -Infinity)
    : k == 0 ? c0 + 1 : k == 1 ? c1 : k == 2 ? mid + (wrap ? <f64>th(T_COLS) + 2 : 1) : k == 3 && !wrap ? <f64>th(T_COLS) : -Infinity;
  return Math.min(b, c1);
}

/** Interval k of the rows [r0, r1] (r0 >= 0) the sensors test: the map's rows in it, and the floor's rows next to `near0` and `near1` (the floor's rows are all alike). */
// @ts-ignore: decorator
@inline function rowFrom(k: i32, r0: f64, r1: f64, near0: f64, near1: f64): f64 {
  const a = r1 - r0 <= FEW_CELLS ? (k == 0 ? r0 : Infinity) : k == 0 ? r0 : k == 1 ? near0 - 1 : near1 - 1;
  return Math.max(a, r0);
}
// @ts-ignore: decorator
@inline function rowTo(k: i32, r0: f64, r1: f64, near0: f64, near1: f64): f64 {
  const b = r1 - r0 <= FEW_CELLS ? (k == 0 ? r1 : -Infinity) : k == 0 ? Math.max(r0, <f64>th(T_ROWS)) + 1 : k == 1 ? near0 + 1 : near1 + 1;
  return Math.min(b, r1);
}

function tileSides(): void {
  const x = sc(C_X), y = sc(C_Y), w = sc(C_W), h = sc(C_H);
  const half = x + w * 0.5, sy0 = y + sc(C_STOP), sy1 = y + h - sc(C_STEP);
  const t = tileSize(), inv = 1 / t;
  let toRight = sc(C_ACC_A), toLeft = sc(C_ACC_B);
  const c0 = firstCell(x, inv), c1 = lastCellOf(x + w, inv), mid = Math.floor(half * inv);
  const r0 = Math.max(firstCell(sy0, inv), 0), r1 = lastCellOf(sy1, inv);
  if (few(c0, c1, r0, r1)) {
    // Every cell, in i32 (the common case: a character of a few cells inside i32's range).
    const ic0 = <i32>c0, ic1 = <i32>c1, ir1 = <i32>r1;
    for (let r = <i32>r0; r <= ir1; r++) {
      for (let c = ic0; c <= ic1; c++) {
        if ((cellFlags(c, r) & CELL_PLATFORM) == 0) continue;
        const cx0 = <f64>c * t, cy0 = <f64>r * t, cx1 = cx0 + t, cy1 = cy0 + t;
        if (overlap(x, sy0, half, sy1, cx0, cy0, cx1, cy1) && cx1 > toRight) toRight = cx1;
        if (overlap(half, sy0, x + w, sy1, cx0, cy0, cx1, cy1) && cx0 < toLeft) toLeft = cx0;
      }
    }
    setSc(C_ACC_A, toRight);
    setSc(C_ACC_B, toLeft);
    return;
  }
  for (let kr = 0; kr < 3; kr++) {
    const ra = rowFrom(kr, r0, r1, r0, r1), nr = rowTo(kr, r0, r1, r0, r1) - ra;
    for (let i = 0; <f64>i <= nr; i++) {
      const r = ra + <f64>i;
      for (let kc = 0; kc < 4; kc++) {
        const ca = colFrom(kc, c0, c1, mid), nc = colTo(kc, c0, c1, mid) - ca;
        for (let j = 0; <f64>j <= nc; j++) {
          const c = ca + <f64>j;
          if ((cellFlagsAt(c, r) & CELL_PLATFORM) == 0) continue;
          const cx0 = c * t, cy0 = r * t, cx1 = cx0 + t, cy1 = cy0 + t;
          if (overlap(x, sy0, half, sy1, cx0, cy0, cx1, cy1) && cx1 > toRight) toRight = cx1;
          if (overlap(half, sy0, x + w, sy1, cx0, cy0, cx1, cy1) && cx0 < toLeft) toLeft = cx0;
        }
      }
    }
  }
  setSc(C_ACC_A, toRight);
  setSc(C_ACC_B, toLeft);
}

/** Whether feet at `feet` at the frame start were at or above `top` (up to the rounding of a stored f32 position). */
// @ts-ignore: decorator
@inline function wasAbove(feet: f64, top: f64): bool {
  return feet <= top + (Math.abs(top) + Math.abs(sc(C_XS)) + sc(C_W) + sc(C_H)) * 9.5367431640625e-7; // 2^-20
}

function tileVertical(): void {
  const x = sc(C_X), y = sc(C_Y), w = sc(C_W), h = sc(C_H), inset = sc(C_INSET);
  const tx0 = x + inset, tx1 = x + w - inset;
  const by0 = y + h - sc(C_SBOTTOM), by1 = y + h, hy1 = y + sc(C_STOP);
  const feetStart = sc(C_YS) + h;
  const t = tileSize(), inv = 1 / t;
  let ground = sc(C_ACC_A), ceiling = sc(C_ACC_B);
  const c0 = firstCell(tx0, inv), c1 = lastCellOf(tx1, inv), mid = Math.floor((x + w * 0.5) * inv);
  const r0 = Math.max(firstCell(y, inv), 0), r1 = lastCellOf(by1, inv);
  // The head sensor's last row and the feet sensor's first: where the floor's rows meet them.
  const head = lastCellOf(hy1, inv), feetRow = firstCell(by0, inv);
  if (few(c0, c1, r0, r1)) {
    // Every cell, in i32 (the common case: a character of a few cells inside i32's range).
    const ic0 = <i32>c0, ic1 = <i32>c1, ir1 = <i32>r1;
    for (let r = <i32>r0; r <= ir1; r++) {
      for (let c = ic0; c <= ic1; c++) {
        const f = cellFlags(c, r);
        if ((f & (CELL_PLATFORM | CELL_ONE_WAY)) == 0) continue;
        const cx0 = <f64>c * t, cy0 = <f64>r * t, cx1 = cx0 + t, cy1 = cy0 + t;
        const feet = overlap(tx0, by0, tx1, by1, cx0, cy0, cx1, cy1);
        if ((f & CELL_PLATFORM) != 0) {
          if (feet && cy0 < ground) ground = cy0;
          if (overlap(tx0, y, tx1, hy1, cx0, cy0, cx1, cy1) && cy1 > ceiling) ceiling = cy1;
        } else if (feet && cy0 < ground && wasAbove(feetStart, cy0)) {
          ground = cy0; // one-way: the bottom sensor only, from above
        }
      }
    }
    setSc(C_ACC_A, ground);
    setSc(C_ACC_B, ceiling);
    return;
  }
  for (let kr = 0; kr < 3; kr++) {
    const ra = rowFrom(kr, r0, r1, head, feetRow), nr = rowTo(kr, r0, r1, head, feetRow) - ra;
    for (let i = 0; <f64>i <= nr; i++) {
      const r = ra + <f64>i;
      for (let kc = 0; kc < 4; kc++) {
        const ca = colFrom(kc, c0, c1, mid), nc = colTo(kc, c0, c1, mid) - ca;
        for (let j = 0; <f64>j <= nc; j++) {
          const c = ca + <f64>j;
          const f = cellFlagsAt(c, r);
          if ((f & (CELL_PLATFORM | CELL_ONE_WAY)) == 0) continue;
          const cx0 = c * t, cy0 = r * t, cx1 = cx0 + t, cy1 = cy0 + t;
          const feet = overlap(tx0, by0, tx1, by1, cx0, cy0, cx1, cy1);
          if ((f & CELL_PLATFORM) != 0) {
            if (feet && cy0 < ground) ground = cy0;
            if (overlap(tx0, y, tx1, hy1, cx0, cy0, cx1, cy1) && cy1 > ceiling) ceiling = cy1;
          } else if (feet && cy0 < ground && wasAbove(feetStart, cy0)) {
            // One-way: the bottom sensor only, from above (the step lands only while falling).
            ground = cy0;
          }
        }
      }
    }
  }
  setSc(C_ACC_A, ground);
  setSc(C_ACC_B, ceiling);
}

// What eachPlatformNear does with each shape it finds.
const ACT_SIDES = 0; // polySides
const ACT_VERTICAL = 1; // polyVertical, and surfGround for surfaces
const ACT_POINT = 2; // polyPoint
const ACT_DROP = 3; // polyDrop

/**
 * The polyhedra (and, for ACT_VERTICAL, the surfaces) listed in the platforms' grid cells under
 * the box B_*. A shape listed in several of those cells is tested once per cell: each test only
 * lowers or raises an extreme, so repeating one changes nothing.
 */
function eachPlatformNear(act: i32): void {
  const cols = ph(P_GRID_COLS), rows = ph(P_GRID_ROWS);
  const inv = <f64>headerF32P(P_GRID_INV), ox = <f64>headerF32P(P_GRID_OX), oy = <f64>headerF32P(P_GRID_OY);
  const fx0 = (sc(B_X0) - ox) * inv, fx1 = (sc(B_X1) - ox) * inv, fy0 = (sc(B_Y0) - oy) * inv, fy1 = (sc(B_Y1) - oy) * inv;
  const polys = ph(P_POLY_COUNT) > 0, surfs = act == ACT_VERTICAL && ph(P_SURF_COUNT) > 0;
  if (!(fx1 >= 0 && fy1 >= 0 && fx0 < <f64>cols && fy0 < <f64>rows)) {
    // Wholly beyond the grid: only the unbounded polyhedra of the outside cell can be there.
    if (polys) polyList(cols * rows, act);
    return;
  }
  const c0 = fx0 > 0 ? <i32>fx0 : 0, r0 = fy0 > 0 ? <i32>fy0 : 0;
  const c1 = fx1 < <f64>(cols - 1) ? <i32>fx1 : cols - 1, r1 = fy1 < <f64>(rows - 1) ? <i32>fy1 : rows - 1;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      if (polys) polyList(r * cols + c, act);
      if (surfs) surfList(r * cols + c);
    }
  }
}

// @ts-ignore: decorator
@inline function headerF32P(field: i32): f32 { return f32At(PLATFORMS_HEADER + (field << 2)); }

function polyList(cell: i32, act: i32): void {
  const starts = ph(P_POLY_CELLS), items = ph(P_POLY_ITEMS);
  const end = i32At(starts + (cell << 2) + 4);
  for (let j = i32At(starts + (cell << 2)); j < end; j++) {
    const k = i32At(items + (j << 2));
    if (act == ACT_SIDES) polySides(k);
    else if (act == ACT_VERTICAL) polyVertical(k);
    else if (act == ACT_POINT) polyPoint(k);
    else polyDrop(k);
  }
}

function surfList(cell: i32): void {
  const starts = ph(P_SURF_CELLS), items = ph(P_SURF_ITEMS);
  const end = i32At(starts + (cell << 2) + 4);
  for (let j = i32At(starts + (cell << 2)); j < end; j++) surfGround(i32At(items + (j << 2)));
}

/** Whether polyhedron k's extent (rounded outward) misses the box. */
// @ts-ignore: decorator
@inline function extentMisses(k: i32, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  const e = ph(P_POLY_EXTENT) + (k << 4);
  return !overlap(x0, y0, x1, y1, <f64>f32At(e), <f64>f32At(e + 4), <f64>f32At(e + 8), <f64>f32At(e + 12));
}

// @ts-ignore: decorator
@inline function setBox(x0: f64, y0: f64, x1: f64, y1: f64): void {
  setSc(R_X0, x0); setSc(R_Y0, y0); setSc(R_X1, x1); setSc(R_Y1, y1);
}

/** Side sensors against polyhedron k: pushed to its far side within the sensor's height band. */
function polySides(k: i32): void {
  const x = sc(C_X), y = sc(C_Y), w = sc(C_W), h = sc(C_H);
  const half = x + w * 0.5, sy0 = y + sc(C_STOP), sy1 = y + h - sc(C_STEP);
  if (extentMisses(k, x, sy0, x + w, sy1)) return;
  // Left sensor: the polyhedron within the band right of x reaches back to half or less.
  setBox(x, sy0, FAR, sy1);
  if (polyClip(k) && sc(E_X0) <= half && sc(E_X1) < UNBOUNDED && sc(E_X1) > sc(C_ACC_A)) setSc(C_ACC_A, sc(E_X1));
  // Right sensor: the polyhedron within the band left of x + w reaches half or more.
  setBox(-FAR, sy0, x + w, sy1);
  if (polyClip(k) && sc(E_X1) >= half && sc(E_X0) > -UNBOUNDED && sc(E_X0) < sc(C_ACC_B)) setSc(C_ACC_B, sc(E_X0));
}

/** Bottom and top sensors against polyhedron k: its highest and lowest points over the foot x-range. */
function polyVertical(k: i32): void {
  const x = sc(C_X), y = sc(C_Y), w = sc(C_W), h = sc(C_H), inset = sc(C_INSET);
  const tx0 = x + inset, tx1 = x + w - inset;
  if (extentMisses(k, tx0, y, tx1, y + h)) return;
  // Bottom sensor: the polyhedron over the feet, above their bottom, reaches down to the sensor.
  setBox(tx0, -FAR, tx1, y + h);
  if (polyClip(k) && sc(E_Y1) >= y + h - sc(C_SBOTTOM) && sc(E_Y0) > -UNBOUNDED && sc(E_Y0) < sc(C_ACC_A)) setSc(C_ACC_A, sc(E_Y0));
  // Top sensor: the polyhedron over the head's range, below the head's top, reaches up to the sensor.
  setBox(tx0, y, tx1, FAR);
  if (polyClip(k) && sc(E_Y0) <= y + sc(C_STOP) && sc(E_Y1) < UNBOUNDED && sc(E_Y1) > sc(C_ACC_B)) setSc(C_ACC_B, sc(E_Y1));
}

/**
 * Surface s as one-way ground for the bottom sensor: only with its front up (ny < 0, y-down);
 * its highest point under the feet, if the segment there meets the sensor and the feet at the
 * frame start were at or above the segment under the feet at the frame start (or, off its ends,
 * above its nearer end: stepping onto it from a ledge at its height).
 */
function surfGround(s: i32): void {
  const p = ph(P_SURFACES) + s * (SURF_STRIDE << 2);
  if (!(<f64>f32At(p + 4) < 0)) return;
  const ax = <f64>f32At(p + 36), ay = <f64>f32At(p + 40), bx = <f64>f32At(p + 44), by = <f64>f32At(p + 48);
  const x0 = ax < bx ? ax : bx, x1 = ax < bx ? bx : ax;
  const x = sc(C_X), y = sc(C_Y), w = sc(C_W), h = sc(C_H), inset = sc(C_INSET);
  const tx0 = x + inset, tx1 = x + w - inset;
  if (tx0 > x1 || tx1 < x0) return;
  const ya = segmentY(ax, ay, bx, by, tx0 > x0 ? tx0 : x0), yb = segmentY(ax, ay, bx, by, tx1 < x1 ? tx1 : x1);
  const lo = ya < yb ? ya : yb, hi = ya < yb ? yb : ya;
  if (!(lo <= y + h && hi >= y + h - sc(C_SBOTTOM) && lo < sc(C_ACC_A))) return;
  const sx0 = sc(C_XS) + inset, sx1 = sc(C_XS) + w - inset;
  const sa = segmentY(ax, ay, bx, by, sx0 < x0 ? x0 : sx0 > x1 ? x1 : sx0);
  const sb = segmentY(ax, ay, bx, by, sx1 < x0 ? x0 : sx1 > x1 ? x1 : sx1);
  if (wasAbove(sc(C_YS) + h, sa < sb ? sa : sb)) setSc(C_ACC_A, lo);
}

/** y of the segment (ax, ay)-(bx, by) at x within its x-range (ax != bx: surfaces with ny < 0 are not vertical). */
// @ts-ignore: decorator
@inline function segmentY(ax: f64, ay: f64, bx: f64, by: f64, x: f64): f64 {
  if (x == ax) return ay;
  if (x == bx) return by;
  return ay + (x - ax) * ((by - ay) / (bx - ax));
}

// ---- polyhedra within a box ----------------------------------------------------------------

/**
 * Polyhedron k (faces n . p <= o) cut to the box R_*: whether anything is left (touching counts),
 * and its extremes E_X0 .. E_Y1. A linear programme over at most faces + 4 lines: on each line,
 * the interval every other constraint leaves; the region's extremes lie at those intervals' ends.
 */
function polyClip(k: i32): bool {
  const starts = ph(P_POLY_START), base = ph(P_HALFSPACES);
  const f0 = i32At(starts + (k << 2)), n = i32At(starts + (k << 2) + 4) - f0 + 4;
  const hs = base + f0 * (HS_STRIDE << 2);
  let ex0: f64 = Infinity, ey0: f64 = Infinity, ex1: f64 = -Infinity, ey1: f64 = -Infinity;
  for (let i = 0; i < n; i++) {
    const nx = cnx(i, hs), ny = cny(i, hs), o = co(i, hs);
    const byX = Math.abs(ny) >= Math.abs(nx);
    // The line as p(u) = base + u * dir, u the x (byX) or y coordinate of the point.
    let lo: f64 = -Infinity, hi: f64 = Infinity;
    let ok = true;
    for (let j = 0; j < n && ok; j++) {
      if (j == i) continue;
      const mx = cnx(j, hs), my = cny(j, hs), q = co(j, hs);
      // m . p(u) <= q as a u <= b.
      const a = byX ? mx - my * (nx / ny) : my - mx * (ny / nx);
      const b = byX ? q - my * (o / ny) : q - mx * (o / nx);
      if (a > 0) { const u = b / a; if (u < hi) hi = u; }
      else if (a < 0) { const u = b / a; if (u > lo) lo = u; }
      else if (b < 0) ok = false;
      if (lo > hi) ok = false;
    }
    if (!ok) continue;
    // Both ends are finite: the box's four lines bound every line.
    const pa = byX ? (o - nx * lo) / ny : (o - ny * lo) / nx, pb = byX ? (o - nx * hi) / ny : (o - ny * hi) / nx;
    const xa = byX ? lo : pa, ya = byX ? pa : lo, xb = byX ? hi : pb, yb = byX ? pb : hi;
    ex0 = Math.min(ex0, Math.min(xa, xb)); ex1 = Math.max(ex1, Math.max(xa, xb));
    ey0 = Math.min(ey0, Math.min(ya, yb)); ey1 = Math.max(ey1, Math.max(ya, yb));
  }
  setSc(E_X0, ex0); setSc(E_Y0, ey0); setSc(E_X1, ex1); setSc(E_Y1, ey1);
  return ex0 <= ex1;
}

// Constraint i of polyClip: the box's four sides (x <= X1, -x <= -X0, y <= Y1, -y <= -Y0), then the faces at hs.
// @ts-ignore: decorator
@inline function cnx(i: i32, hs: i32): f64 {
  return i < 4 ? (i == 0 ? 1.0 : i == 1 ? -1.0 : 0.0) : <f64>f32At(hs + ((i - 4) << 4));
}
// @ts-ignore: decorator
@inline function cny(i: i32, hs: i32): f64 {
  return i < 4 ? (i == 2 ? 1.0 : i == 3 ? -1.0 : 0.0) : <f64>f32At(hs + ((i - 4) << 4) + 4);
}
// @ts-ignore: decorator
@inline function co(i: i32, hs: i32): f64 {
  return i < 4 ? (i == 0 ? sc(R_X1) : i == 1 ? -sc(R_X0) : i == 2 ? sc(R_Y1) : -sc(R_Y0)) : <f64>f32At(hs + ((i - 4) << 4) + 8);
}

// ---- tile characters -----------------------------------------------------------------------

/**
 * Whether the point (Q_X, Q_Y) is inside a rect-level rect or a polyhedron, on boundaries by the
 * tile map's rule (a point on a row line is in the row above, on a column line in the column to
 * its right: a rect holds [x0, x1) x (y0, y1]). Sets Q_LEFT, Q_RIGHT (the extremes of what holds it
 * along the point's horizontal line) and Q_TOP, Q_BOTTOM (along its vertical line), over every
 * shape holding it; +-Infinity where a shape is unbounded that way.
 */
export function pointInShapes(): bool {
  setSc(Q_LEFT, Infinity); setSc(Q_RIGHT, -Infinity); setSc(Q_TOP, Infinity); setSc(Q_BOTTOM, -Infinity);
  if (worldHasRects()) rectsAtPoint();
  if (ph(P_POLY_COUNT) > 0) {
    const px = sc(Q_X), py = sc(Q_Y);
    setSc(B_X0, px); setSc(B_Y0, py); setSc(B_X1, px); setSc(B_Y1, py);
    eachPlatformNear(ACT_POINT);
  }
  return sc(Q_LEFT) <= sc(Q_RIGHT);
}

/**
 * The rect level's instances whose master box touches the box B_* (closed), into RH_CANDS;
 * returns their number: rect_level.ts' treeQueryAt, which reads the box from scratch (a double
 * passed to treeQuery, too big for V8 to inline here, would be boxed in the js backend). Without
 * a tree, every master box is tested.
 */
function rectCandidates(): i32 {
  const x0 = sc(B_X0), y0 = sc(B_Y0), x1 = sc(B_X1), y1 = sc(B_Y1), out = rh(RH_CANDS);
  const boxp = rh(RH_INST_BOX), depth = rh(RH_DEPTH);
  let found = 0;
  if (depth < 0) {
    const n = rh(RH_INSTANCES);
    for (let i = 0; i < n; i++) {
      const o = boxp + (i << 5);
      if (overlap(x0, y0, x1, y1, f64At(o), f64At(o + 8), f64At(o + 16), f64At(o + 24))) { setI32(out + (found << 2), i); found++; }
    }
    return found;
  }
  return treeQueryAt(SCRATCH + (B_X0 << 3), out); // B_X0 .. B_Y1 are four consecutive slots
}

function rectsAtPoint(): void {
  const px = sc(Q_X), py = sc(Q_Y), cands = rh(RH_CANDS);
  setSc(B_X0, px); setSc(B_Y0, py); setSc(B_X1, px); setSc(B_Y1, py);
  const n = rectCandidates();
  let left = sc(Q_LEFT), right = sc(Q_RIGHT), top = sc(Q_TOP), bottom = sc(Q_BOTTOM);
  for (let k = 0; k < n; k++) {
    const i = i32At(cands + (k << 2));
    const end = rectEnd(i);
    for (let r = rectStart(i); r < end; r++) {
      worldRectInto(i, r, SCRATCH + (W_X0 << 3)); // W_X0 .. W_Y1 are four consecutive slots
      const rx0 = sc(W_X0), ry0 = sc(W_Y0), rx1 = sc(W_X1), ry1 = sc(W_Y1);
      if (!(rx0 <= px && px < rx1 && ry0 < py && py <= ry1)) continue;
      if (rx0 < left) left = rx0;
      if (rx1 > right) right = rx1;
      if (ry0 < top) top = ry0;
      if (ry1 > bottom) bottom = ry1;
    }
  }
  setSc(Q_LEFT, left); setSc(Q_RIGHT, right); setSc(Q_TOP, top); setSc(Q_BOTTOM, bottom);
}

/** Polyhedron k against the point (Q_X, Q_Y), by the rule of pointInShapes. */
function polyPoint(k: i32): void {
  const px = sc(Q_X), py = sc(Q_Y);
  const starts = ph(P_POLY_START);
  const h0 = ph(P_HALFSPACES) + i32At(starts + (k << 2)) * (HS_STRIDE << 2);
  const h1 = ph(P_HALFSPACES) + i32At(starts + (k << 2) + 4) * (HS_STRIDE << 2);
  let x0: f64 = -Infinity, x1: f64 = Infinity, y0: f64 = -Infinity, y1: f64 = Infinity;
  for (let hp = h0; hp < h1; hp += HS_STRIDE << 2) {
    const nx = <f64>f32At(hp), ny = <f64>f32At(hp + 4), o = <f64>f32At(hp + 8);
    const d = nx * px + ny * py - o;
    // Faces facing up, or right when vertical, leave their boundary outside; the others keep it.
    if (ny < 0 || (ny == 0 && nx > 0) ? d >= 0 : d > 0) return;
    if (nx > 0) x1 = Math.min(x1, (o - ny * py) / nx); else if (nx < 0) x0 = Math.max(x0, (o - ny * py) / nx);
    if (ny > 0) y1 = Math.min(y1, (o - nx * px) / ny); else if (ny < 0) y0 = Math.max(y0, (o - nx * px) / ny);
  }
  if (x0 < sc(Q_LEFT)) setSc(Q_LEFT, x0);
  if (x1 > sc(Q_RIGHT)) setSc(Q_RIGHT, x1);
  if (y0 < sc(Q_TOP)) setSc(Q_TOP, y0);
  if (y1 > sc(Q_BOTTOM)) setSc(Q_BOTTOM, y1);
}

/**
 * The highest top crossed by a fall of the feet from Q_Y to Q_YMAX (at or below Q_Y, above
 * Q_YMAX) that a rect or a polyhedron has on the vertical line at Q_X or at Q_X1 (the two feet):
 * into Q_TOP (Infinity for none), and the bottom of that shape on that line into Q_BOTTOM (the
 * lowest, for equal tops).
 */
export function shapesTopBelow(): void {
  setSc(Q_TOP, Infinity);
  setSc(Q_BOTTOM, -Infinity);
  const xa = sc(Q_X), xb = sc(Q_X1), y0 = sc(Q_Y), y1 = sc(Q_YMAX);
  if (!(y0 < y1)) return;
  const lx = xa < xb ? xa : xb, rx = xa < xb ? xb : xa;
  if (worldHasRects()) {
    const cands = rh(RH_CANDS);
    setSc(B_X0, lx); setSc(B_Y0, y0); setSc(B_X1, rx); setSc(B_Y1, y1);
    const n = rectCandidates();
    for (let k = 0; k < n; k++) {
      const i = i32At(cands + (k << 2));
      const end = rectEnd(i);
      for (let r = rectStart(i); r < end; r++) {
        worldRectInto(i, r, SCRATCH + (W_X0 << 3)); // W_X0 .. W_Y1 are four consecutive slots
        const rx0 = sc(W_X0), ry0 = sc(W_Y0), rx1 = sc(W_X1);
        if (!(ry0 >= y0 && ry0 < y1)) continue;
        if ((rx0 <= xa && xa < rx1) || (rx0 <= xb && xb < rx1)) offerTop(ry0, sc(W_Y1));
      }
    }
  }
  if (ph(P_POLY_COUNT) > 0) {
    setSc(B_X0, lx); setSc(B_Y0, y0); setSc(B_X1, rx); setSc(B_Y1, y1);
    eachPlatformNear(ACT_DROP);
  }
}

/** Keeps (top, bottom) if its top is the highest so far (for equal tops, the lower bottom). */
// @ts-ignore: decorator
@inline function offerTop(top: f64, bottom: f64): void {
  const best = sc(Q_TOP);
  if (top < best || (top == best && bottom > sc(Q_BOTTOM))) { setSc(Q_TOP, top); setSc(Q_BOTTOM, bottom); }
}

/** polyDrop for one foot: polyhedron k's top on the vertical line at x, if it has one in [Q_Y, Q_YMAX). */
function polyDrop(k: i32): void {
  dropAt(k, Q_X);
  dropAt(k, Q_X1);
}

/** polyDrop for the foot whose x is in scratch slot `at`. */
function dropAt(k: i32, at: i32): void {
  const x = sc(at);
  const starts = ph(P_POLY_START);
  const h0 = ph(P_HALFSPACES) + i32At(starts + (k << 2)) * (HS_STRIDE << 2);
  const h1 = ph(P_HALFSPACES) + i32At(starts + (k << 2) + 4) * (HS_STRIDE << 2);
  let y0: f64 = -Infinity, y1: f64 = Infinity;
  for (let hp = h0; hp < h1; hp += HS_STRIDE << 2) {
    const nx = <f64>f32At(hp), ny = <f64>f32At(hp + 4), o = <f64>f32At(hp + 8);
    // The column rule of pointInShapes: a vertical face facing right leaves its line outside.
    if (ny == 0) { if (nx > 0 ? nx * x >= o : nx * x > o) return; }
    else if (ny > 0) y1 = Math.min(y1, (o - nx * x) / ny);
    else y0 = Math.max(y0, (o - nx * x) / ny);
  }
  if (y0 <= y1 && y0 >= sc(Q_Y) && y0 < sc(Q_YMAX)) offerTop(y0, y1);
}
