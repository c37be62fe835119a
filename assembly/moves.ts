// Bodies moved against the whole level in one call (layout/moves.ts): every body in a mask sweeps
// its velocity against the tile map's solid cells, the rect level's rects, the surfaces and the
// polyhedra, takes the earliest hit, and stops, slides or bounces there; nothing tunnels, however
// fast. y grows downward in every part.
//
// - Tiles (here): the swept body (a point, a circle or a box) against each solid cell's box, the
//   cells taken from the sweep's bounding box, piece by piece along long moves so that a fast body
//   costs the cells along its path. A body touching a cell is not hit by it unless it moves into it
//   (it slides along a floor of cells without snagging on the seams); a one-way cell stops only a
//   body coming down onto its top.
// - Rects: rectsCast (the quadtree, then master boxes, then rects), whose touching counts as a hit.
// - Surfaces and polyhedra: the platforms' castSegment (points, circles) or castBox (boxes).
// - The earliest hit wins; equal times go to the lower PART_*. A body that starts inside a shape
//   reports it with t = 0 and a zero normal, and stays where it is.
import {
  H_A, H_B, H_CAPACITY, H_GROUPS, H_KIND, H_X, H_Y, KIND_CIRCLE, KIND_NONE, KIND_POINT, KIND_RECT, MAX_COORD,
  PLATFORMS_HEADER, S_FIRST_INVALID, S_INVALID, WORLD_HEADER,
} from "../layout/grid.ts";
import {
  CAST_HIT, CAST_IN, H_HIT_F, H_HIT_I, H_VX, H_VY, MOVE_BAD_NUMBER, SWEEP_BOX, SWEEP_CIRCLE, W_CAST_HIT_F, W_CAST_HIT_I,
  W_CASTS, W_ONE_NX, SWEEP_POINT, W_ONE_NY, W_ONE_PART, W_ONE_RECT, W_ONE_SHAPE, W_ONE_T, MOVE_ITERATIONS, MOVE_TOO_LARGE, PART_NONE, PART_RECTS,
  PART_TILES, RESPONSE_BOUNCE, RESPONSE_SLIDE, RESPONSE_STOP, LEVEL_MOST_CELLS, LEVEL_PLATFORMS, LEVEL_RECTS, W_LEVEL_ALWAYS,
  W_LEVEL_CELLS, W_LEVEL_COLS, W_LEVEL_INV, W_LEVEL_OX, W_LEVEL_OY, W_LEVEL_ROWS, PARTS_POLYHEDRA, PARTS_RECTS, PARTS_SURFACES,
  PARTS_TILES, RESPONSE_BY_GROUP, W_RESPONSES, W_RESTITUTIONS, LEVEL_LIST_CELLS, W_LEVEL_RLISTED, W_LEVEL_RLISTS,
} from "../layout/moves.ts";
import { C_ID, C_NX, C_NY, C_PART, C_T, P_GRID_RADIUS, P_POLY_COUNT, P_SURF_COUNT } from "../layout/platforms.ts";
import { CAST_BOX, CAST_CIRCLE, CAST_SEGMENT, RH_CANDS, RH_INST_BOX, RH_INSTANCES } from "../layout/rects.ts";
import { CELL_ONE_WAY, CELL_PLATFORM, P_TILE, T_CELLS, T_COLS, T_FLOOR, T_PARAMS, T_ROWS, T_WRAP } from "../layout/tiles.ts";
import { castBox, castSegment } from "./balls.ts";
import { AT_GRID_COLS, AT_GRID_INV, AT_GRID_OX, AT_GRID_OY, AT_GRID_ROWS, AT_POLY_CELLS, AT_SURF_CELLS } from "./platform_grid.ts";
import { bestInst as rectInst, bestNx as rectNx, bestNy as rectNy, bestRect as rectBest, bestT as rectT, castRectsAmong, castRectsQuiet, stopOnPath, stopPush, stopT } from "./casts.ts";
import { rectStart, rh } from "./rect_level.ts";
import { th } from "./tile_map.ts";
import { fieldAt, hdr, headerF32, headerI32, setHdr } from "./header.ts";
import { f32At, f64At, i32At, setF32, setF64, setI32, SIMD, toF32, u32At, u8At } from "./memory.ts";

// The best hit of the current sweep (one body, one iteration): per-call scratch.
let bestT: f64 = 0;
let bestNx: f64 = 0;
let bestNy: f64 = 0;
let bestPart: i32 = 0;
let bestShape: i32 = 0;
let bestRect: i32 = 0;
// The bottom of the floor below the map (it has no bottom; this is past every valid coordinate).
const FLOOR_DEPTH: f64 = 1e36;
// The last cell test's hit.
let cellT: f64 = 0;
let cellNx: f64 = 0;
let cellNy: f64 = 0;

// @ts-ignore: decorator
@inline function offer(t: f64, nx: f64, ny: f64, part: i32, shape: i32, rect: i32): void {
  if (t < bestT || (t == bestT && part < bestPart)) {
    bestT = t; bestNx = nx; bestNy = ny; bestPart = part; bestShape = shape; bestRect = rect;
  }
}

/**
 * A body centred at (cx, cy) with half extents (hx, hy), rounded by r (a circle: hx = hy = r),
 * moving by (dx, dy), against the closed box (x0, y0, x1, y1). Sets cellT and the normal and
 * returns true on a hit in [0, 1]; a body that starts overlapping the box (open sets) hits at 0
 * with a zero normal. Touching without moving in is no hit; a grazing sweep (entry = exit) is none.
 */
function sweepBox(cx: f64, cy: f64, hx: f64, hy: f64, r: f64, dx: f64, dy: f64, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  const gx0 = x0 - hx, gx1 = x1 + hx, gy0 = y0 - hy, gy1 = y1 + hy;
  if (cx > gx0 && cx < gx1 && cy > gy0 && cy < gy1) {
    if (r == 0 || inRounded(cx, cy, r, x0, y0, x1, y1)) {
      cellT = 0; cellNx = 0; cellNy = 0;
      return true;
    }
    // A circle whose centre starts in a corner square of the grown box, outside the corner's
    // circle: it can only come in through that circle (the slabs' entries are behind it).
    return cornerHit(cx, cy, dx, dy, r, cx < x0 ? x0 : x1, cy < y0 ? y0 : y1);
  }
  // The slabs' entries and exits picked by the motion's sign (gx0 < gx1: the near side comes first
  // along it) rather than by comparing them, a branch that goes either way from bullet to bullet.
  let tn: f64 = -Infinity, tf: f64 = Infinity, nx: f64 = 0, ny: f64 = 0;
  if (dx == 0) {
    if (!(cx > gx0 && cx < gx1)) return false;
  } else {
    const ta = (gx0 - cx) / dx, tb = (gx1 - cx) / dx, right = dx > 0;
    tn = select<f64>(ta, tb, right); tf = select<f64>(tb, ta, right); nx = select<f64>(-1, 1, right);
  }
  if (dy == 0) {
    if (!(cy > gy0 && cy < gy1)) return false;
  } else {
    const ta = (gy0 - cy) / dy, tb = (gy1 - cy) / dy, down = dy > 0;
    const ten = select<f64>(ta, tb, down), tex = select<f64>(tb, ta, down), later = ten > tn;
    tn = select<f64>(ten, tn, later); nx = select<f64>(0, nx, later); ny = select<f64>(select<f64>(-1, 1, down), 0, later);
    tf = select<f64>(tex, tf, tex < tf);
  }
  if ((<i32>!(tn < tf) | <i32>(tn < 0) | <i32>(tn > 1)) != 0) return false;
  if (r > 0) {
    // A circle: an entry beside a corner square of the grown box must meet the corner's circle.
    const px = cx + tn * dx, py = cy + tn * dy;
    const kx = px < x0 ? x0 : px > x1 ? x1 : px, ky = py < y0 ? y0 : py > y1 ? y1 : py;
    if (kx != px && ky != py) return cornerHit(cx, cy, dx, dy, r, kx, ky);
  }
  cellT = tn; cellNx = nx; cellNy = ny;
  return true;
}

/** Whether the circle (cx, cy, r) overlaps the box's interior (open): the rounded box test. */
export function inRounded(cx: f64, cy: f64, r: f64, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  const kx = cx < x0 ? x0 : cx > x1 ? x1 : cx, ky = cy < y0 ? y0 : cy > y1 ? y1 : cy;
  const ex = cx - kx, ey = cy - ky;
  return ex * ex + ey * ey < r * r;
}

/** The moving circle's entry into the corner circle (kx, ky, r), in [0, 1]: sets cellT and the normal. */
function cornerHit(cx: f64, cy: f64, dx: f64, dy: f64, r: f64, kx: f64, ky: f64): bool {
  const fx = cx - kx, fy = cy - ky;
  const a = dx * dx + dy * dy, b = fx * dx + fy * dy, c = fx * fx + fy * fy - r * r;
  const disc = b * b - a * c;
  if (!(disc > 0) || b >= 0) return false;
  const t = (-b - Math.sqrt(disc)) / a;
  if (t < 0 || t > 1) return false;
  const hx = fx + t * dx, hy = fy + t * dy, len = Math.sqrt(hx * hx + hy * hy);
  cellT = t; cellNx = hx / len; cellNy = hy / len;
  return true;
}

/** Flags of a cell, y-down: columns beside the map are walls (or wrap), rows below are the floor. */
export function tileFlags(col: i32, row: i32, cols: i32, rows: i32, wrap: bool, floor: bool, cells: i32): i32 {
  if (row < 0) return 0;
  if (row >= rows) return floor ? CELL_PLATFORM : 0;
  if (col < 0 || col >= cols) {
    if (!wrap) return CELL_PLATFORM;
    col %= cols;
    if (col < 0) col += cols;
  }
  return u8At(cells + row * cols + col);
}

/**
 * Whether the cells of the sweep's box (x0, y0, x1, y1: the range castTiles' pieces take theirs
 * from) lie inside the map, are at most TILES_QUICK_CELLS, and hold no solid or one-way cell: then
 * castTiles finds nothing. Most sweeps of a bullet hell are that; the others take the pieces.
 */
// @ts-ignore: decorator
@inline function noSolidCells(x0: f64, y0: f64, x1: f64, y1: f64, inv: f64, cols: i32, rows: i32, cells: i32): bool {
  const fx0 = x0 * inv, fx1 = x1 * inv, fy0 = y0 * inv, fy1 = y1 * inv;
  if (!(fx0 >= 0 && fy0 >= 0 && fx1 < <f64>cols && fy1 < <f64>rows)) return false;
  const c0 = <i32>fx0, c1 = <i32>fx1, r0 = <i32>fy0, r1 = <i32>fy1;
  if (((c1 - c0) | (r1 - r0)) <= 1) return (cornerCells(cells, cols, c0, c1, r0, r1) & (CELL_PLATFORM | CELL_ONE_WAY)) == 0;
  if ((c1 - c0 + 1) * (r1 - r0 + 1) > TILES_QUICK_CELLS) return false;
  let any = 0;
  for (let r = r0; r <= r1; r++) {
    const row = cells + r * cols;
    for (let c = c0; c <= c1; c++) any |= u8At(row + c);
  }
  return (any & (CELL_PLATFORM | CELL_ONE_WAY)) == 0;
}

/**
 * The flags (bytes at `cells`, `cols` a row) of the cells [c0, c1] x [r0, r1] of a range at most 2
 * x 2, or'ed: its four corner cells, some of them the same. Four loads and no loop, where a loop's
 * varying length costs a mispredicted branch for most of the bullets that take it.
 */
// @ts-ignore: decorator
@inline function cornerCells(cells: i32, cols: i32, c0: i32, c1: i32, r0: i32, r1: i32): i32 {
  const top = cells + r0 * cols, bottom = cells + r1 * cols;
  return u8At(top + c0) | u8At(top + c1) | u8At(bottom + c0) | u8At(bottom + c1);
}

/** Cells noSolidCells reads at most. */
const TILES_QUICK_CELLS = 9;

// The tile map and the level grid as the sweeps of one call read them (readyLevel): per-call scratch.
let tileCols = 0;
let tileRows = 0;
let tileCells = 0;
let tileSize: f64 = 0;
let tileInv: f64 = 0;
let tileWrap = false;
let tileFloor = false;
let levelCols = 0;
let levelRows = 0;
let levelCells = 0;
let levelAlways = 0;
let levelOx: f64 = 0;
let levelOy: f64 = 0;
let levelInv: f64 = 0;
let levelLists = 0; // W_LEVEL_RLISTS, or 0 when the grid has no rect lists (W_LEVEL_RLISTED)

/** Reads the tile map's shape and the level grid's for the sweeps of a call, once rather than per sweep. */
function readyLevel(): void {
  tileCols = th(T_COLS);
  tileRows = th(T_ROWS);
  tileCells = th(T_CELLS);
  tileSize = f64At(th(T_PARAMS) + (P_TILE << 3));
  tileInv = 1 / tileSize;
  tileWrap = th(T_WRAP) != 0;
  tileFloor = th(T_FLOOR) != 0;
  levelCols = i32At(wo(W_LEVEL_COLS));
  levelRows = i32At(wo(W_LEVEL_ROWS));
  levelCells = i32At(wo(W_LEVEL_CELLS));
  levelAlways = i32At(wo(W_LEVEL_ALWAYS));
  levelOx = f64At(wo(W_LEVEL_OX));
  levelOy = f64At(wo(W_LEVEL_OY));
  levelInv = f64At(wo(W_LEVEL_INV));
  levelLists = i32At(wo(W_LEVEL_RLISTED)) != 0 ? i32At(wo(W_LEVEL_RLISTS)) : 0;
}

/**
 * The body against the solid cells whose boxes meet the part of its sweep between s0 and s1 (of
 * the whole move): offers the earliest hit. Long moves go piece by piece, each piece's bounding box
 * at most about a cell wide, and stop at the first piece whose cells hold a hit within it.
 */
function castTiles(cx: f64, cy: f64, hx: f64, hy: f64, r: f64, dx: f64, dy: f64): void {
  const cols = tileCols, rows = tileRows;
  if (cols <= 0 || rows <= 0) return;
  const cells = tileCells, size = tileSize, inv = tileInv;
  const wrap = tileWrap, floor = tileFloor;
  const span = Math.max(Math.abs(dx), Math.abs(dy)) * inv;
  // One piece when 1 / size overflows (a subnormal tile): every piece's cells are then the same
  // infinite or NaN columns and rows, so splitting the move cannot stop it sooner, and the one
  // piece's cells hold every piece's.
  const pieces = span > 1 && inv < Infinity ? <i32>Math.min(Math.ceil(span), <f64>(1 << 20)) : 1;
  let found = false, foundT: f64 = Infinity, fnx: f64 = 0, fny: f64 = 0, fcell = -1;
  if (pieces == 1) {
    // One piece whose cells all lie inside the map (most moves that meet a solid cell): the cells
    // the loop below would test, in the same order, with none of its clamps, windows or skips.
    const c0 = Math.floor((Math.min(cx, cx + dx) - hx) * inv), c1 = Math.floor((Math.max(cx, cx + dx) + hx) * inv);
    const fr0 = Math.floor((Math.min(cy, cy + dy) - hy) * inv), fr1 = Math.floor((Math.max(cy, cy + dy) + hy) * inv);
    if (c0 >= 0 && c1 < <f64>cols && fr0 >= 0 && fr1 < <f64>rows) {
      const first = <i32>c0, last = <i32>(c1 - c0), r1 = <i32>fr1;
      for (let row = <i32>fr0; row <= r1; row++) {
        const line = cells + row * cols, y0 = <f64>row * size, y1 = y0 + size;
        for (let i = 0; i <= last; i++) {
          const flags = u8At(line + first + i);
          if ((flags & (CELL_PLATFORM | CELL_ONE_WAY)) == 0) continue;
          const x0 = (c0 + <f64>i) * size;
          if (!cellHit(flags, cx, cy, hx, hy, r, dx, dy, x0, y0, x0 + size, y1)) continue;
          if (cellT < foundT) {
            foundT = cellT; fnx = cellNx; fny = cellNy; fcell = row * cols + first + i;
          }
        }
      }
      offerTiles(foundT, fnx, fny, fcell, floor, rows, size, cy, hy, dy);
      return;
    }
  }
  // The last piece's cells (after the clamps): a cell it tested gives the same entry time again
  // (each cell's time is the whole move's) and cannot replace the earliest (strictly earlier
  // wins), so a piece tests only the cells the last one did not, and none when they all lie among
  // them. A body larger than the map, or a tile far smaller than the move, clamps piece after piece
  // to (nearly) the same cells: up to 2^20 pieces, each over the whole map, where the cells new to
  // each piece give the same answer.
  let pc0: f64 = Infinity, pc1: f64 = -Infinity, pr0 = 1, pr1 = 0;
  // On a wrapping map, the rows done: those whose columns, all of them, the pieces tested while
  // the body was in the row, so later pieces have nothing left to test there (the body meets each
  // of a row's columns within cols + 2 columns of travel). They are the rows the body passed
  // first, one run. A move along its rows (dy 0) has nothing left to test once they are done; any
  // other has nothing until it enters the next row. Only a move whose box sweeps about `cols`
  // columns or more can finish a row (one column of margin for rounding), so shorter ones (every
  // bullet's) keep no such account.
  const rowsDone = wrap && dx != 0 && (Math.abs(dx) + 2 * hx) * inv >= <f64>(cols - 1);
  let doneLo = 1, doneHi = 0;
  for (let k = 0; k < pieces && !found; k++) {
    const s0 = <f64>k / <f64>pieces, s1 = <f64>(k + 1) / <f64>pieces;
    const ax = cx + dx * s0, bx = cx + dx * s1, ay = cy + dy * s0, by = cy + dy * s1;
    // Columns in f64: a piece of a long move can span more columns than an i32 counts (up to
    // MAX_COORD / size), and the clamps below must see the true span, not a saturated one.
    let c0 = Math.floor((Math.min(ax, bx) - hx) * inv), c1 = Math.floor((Math.max(ax, bx) + hx) * inv);
    // Rows above the map are empty; every row below it is one floor cell, row `rows`, of unbounded
    // depth. Columns beside a map that does not wrap are walls: the nearest one stands for the rest.
    // Rows clamped as f64 before the conversion (the js backend's lowering does not saturate).
    const fr0 = Math.floor((Math.min(ay, by) - hy) * inv), fr1 = Math.floor((Math.max(ay, by) + hy) * inv);
    const r0 = fr0 < 0 ? 0 : fr0 > <f64>rows ? rows : <i32>fr0, r1 = fr1 > <f64>rows ? rows : fr1 < -1 ? -1 : <i32>fr1;
    const uc0 = c0, uc1 = c1;
    let wrapped = false;
    if (!wrap) {
      if (c0 < -1) c0 = -1;
      if (c1 > cols) c1 = cols;
    } else if (c1 - c0 > <f64>(cols + 1)) {
      // Every cols + 2 columns of a wrapping map hold each of its columns: in each row, those
      // where the body enters the row, which it meets first there (rowStart below; where the piece
      // starts, for the rows it is in from the start).
      wrapped = dx != 0 && dy != 0;
      if (dx < 0) c0 = c1 - <f64>(cols + 1);
      else c1 = c0 + <f64>(cols + 1);
    }
    if (rowsDone && r0 >= doneLo && r1 <= doneHi) {
      // Nothing new until the body enters the next row (none above the map: rows there are
      // empty): on from the piece before the one it enters it in.
      const next = dy > 0 ? r1 + 1 : r0 - 1;
      if (dy == 0 || next < 0 || next > rows) break; // every row below the map is row `rows`
      const jump = Math.floor(rowEnter(next, rows, size, cy, hy, dy) * <f64>pieces) - 2;
      if (!(jump < <f64>pieces)) break;
      if (jump > <f64>k) k = <i32>jump;
      continue;
    }
    // No cells (a piece beside the map, past a clamp; no column at all when a tile so small that
    // 1 / size overflows makes them NaN, whose box no sweep meets), or none the last piece did not
    // test. (Taken before `first` below: the f64 remainder of a far column loops over its exponent bits.)
    if (!(c0 <= c1) || r1 < r0 || (!wrapped && c0 >= pc0 && c1 <= pc1 && r0 >= pr0 && r1 <= pr1)) {
      if (foundT <= s1 || (fr1 < 0 && !(dy > 0))) found = true; // above the map, not coming down: nothing more
      continue;
    }
    // At most cols + 2 columns from here on. The first one's cell index, i32: the column itself,
    // or on a wrapping map one the same number of columns along modulo cols when it is far out
    // (each row's own when the piece is wrapped: rowStart).
    const last = <i32>(c1 - c0), first = wrapped ? 0 : Math.abs(c0) < 1073741824 ? <i32>c0 : <i32>(c0 % <f64>cols);
    for (let row = r0; row <= r1; row++) {
      if (rowsDone && row >= doneLo && row <= doneHi) continue;
      let rc0 = c0, rowDone = false;
      if (rowsDone) {
        // The row is done once the pieces tested cols + 2 of its columns, all while the body was
        // deep in it (rowDeep). A shallow body's contacts can graze, and a graze far along a long
        // move rounds away where a deeper contact later does not.
        rowDeep(row, rows, size, cy, hy, dy);
        let done = false;
        if (wrapped) {
          // A wrapping piece that changes rows: this row's window starts where the body enters
          // it, or where the piece starts for a row the body is in from its start: deep in the
          // row all along the piece, the body crossed every column of it there.
          rc0 = rowStart(rowEnter(row, rows, size, cy, hy, dy), size, inv, cols, cx, hx, dx, s0, s1, uc0, uc1);
          done = deepIn <= s0 && deepOut >= s1;
        } else if (deepIn <= s1 && deepOut >= s1) {
          // Every piece since the body entered the row tested its columns from there to this
          // piece's end: done once those from where it was deep are cols + 2.
          const xe = cx + dx * Math.max(0, deepIn);
          done = dx > 0 ? c1 >= Math.floor((xe - hx) * inv) + <f64>(cols + 1) : c0 <= Math.floor((xe + hx) * inv) - <f64>(cols + 1);
        }
        rowDone = done;
      }
      const rfirst = !wrapped ? first : Math.abs(rc0) < 1073741824 ? <i32>rc0 : <i32>(rc0 % <f64>cols);
      // In a row the last piece tested, only the columns before and after its own (as offsets from
      // c0: up to `skipFrom`, then from `skipTo`), clamped as doubles before the conversions.
      const seen = !wrapped && row >= pr0 && row <= pr1;
      const skipFrom = seen ? <i32>Math.max(-1, Math.min(<f64>last, pc0 - c0 - 1)) : last;
      const skipTo = seen ? <i32>Math.min(<f64>(last + 1), Math.max(0, pc1 - c0 + 1)) : last + 1;
      let any = 0;
      for (let i = 0; i <= last; i++) {
        if (i > skipFrom && i < skipTo) i = skipTo;
        if (i > last) break;
        const col = rfirst + i;
        const flags = tileFlags(col, row, cols, rows, wrap, floor, cells);
        any |= flags;
        if ((flags & (CELL_PLATFORM | CELL_ONE_WAY)) == 0) continue;
        const x0 = (rc0 + <f64>i) * size, y0 = <f64>row * size, y1 = row < rows ? y0 + size : FLOOR_DEPTH;
        if (!cellHit(flags, cx, cy, hx, hy, r, dx, dy, x0, y0, x0 + size, y1)) continue;
        if (cellT < foundT) {
          foundT = cellT; fnx = cellNx; fny = cellNy;
          fcell = row >= rows || (!wrap && (col < 0 || col >= cols)) ? -1 : row * cols + ((col % cols) + cols) % cols;
        }
      }
      // A wrapped window holds every column of the row: with no cell among them that can stop the
      // body, there is nothing in the row to meet, deep or not. A one-way cell stops only a body
      // coming down whose bottom starts at or above the row's top (cellHit's own test).
      const stops = CELL_PLATFORM | (dy > 0 && !(cy + hy > <f64>row * size) ? CELL_ONE_WAY : 0);
      if (rowDone || (wrapped && (any & stops) == 0)) {
        if (doneLo > doneHi) { doneLo = row; doneHi = row; } else if (row == doneHi + 1) doneHi = row; else if (row == doneLo - 1) doneLo = row;
        // A done row apart from a run the body has left behind (rows before this piece's, where
        // no later piece goes): the run that counts for later pieces starts here. Else rows done a
        // piece apart, a row between them not yet, would keep every later row out of the run.
        else if (dy > 0 ? doneHi < r0 : dy < 0 && doneLo > r1) { doneLo = row; doneHi = row; }
      }
    }
    if (wrapped) {
      pc0 = Infinity; pc1 = -Infinity; // its rows' windows are not one range
    } else {
      pc0 = c0; pc1 = c1; pr0 = r0; pr1 = r1;
    }
    if (foundT <= s1) found = true;
  }
  offerTiles(foundT, fnx, fny, fcell, floor, rows, size, cy, hy, dy);
}

/**
 * Whether the body meets the cell (x0, y0, x1, y1) with flags `flags` (solid or one-way): a
 * one-way cell stops only a body coming down onto its top, from at or above it. Sets cellT and
 * the normal on a hit (sweepBox).
 */
function cellHit(flags: i32, cx: f64, cy: f64, hx: f64, hy: f64, r: f64, dx: f64, dy: f64, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  if ((flags & CELL_PLATFORM) != 0) return sweepBox(cx, cy, hx, hy, r, dx, dy, x0, y0, x1, y1);
  return dy > 0 && !(cy + hy > y0) && sweepBox(cx, cy, hx, hy, r, dx, dy, x0, y0, x1, y1) && cellNy == -1;
}

/** castTiles' end: the earliest cell hit found (foundT, Infinity for none) or the floor's, offered. */
function offerTiles(foundT: f64, fnx: f64, fny: f64, fcell: i32, floor: bool, rows: i32, size: f64, cy: f64, hy: f64, dy: f64): void {
  // The floor, solid in every column, met where the body's bottom reaches its top. The pieces find
  // it there too, but for a move so long that a tile is narrower than the spacing of f64 positions
  // along it, where every cell box rounds to nothing: the floor stops such a move all the same.
  if (floor && dy > 0) {
    const tf = (<f64>rows * size - hy - cy) / dy;
    if (tf >= 0 && tf <= 1 && !(foundT <= tf + 1e-9)) {
      foundT = tf; fnx = 0; fny = -1; fcell = -1;
    }
  }
  if (foundT <= 1) offer(foundT, fnx, fny, PART_TILES, fcell, -1);
}

/**
 * When the body (centre y cy, half height hy, moving by dy, dy != 0) enters `row`, as a fraction
 * of its move: where its leading edge meets the row's far side.
 */
function rowEnter(row: i32, rows: i32, size: f64, cy: f64, hy: f64, dy: f64): f64 {
  const top = <f64>row * size, bottom = row < rows ? top + size : FLOOR_DEPTH;
  return dy > 0 ? (top - hy - cy) / dy : (bottom + hy - cy) / dy;
}

// rowDeep's answer: from when to when (fractions of the move) the body is deep in the row.
let deepIn: f64 = 0;
let deepOut: f64 = 0;

/**
 * When the body (centre y cy, half height hy, moving by dy) is deep in `row`: in it by at least
 * min(hy, size / 2), its centre inside the row or half the row inside it. Into deepIn and
 * deepOut (-Infinity and Infinity for dy 0).
 */
function rowDeep(row: i32, rows: i32, size: f64, cy: f64, hy: f64, dy: f64): void {
  const top = <f64>row * size, bottom = row < rows ? top + size : FLOOR_DEPTH, depth = Math.min(hy, size * 0.5);
  if (dy == 0) {
    // Along its rows the body is as deep all the way: the cols + 2 columns from its start, where
    // the positions are the most exact of the move, give each row's answer.
    deepIn = -Infinity;
    deepOut = Infinity;
  } else if (dy > 0) {
    deepIn = (top + depth - hy - cy) / dy;
    deepOut = (bottom - depth + hy - cy) / dy;
  } else {
    deepIn = (bottom - depth + hy - cy) / dy;
    deepOut = (top + depth - hy - cy) / dy;
  }
}

/**
 * The first of the cols + 2 columns castTiles tests in a row for a piece [s0, s1] of a move that
 * spans more than a wrapping map's width and changes rows: from the column where the body (centre
 * x cx, half width hx, moving by dx) enters the row (at `enter`, rowEnter), in the direction it
 * moves, within the piece's columns [uc0, uc1]. The body meets each of the row's columns first
 * there.
 */
function rowStart(enter: f64, size: f64, inv: f64, cols: i32, cx: f64, hx: f64, dx: f64, s0: f64, s1: f64, uc0: f64, uc1: f64): f64 {
  const x = cx + dx * Math.min(s1, Math.max(s0, enter));
  const c = dx < 0 ? Math.floor((x + hx) * inv) - <f64>(cols + 1) : Math.floor((x - hx) * inv);
  return Math.max(uc0, Math.min(uc1 - <f64>(cols + 1), c));
}

/**
 * The body against the rect level's rects (rectsCast: centre and half extents). Its candidates are
 * the instances the level grid lists in the cells under the sweep's box whose master box meets it,
 * or, for a sweep over more than LEVEL_LIST_CELLS cells or a level without lists, the quadtree's.
 */
function castRects(kind: i32, cx: f64, cy: f64, hx: f64, hy: f64, dx: f64, dy: f64): void {
  const mode = kind == KIND_RECT ? CAST_BOX : kind == KIND_CIRCLE && hx > 0 ? CAST_CIRCLE : CAST_SEGMENT;
  const n = listedRects(cx, cy, hx, hy, dx, dy);
  if (n == 0) return;
  if (!(n > 0 ? castRectsAmong(n, mode, cx, cy, dx, dy, hx, hy) : castRectsQuiet(mode, cx, cy, dx, dy, hx, hy))) return;
  // The rect's index within its instance's prefab.
  offer(rectT, rectNx, rectNy, PART_RECTS, rectInst, rectBest - rectStart(rectInst));
}

/** The body against the surfaces and polyhedra (castSegment for points and circles, castBox for boxes). */
function castPlatforms(kind: i32, cx: f64, cy: f64, hx: f64, hy: f64, dx: f64, dy: f64, surfaces: bool, polyhedra: bool): void {
  const hit = kind == KIND_RECT ? castBox(cx - hx, cy - hy, 2 * hx, 2 * hy, dx, dy, surfaces, polyhedra)
    : castSegment(cx, cy, cx + dx, cy + dy, hx, surfaces, polyhedra);
  if (hit == 0) return;
  const at = PLATFORMS_HEADER;
  offer(<f64>headerF32(at, C_T), <f64>headerF32(at, C_NX), <f64>headerF32(at, C_NY), headerI32(at, C_PART), headerI32(at, C_ID), -1);
}

/**
 * The LEVEL_* bits of the level grid's cells that the box swept by a body (x0, y0, x1, y1) meets,
 * with the grid's `always` bits: the rects and platforms the sweep can
 * hit. Every bit when there is no grid or the sweep meets more than LEVEL_MOST_CELLS cells. The
 * shapes lie inside the grid, so cells past its edges hold nothing.
 */
// @ts-ignore: decorator
@inline function levelBits(x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  sweepC0 = 0; sweepC1 = -1; // no cells unless the grid's cells are read below
  const cols = levelCols;
  if (cols == 0) return LEVEL_RECTS | LEVEL_PLATFORMS;
  const rows = levelRows, always = levelAlways, ox = levelOx, oy = levelOy, inv = levelInv;
  const fx0 = (x0 - ox) * inv, fx1 = (x1 - ox) * inv, fy0 = (y0 - oy) * inv, fy1 = (y1 - oy) * inv;
  if (fx1 < 0 || fy1 < 0 || fx0 >= <f64>cols || fy0 >= <f64>rows) return always;
  // Clamped before the conversions, so that none sees a value past the i32 range.
  const c0 = fx0 < 0 ? 0 : <i32>fx0, c1 = fx1 >= <f64>cols ? cols - 1 : <i32>fx1;
  const r0 = fy0 < 0 ? 0 : <i32>fy0, r1 = fy1 >= <f64>rows ? rows - 1 : <i32>fy1;
  if ((c1 - c0 + 1) * (r1 - r0 + 1) > LEVEL_MOST_CELLS) return LEVEL_RECTS | LEVEL_PLATFORMS;
  sweepC0 = c0; sweepC1 = c1; sweepR0 = r0; sweepR1 = r1;
  const cells = levelCells;
  if (((c1 - c0) | (r1 - r0)) <= 1) return always | cornerCells(cells, cols, c0, c1, r0, r1);
  let bits = always;
  for (let r = r0; r <= r1; r++) {
    const row = cells + r * cols;
    for (let c = c0; c <= c1; c++) bits |= u8At(row + c);
  }
  return bits;
}

// The level grid cells levelBits read for the current sweep: [sweepC0, sweepC1] x [sweepR0,
// sweepR1], empty (sweepC1 < sweepC0) when it read none. Per-call scratch.
let sweepC0 = 0;
let sweepC1 = -1;
let sweepR0 = 0;
let sweepR1 = -1;

/**
 * The rect instances the level grid lists in the cells levelBits read for the box swept by a body
 * (centre, half extents: the box the rect cast takes) whose master box meets it, into RH_CANDS,
 * each once; returns their number, or -1 when the grid has no lists or levelBits read no cells or
 * more than LEVEL_LIST_CELLS (the caller asks the quadtree).
 */
function listedRects(cx: f64, cy: f64, hx: f64, hy: f64, dx: f64, dy: f64): i32 {
  const c0 = sweepC0, c1 = sweepC1, r0 = sweepR0, r1 = sweepR1;
  if (levelLists == 0 || c1 < c0 || (c1 - c0 + 1) * (r1 - r0 + 1) > LEVEL_LIST_CELLS) return -1;
  const x0 = Math.min(cx, cx + dx) - hx, x1 = Math.max(cx, cx + dx) + hx;
  const y0 = Math.min(cy, cy + dy) - hy, y1 = Math.max(cy, cy + dy) + hy;
  const lists = levelLists, cols = levelCols, rows = levelRows;
  const items = lists + ((cols * rows + 1) << 2), cands = rh(RH_CANDS), boxes = rh(RH_INST_BOX);
  let n = 0;
  for (let r = r0; r <= r1; r++) {
    // A row's cells c0..c1 are consecutive, and so are their lists: one run of items.
    const at = lists + ((r * cols + c0) << 2), end = i32At(at + ((c1 - c0 + 1) << 2));
    for (let q = i32At(at); q < end; q++) {
      const i = i32At(items + (q << 2)), o = boxes + (i << 5);
      // The master box against the sweep's, the four comparisons or'ed: one branch, not four.
      if (((<i32>!(f64At(o) <= x1)) | (<i32>!(x0 <= f64At(o + 16))) | (<i32>!(f64At(o + 8) <= y1)) | (<i32>!(y0 <= f64At(o + 24)))) != 0) continue;
      let seen = false;
      for (let k = 0; k < n && !seen; k++) seen = i32At(cands + (k << 2)) == i;
      if (seen) continue;
      setI32(cands + (n << 2), i);
      n++;
    }
  }
  return n;
}

/**
 * The earliest hit of a body (KIND_*; centre, half extents, rounded by `round` for a circle) moving
 * by (dx, dy) against every part the level has: bestPart is PART_NONE when nothing is hit. The
 * rects and platforms are cast only where the level grid has them near the sweep. The call that
 * sweeps has read the tile map and the level grid (readyLevel).
 */
function sweepLevel(kind: i32, cx: f64, cy: f64, hx: f64, hy: f64, round: f64, dx: f64, dy: f64, parts: i32): void {
  bestT = Infinity; bestPart = PART_NONE; bestShape = -1; bestRect = -1; bestNx = 0; bestNy = 0;
  // The box the sweep covers, which both grids' cells are taken from.
  const x0 = Math.min(cx, cx + dx) - hx, x1 = Math.max(cx, cx + dx) + hx;
  const y0 = Math.min(cy, cy + dy) - hy, y1 = Math.max(cy, cy + dy) + hy;
  // Most sweeps meet no solid cell (noSolidCells, inline): only the others call castTiles.
  if ((parts & PARTS_TILES) != 0 && !noSolidCells(x0, y0, x1, y1, tileInv, tileCols, tileRows, tileCells)) {
    castTiles(cx, cy, hx, hy, round, dx, dy);
  }
  // A hit at t = 0 (the body starts inside) is final: no time is earlier, and a later part loses the tie.
  if ((parts & ~PARTS_TILES) == 0 || bestT == 0) return;
  const bits = levelBits(x0, y0, x1, y1);
  if ((parts & PARTS_RECTS) != 0 && (bits & LEVEL_RECTS) != 0) castRects(kind, cx, cy, hx, hy, dx, dy);
  if ((parts & (PARTS_SURFACES | PARTS_POLYHEDRA)) != 0 && (bits & LEVEL_PLATFORMS) != 0 && bestT != 0) {
    castPlatforms(kind, cx, cy, hx, hy, dx, dy, (parts & PARTS_SURFACES) != 0, (parts & PARTS_POLYHEDRA) != 0);
  }
}

// @ts-ignore: decorator
@inline export function hasTiles(): bool {
  return th(T_COLS) > 0 && th(T_ROWS) > 0;
}

// @ts-ignore: decorator
@inline export function hasRects(): bool {
  return rh(RH_INSTANCES) > 0;
}

// @ts-ignore: decorator
@inline export function hasPlatforms(): bool {
  return headerI32(PLATFORMS_HEADER, P_SURF_COUNT) + headerI32(PLATFORMS_HEADER, P_POLY_COUNT) > 0;
}

/** The PARTS_* of `parts` the level has. */
// @ts-ignore: decorator
@inline function present(parts: i32): i32 {
  const surfaces = headerI32(PLATFORMS_HEADER, P_SURF_COUNT) > 0, polyhedra = headerI32(PLATFORMS_HEADER, P_POLY_COUNT) > 0;
  return parts & (select(PARTS_TILES, 0, hasTiles()) | select(PARTS_RECTS, 0, hasRects()) | select(PARTS_SURFACES, 0, surfaces) |
    select(PARTS_POLYHEDRA, 0, polyhedra));
}

/** The platforms' grid radius: what a body or cast may reach from its centre (unbounded without platforms). */
export function gridRadius(): f64 {
  const r = <f64>headerF32(PLATFORMS_HEADER, P_GRID_RADIUS);
  return r > 0 ? r : Infinity;
}

// @ts-ignore: decorator
@inline function wo(field: i32): i32 {
  return fieldAt(WORLD_HEADER, field);
}

/** Whether a position, a motion and sizes are finite numbers within the coordinate limit (NaN fails every comparison). */
// @ts-ignore: decorator
@inline export function usable(x: f64, y: f64, dx: f64, dy: f64, a: f64, b: f64): bool {
  return Math.abs(x) <= MAX_COORD && Math.abs(y) <= MAX_COORD && Math.abs(dx) <= MAX_COORD && Math.abs(dy) <= MAX_COORD &&
    a >= 0 && a <= MAX_COORD && b >= 0 && b <= MAX_COORD;
}

/** The body kind a sweep mode casts. */
// @ts-ignore: decorator
@inline function kindOf(mode: i32, a: f64): i32 {
  return mode == SWEEP_BOX ? KIND_RECT : mode == SWEEP_CIRCLE && a > 0 ? KIND_CIRCLE : KIND_POINT;
}

/**
 * One cast against every part of the level: a point (SWEEP_POINT), a box of half extents (a, b)
 * (SWEEP_BOX) or a circle of radius a (SWEEP_CIRCLE) centred on (x, y), moving by (dx, dy).
 * Returns 1 on a hit, with the hit in the W_ONE_* fields; 0 otherwise. The facade checks the sizes.
 */
export function castLevel(mode: i32, x: f64, y: f64, dx: f64, dy: f64, a: f64, b: f64, parts: i32): i32 {
  const kind = kindOf(mode, a);
  const hx = kind == KIND_POINT ? 0 : a, hy = kind == KIND_RECT ? b : hx;
  readyLevel();
  sweepLevel(kind, x, y, hx, hy, kind == KIND_CIRCLE ? a : 0, dx, dy, present(parts));
  const hit = bestPart != PART_NONE;
  setF64(wo(W_ONE_T), hit ? bestT : 1);
  setF64(wo(W_ONE_NX), bestNx);
  setF64(wo(W_ONE_NY), bestNy);
  setI32(wo(W_ONE_PART), bestPart);
  setI32(wo(W_ONE_SHAPE), bestShape);
  setI32(wo(W_ONE_RECT), bestRect);
  return hit ? 1 : 0;
}

/**
 * `count` casts of one mode from W_CASTS (x, y, dx, dy, a, b each) against every part of the level,
 * each one's closest hit into W_CAST_HIT_I / _F. Returns how many hit.
 */
export function castLevelMany(count: i32, mode: i32, parts: i32): i32 {
  parts = present(parts);
  const input = i32At(wo(W_CASTS)), hi = i32At(wo(W_CAST_HIT_I)), hf = i32At(wo(W_CAST_HIT_F));
  // Refused whole, before any cast, when one holds a value the sweep cannot take: -1 - its index.
  const radius = gridRadius();
  for (let k = 0; k < count; k++) {
    const p = input + k * (CAST_IN << 2);
    const x = <f64>f32At(p), y = <f64>f32At(p + 4), dx = <f64>f32At(p + 8), dy = <f64>f32At(p + 12);
    const a = mode == SWEEP_POINT ? 0 : <f64>f32At(p + 16), b = mode == SWEEP_BOX ? <f64>f32At(p + 20) : a;
    if (!usable(x, y, dx, dy, a, b) || (mode == SWEEP_BOX ? Math.sqrt(a * a + b * b) : a) > radius) {
      return -1 - k;
    }
  }
  let hits = 0;
  readyLevel();
  for (let k = 0; k < count; k++) {
    const p = input + k * (CAST_IN << 2);
    const x = <f64>f32At(p), y = <f64>f32At(p + 4), dx = <f64>f32At(p + 8), dy = <f64>f32At(p + 12);
    const a = <f64>f32At(p + 16), b = <f64>f32At(p + 20);
    const kind = kindOf(mode, a);
    const hx = kind == KIND_POINT ? 0 : a, hy = kind == KIND_RECT ? b : hx;
    sweepLevel(kind, x, y, hx, hy, kind == KIND_CIRCLE ? a : 0, dx, dy, parts);
    const o = k * (CAST_HIT << 2), hit = bestPart != PART_NONE;
    setI32(hi + o, bestPart);
    setI32(hi + o + 4, bestShape);
    setI32(hi + o + 8, bestRect);
    setF32(hf + o, toF32(hit ? bestT : 1));
    setF32(hf + o + 4, toF32(bestNx));
    setF32(hf + o + 8, toF32(bestNy));
    if (hit) hits++;
  }
  return hits;
}

/** Whether any body in the mask holds a value the sweep cannot take; sets S_INVALID / S_FIRST_INVALID. */
export function moveRefused(count: i32, mask: u32): bool {
  const xs = hdr(H_X), ys = hdr(H_Y), as = hdr(H_A), bs = hdr(H_B), vxs = hdr(H_VX), vys = hdr(H_VY);
  const radius = gridRadius();
  let s = 0;
  if (SIMD) {
    // Four slots at a time, whatever their kinds and groups: when every number is well inside
    // the limits (|v| <= QUICK_COORD, sizes in [0, QUICK_COORD] and at most the grid radius, which
    // bounds every kind's reach), none of them can be refused; otherwise the exact test below
    // takes the four.
    const most = f32x4.splat(QUICK_COORD), size = f32x4.splat(<f32>Math.min(<f64>QUICK_COORD, radius)), zero = f32x4.splat(0);
    for (; s + 4 <= count; s += 4) {
      const o = s << 2;
      const x = f32x4.abs(v128.load(xs + o)), y = f32x4.abs(v128.load(ys + o));
      const vx = f32x4.abs(v128.load(vxs + o)), vy = f32x4.abs(v128.load(vys + o));
      const a = v128.load(as + o), b = v128.load(bs + o);
      const moves = f32x4.le(f32x4.max(f32x4.max(x, y), f32x4.max(vx, vy)), most);
      const sizes = v128.and(f32x4.ge(f32x4.min(a, b), zero), f32x4.le(f32x4.max(a, b), size));
      if (i32x4.all_true(v128.and(moves, sizes))) continue;
      if (refusedAmong(s, s + 4, mask, radius)) return true;
    }
  }
  return refusedAmong(s, count, mask, radius);
}

/** The magnitude under which moveRefused's vector test passes a number: below MAX_COORD by more than any f32 rounding. */
const QUICK_COORD: f32 = 1e29;

/** moveRefused's exact test over the slots [from, to). */
function refusedAmong(from: i32, to: i32, mask: u32, radius: f64): bool {
  const xs = hdr(H_X), ys = hdr(H_Y), as = hdr(H_A), bs = hdr(H_B), gs = hdr(H_GROUPS), ks = hdr(H_KIND);
  const vxs = hdr(H_VX), vys = hdr(H_VY);
  for (let s = from; s < to; s++) {
    const kind = u8At(ks + s);
    if (kind == KIND_NONE || (u32At(gs + (s << 2)) & mask) == 0) continue;
    const o = s << 2;
    const x = <f64>f32At(xs + o), y = <f64>f32At(ys + o), a = <f64>f32At(as + o), b = <f64>f32At(bs + o);
    const vx = <f64>f32At(vxs + o), vy = <f64>f32At(vys + o);
    if (!usable(x, y, vx, vy, a, b)) {
      setHdr(S_INVALID, MOVE_BAD_NUMBER); setHdr(S_FIRST_INVALID, s);
      return true;
    }
    const reach = kind == KIND_RECT ? Math.sqrt(a * a + b * b) * 0.5 : kind == KIND_CIRCLE ? a : 0;
    if (reach > radius) {
      setHdr(S_INVALID, MOVE_TOO_LARGE); setHdr(S_FIRST_INVALID, s);
      return true;
    }
  }
  return false;
}

/**
 * Moves every live body in [0, count) with (groups & mask) != 0 by its velocity against the level,
 * resolving up to MOVE_ITERATIONS contacts with `response` (RESPONSE_*; `restitution` for bounces;
 * RESPONSE_BY_GROUP: each body's from the world's table, by its lowest group bit in the mask),
 * against the PARTS_* in `parts`.
 * Writes positions, velocities and each body's first hit (H_HIT_*); returns how many bodies hit
 * something, or -1, having changed nothing, when a body holds a value it cannot take (S_INVALID).
 */
export function moveBodies(count: i32, mask: u32, response: i32, restitution: f64, parts: i32): i32 {
  parts = present(parts);
  setHdr(S_INVALID, 0);
  if (moveRefused(count, mask)) return -1;
  const xs = hdr(H_X), ys = hdr(H_Y), as = hdr(H_A), bs = hdr(H_B), gs = hdr(H_GROUPS), ks = hdr(H_KIND);
  const vxs = hdr(H_VX), vys = hdr(H_VY), hi = hdr(H_HIT_I), hf = hdr(H_HIT_F);
  const plane = (hdr(H_CAPACITY) + 1) << 2; // bytes of one plane of CAPACITY + 1 slots
  const bounce = 1 + restitution;
  let hits = 0;
  readyLevel();
  for (let s = 0; s < count; s++) {
    const kind = u8At(ks + s), o = s << 2;
    if (kind == KIND_NONE || (u32At(gs + o) & mask) == 0) continue;
    const a = <f64>f32At(as + o), b = <f64>f32At(bs + o);
    const hx = kind == KIND_RECT ? a * 0.5 : kind == KIND_CIRCLE ? a : 0;
    const hy = kind == KIND_RECT ? b * 0.5 : hx;
    const round = kind == KIND_CIRCLE ? a : 0;
    // What the stores hold of the body: its top-left corner for a rect, else its centre.
    const ox = kind == KIND_RECT ? hx : 0, oy = kind == KIND_RECT ? hy : 0;
    let cx = <f64>f32At(xs + o) + ox, cy = <f64>f32At(ys + o) + oy;
    let vx = <f64>f32At(vxs + o), vy = <f64>f32At(vys + o);
    let dx = vx, dy = vy;
    let firstPart = PART_NONE, firstShape = -1, firstRect = -1, firstT: f64 = 1, firstNx: f64 = 0, firstNy: f64 = 0;
    let resp = response, bnc = bounce;
    for (let it = 0; it < MOVE_ITERATIONS && (dx != 0 || dy != 0); it++) {
      // Each sweep ends where the stores would put the body (its f32 position), so a move that
      // meets nothing ends exactly where the sweep found room: rounded afterwards, it could land
      // a hair inside a rounded corner or a slope, and a body that starts inside stays there.
      dx = <f64>toF32(cx - ox + dx) + ox - cx;
      dy = <f64>toF32(cy - oy + dy) + oy - cy;
      if (dx == 0 && dy == 0) break;
      sweepLevel(kind, cx, cy, hx, hy, round, dx, dy, parts);
      if (bestPart == PART_NONE) {
        cx += dx; cy += dy;
        break;
      }
      if (it == 0) {
        firstPart = bestPart; firstShape = bestShape; firstRect = bestRect; firstT = bestT; firstNx = bestNx; firstNy = bestNy;
        if (response == RESPONSE_BY_GROUP) {
          // The response of the body's lowest group in the mask (the world's table: W_RESPONSES).
          const bit = ctz(u32At(gs + o) & mask) << 2;
          resp = i32At(wo(W_RESPONSES) + bit);
          bnc = 1 + <f64>f32At(wo(W_RESTITUTIONS) + bit);
        }
      }
      if (bestNx == 0 && bestNy == 0) break; // started inside: it stays
      stopOnPath(bestT, bestNx, bestNy, cx, cy, dx, dy);
      cx += stopT * dx + bestNx * stopPush;
      cy += stopT * dy + bestNy * stopPush;
      if (resp == RESPONSE_STOP) {
        vx = 0; vy = 0;
        break;
      }
      const rest = 1 - bestT, dn = dx * bestNx + dy * bestNy, vn = vx * bestNx + vy * bestNy;
      const k = resp == RESPONSE_BOUNCE ? bnc : 1;
      dx = (dx - k * dn * bestNx) * rest;
      dy = (dy - k * dn * bestNy) * rest;
      if (vn < 0) { vx -= k * vn * bestNx; vy -= k * vn * bestNy; }
    }
    setF32(xs + o, toF32(cx - ox));
    setF32(ys + o, toF32(cy - oy));
    if (firstPart != PART_NONE) { // without a hit the velocity is as it was
      setF32(vxs + o, toF32(vx));
      setF32(vys + o, toF32(vy));
    }
    setI32(hi + o, firstPart);
    setI32(hi + plane + o, firstShape);
    setI32(hi + 2 * plane + o, firstRect);
    setF32(hf + o, toF32(firstT));
    setF32(hf + plane + o, toF32(firstNx));
    setF32(hf + 2 * plane + o, toF32(firstNy));
    if (firstPart != PART_NONE) hits++;
  }
  return hits;
}
