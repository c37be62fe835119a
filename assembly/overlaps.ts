// Overlap of bodies against the level in one call (layout/moves.ts, W_OVERLAP): for every body in a
// mask, which parts of the static level it is inside (tile cells with flags, the rect level's
// rects, surfaces, polyhedra), the OR of the tile flags under it, and the first shape it overlaps.
// y grows downward in every part; the tile map's row 0 is the top.
//
// Overlap is open-set, as moveBodies' "starts inside": a body touching a shape is not inside it.
// - A box (a rect body) is the open box (x, x + w) x (y, y + h); a circle the open disc of its
//   radius; a point (or a circle of radius 0) is the point itself.
// - Tiles: a cell is overlapped when the body meets its open square. Along an axis where the body
//   has no extent (a point, a box of width or height 0), the tile map's rule for a point on a line
//   decides (layout/tiles.ts, flagsAt / rowIn): it counts in the row above the line and the column
//   right of it, so every point is in exactly one cell. Outside the map as moveBodies' tileFlags
//   has it: rows above are empty, rows below are the floor (CELL_PLATFORM) when the map has one,
//   columns beside a map that does not wrap are walls (CELL_PLATFORM), and a wrapping map repeats.
//   The tiles bit is set when a cell with a non-zero flag is overlapped (CELL_MONSTER_NEAR, which
//   the map keeps for itself, is no flag here); the shape is the lowest such cell index inside the
//   map, or -1 when only the walls or the floor outside it are overlapped (as hitShape has them).
// - Rects: a rect of an instance, closed, against the open body (the quadtree, then the rects);
//   the shape is the lowest instance.
// - Surfaces: a circle overlaps a surface (either side) closer than its radius; a box when the
//   segment crosses its open interior; a point never (a segment has no inside). Lowest id.
// - Polyhedra: a box or a point is inside when it meets the polyhedron's open interior (separating
//   axes: the faces and the box's axes, strict); a circle as the polyhedra part tests balls
//   (insidePolyhedra): every face moved out by the radius, strict, so near a corner a circle up to
//   the mitre's reach beyond it counts. Lowest id.
//
// Cost per body is bounded: tile cells are clipped to the map (at most cols x rows cells, one pass
// of the map's width for a wrapping map), rects come from the quadtree, and surfaces and polyhedra
// from the platforms' grid cell under the body's centre; a body reaching past the grid's radius
// (which moveBodies refuses) is tested against every surface and polyhedron instead.
import { H_A, H_B, H_CAPACITY, H_GROUPS, H_KIND, H_X, H_Y, KIND_CIRCLE, KIND_NONE, KIND_RECT, PLATFORMS_HEADER, S_FIRST_INVALID, S_INVALID, WORLD_HEADER } from "../layout/grid.ts";
import { MOVE_BAD_NUMBER, PART_POLYHEDRA, PART_RECTS, PART_SURFACES, PART_TILES, W_OVERLAP } from "../layout/moves.ts";
import { HS_STRIDE, P_POLY_COUNT, P_SURF_COUNT, SURF_STRIDE } from "../layout/platforms.ts";
import { RH_CANDS } from "../layout/rects.ts";
import { CELL_MONSTER_NEAR, CELL_PLATFORM, P_TILE, T_CELLS, T_COLS, T_FLOOR, T_PARAMS, T_ROWS, T_WRAP } from "../layout/tiles.ts";
import { gridRadius, hasPlatforms, hasRects, hasTiles, inRounded, usable } from "./moves.ts";
import {
  AT_HALFSPACES, AT_POLY_CELLS, AT_POLY_EXTENT, AT_POLY_ITEMS, AT_POLY_START, AT_SURF_CELLS, AT_SURF_ITEMS, AT_SURFACES, BALL_X,
  BALL_Y, cellOf,
} from "./platform_grid.ts";
import { rectEnd, rectStart, resetStats, rh, treeQuery, WORLD_RECT, worldRect } from "./rect_level.ts";
import { th } from "./tile_map.ts";
import { fieldAt, hdr, headerI32, setHdr } from "./header.ts";
import { f32At, f64At, i32At, setF64, setI32, truncI32, u32At, u8At } from "./memory.ts";

// What the current body overlaps: PART_* bits, the OR of tile flags, the first shape.
let parts = 0;
let cellFlags = 0;
let firstShape = -1;
// The lowest flagged cell index inside the map the current tile walk found (NONE: none), and
// whether it overlaps the walls or the floor outside the map.
let lowCell = 0;
let outside = false;
const NONE = 0x7fffffff;
// The bottom of the floor below the map (it has no bottom; this is past every valid coordinate).
const FLOOR_DEPTH: f64 = 1e36;
const FLAGS = 0xff & ~CELL_MONSTER_NEAR;
const SURF_REC = SURF_STRIDE << 2;
const HS_REC = HS_STRIDE << 2;

/** Records that the body overlaps `part`, `shape` being the lowest it overlaps there (-1: none has an id). */
function found(part: i32, shape: i32): void {
  if (parts == 0) firstShape = shape;
  parts |= 1 << part;
}

/** Cell (col, row) of the map, inside it, is overlapped: its flags count. */
// @ts-ignore: decorator
@inline function markCell(cells: i32, cols: i32, col: i32, row: i32): void {
  const at = row * cols + col, f = u8At(cells + at) & FLAGS;
  if (f != 0) {
    cellFlags |= f;
    if (at < lowCell) lowCell = at;
  }
}

/** The walls or the floor outside the map are overlapped. */
// @ts-ignore: decorator
@inline function markOutside(): void {
  cellFlags |= CELL_PLATFORM;
  outside = true;
}

/** Ends a tile walk: the lowest flagged cell inside the map, else -1 for the walls or the floor alone. */
function tilesFound(): void {
  if (lowCell != NONE) found(PART_TILES, lowCell);
  else if (outside) found(PART_TILES, -1);
}

/** v folded into [0, n) (v and n whole numbers; % on doubles is exact). */
// @ts-ignore: decorator
@inline function fold(v: f64, n: f64): i32 {
  let m = v % n;
  if (m < 0) m += n;
  return truncI32(m);
}

/**
 * The cells under the box [x0, x1] x [y0, y1] (open; along an axis with no extent, the tile map's
 * point rule). Indices are computed in f64 and clipped to the map before any conversion, so a box
 * over 2^30 cells costs the map's cells.
 */
function tilesBox(x0: f64, y0: f64, x1: f64, y1: f64): void {
  const cols = th(T_COLS), rows = th(T_ROWS), wrap = th(T_WRAP) != 0, floor = th(T_FLOOR) != 0, cells = th(T_CELLS);
  const t = f64At(th(T_PARAMS) + (P_TILE << 3));
  const fcols = <f64>cols, frows = <f64>rows;
  // Columns: open overlap floor(x0 / t) .. ceil(x1 / t) - 1; a point's column is the one right of a line.
  const c0 = Math.floor(x0 / t), c1 = x1 > x0 ? Math.ceil(x1 / t) - 1 : c0;
  // Rows: open overlap likewise; a point's row is the one above a line.
  const r0 = y1 > y0 ? Math.floor(y0 / t) : Math.ceil(y0 / t) - 1, r1 = y1 > y0 ? Math.ceil(y1 / t) - 1 : r0;
  if (!(c0 <= c1 && r0 <= r1)) return; // narrower than the doubles resolve there
  lowCell = NONE; outside = false;
  if (floor && r1 >= frows) markOutside();
  const inRows = r0 < frows && r1 >= 0;
  if (inRows && !wrap && (c0 < 0 || c1 >= fcols)) markOutside();
  if (inRows) {
    const ra = truncI32(Math.max(r0, 0)), rb = truncI32(Math.min(r1, frows - 1));
    let start = 0, n = 0;
    if (!wrap) {
      const ca = Math.max(c0, 0), cb = Math.min(c1, fcols - 1);
      if (ca <= cb) { start = truncI32(ca); n = truncI32(cb - ca) + 1; }
    } else if (c1 - c0 + 1 >= fcols) {
      n = cols;
    } else {
      start = fold(c0, fcols); n = truncI32(c1 - c0) + 1;
    }
    for (let row = ra; row <= rb; row++) {
      let col = start;
      for (let k = 0; k < n; k++) {
        markCell(cells, cols, col, row);
        col++;
        if (col == cols) col = 0;
      }
    }
  }
  tilesFound();
}

/**
 * The cells under the open disc (cx, cy, r > 0): per row of the map, the run of cells the disc
 * meets, grown out from the column under the centre (clamped into a map that does not wrap). The
 * run is contiguous and holds that column whenever it is not empty, so each row costs the cells it
 * holds plus two, and at most the map's width on a wrapping map.
 */
function tilesCircle(cx: f64, cy: f64, r: f64): void {
  const cols = th(T_COLS), rows = th(T_ROWS), wrap = th(T_WRAP) != 0, floor = th(T_FLOOR) != 0, cells = th(T_CELLS);
  const t = f64At(th(T_PARAMS) + (P_TILE << 3));
  const fcols = <f64>cols, frows = <f64>rows, bottom = frows * t;
  lowCell = NONE; outside = false;
  if (floor && inRounded(cx, cy, r, -Infinity, bottom, Infinity, FLOOR_DEPTH)) markOutside();
  if (!wrap && (inRounded(cx, cy, r, -Infinity, 0, 0, bottom) || inRounded(cx, cy, r, fcols * t, 0, Infinity, bottom))) markOutside();
  const r0 = Math.max(Math.floor((cy - r) / t), 0), r1 = Math.min(Math.ceil((cy + r) / t) - 1, frows - 1);
  if (r0 <= r1) {
    let u = Math.floor(cx / t);
    if (!wrap) u = Math.min(Math.max(u, 0), fcols - 1);
    const ra = truncI32(r0), rb = truncI32(r1);
    for (let row = ra; row <= rb; row++) {
      const y0 = <f64>row * t, y1 = y0 + t;
      if (!inRounded(cx, cy, r, u * t, y0, u * t + t, y1)) continue;
      markCell(cells, cols, wrap ? fold(u, fcols) : truncI32(u), row);
      let n = 1;
      for (let v = u - 1; (wrap ? n < cols : v >= 0) && inRounded(cx, cy, r, v * t, y0, v * t + t, y1); v -= 1) {
        markCell(cells, cols, wrap ? fold(v, fcols) : truncI32(v), row);
        n++;
      }
      for (let v = u + 1; (wrap ? n < cols : v < fcols) && inRounded(cx, cy, r, v * t, y0, v * t + t, y1); v += 1) {
        markCell(cells, cols, wrap ? fold(v, fcols) : truncI32(v), row);
        n++;
      }
    }
  }
  tilesFound();
}

/** The rect level's rects: candidates from the quadtree over the body's box, the lowest instance with a rect inside the body. */
function overlapRects(circle: bool, x0: f64, y0: f64, x1: f64, y1: f64, cx: f64, cy: f64, r: f64): void {
  const out = rh(RH_CANDS), n = treeQuery(x0, y0, x1, y1, out);
  let best = NONE;
  for (let k = 0; k < n; k++) {
    const i = i32At(out + (k << 2));
    if (i >= best) continue;
    const end = rectEnd(i);
    for (let q = rectStart(i); q < end; q++) {
      worldRect(i, q);
      const wx0 = load<f64>(WORLD_RECT), wy0 = load<f64>(WORLD_RECT, 8), wx1 = load<f64>(WORLD_RECT, 16), wy1 = load<f64>(WORLD_RECT, 24);
      const hit = circle ? inRounded(cx, cy, r, wx0, wy0, wx1, wy1)
        : x0 == x1 && y0 == y1 ? x0 > wx0 && x0 < wx1 && y0 > wy0 && y0 < wy1 // a point: strictly inside
        : x0 < wx1 && x1 > wx0 && y0 < wy1 && y1 > wy0;
      if (hit) { best = i; break; }
    }
  }
  if (best != NONE) found(PART_RECTS, best);
}

/** Surface s against the body: the open disc (r > 0), or the open box [x0, x1] x [y0, y1] (a point never). */
function surfaceOverlaps(s: i32, circle: bool, x0: f64, y0: f64, x1: f64, y1: f64, cx: f64, cy: f64, r: f64): bool {
  const p = i32At(AT_SURFACES) + s * SURF_REC;
  const sx0 = <f64>f32At(p + 36), sy0 = <f64>f32At(p + 40), sx1 = <f64>f32At(p + 44), sy1 = <f64>f32At(p + 48);
  const ex = sx1 - sx0, ey = sy1 - sy0;
  if (circle) {
    // Distance from the centre to the segment, below r.
    const qx = cx - sx0, qy = cy - sy0;
    let u = (qx * ex + qy * ey) / (ex * ex + ey * ey);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    const dx = qx - u * ex, dy = qy - u * ey;
    return dx * dx + dy * dy < r * r;
  }
  // Separating axes: the box's two (the segment's extent, strict) and the segment's normal (the
  // box's corners strictly on both sides of its line; exact for whole coordinates).
  if (!(x0 < Math.max(sx0, sx1) && x1 > Math.min(sx0, sx1) && y0 < Math.max(sy0, sy1) && y1 > Math.min(sy0, sy1))) return false;
  const a = ex * (y0 - sy0) - ey * (x0 - sx0), b = ex * (y0 - sy0) - ey * (x1 - sx0);
  const c = ex * (y1 - sy0) - ey * (x0 - sx0), d = ex * (y1 - sy0) - ey * (x1 - sx0);
  return Math.min(Math.min(a, b), Math.min(c, d)) < 0 && Math.max(Math.max(a, b), Math.max(c, d)) > 0;
}

/** Polyhedron k against the body: faces moved out by r for a circle; else the open box's separating axes. */
function polyhedronOverlaps(k: i32, circle: bool, x0: f64, y0: f64, x1: f64, y1: f64, cx: f64, cy: f64, r: f64): bool {
  const starts = i32At(AT_POLY_START);
  let h = i32At(AT_HALFSPACES) + i32At(starts + (k << 2)) * HS_REC;
  const last = i32At(AT_HALFSPACES) + i32At(starts + (k << 2) + 4) * HS_REC;
  if (circle) {
    for (; h < last; h += HS_REC) {
      if (!(cx * <f64>f32At(h) + cy * <f64>f32At(h + 4) - <f64>f32At(h + 8) - r < 0)) return false;
    }
    return true;
  }
  // The box's axes against the polyhedron's extent (+-Infinity where unbounded), then each face:
  // the box's nearest corner strictly inside it.
  const e = i32At(AT_POLY_EXTENT) + (k << 4);
  if (!(x0 < <f64>f32At(e + 8) && x1 > <f64>f32At(e) && y0 < <f64>f32At(e + 12) && y1 > <f64>f32At(e + 4))) return false;
  for (; h < last; h += HS_REC) {
    const nx = <f64>f32At(h), ny = <f64>f32At(h + 4);
    if (!(nx * (nx > 0 ? x0 : x1) + ny * (ny > 0 ? y0 : y1) < <f64>f32At(h + 8))) return false;
  }
  return true;
}

/**
 * Surfaces, then polyhedra: the lowest id of each that the body overlaps. Candidates are the
 * platforms' grid list of the cell under the centre (every shape a body within the grid radius can
 * reach is listed there), or every shape for a body reaching past it.
 */
function overlapPlatforms(circle: bool, reach: f64, x0: f64, y0: f64, x1: f64, y1: f64, cx: f64, cy: f64, r: f64): void {
  const at = PLATFORMS_HEADER;
  const listed = reach <= gridRadius();
  let cell = 0;
  if (listed) {
    setF64(BALL_X, cx);
    setF64(BALL_Y, cy);
    cell = cellOf(BALL_X);
  }
  let start = 0, end = headerI32(at, P_SURF_COUNT), items = 0;
  if (listed) {
    items = i32At(AT_SURF_ITEMS);
    start = i32At(i32At(AT_SURF_CELLS) + (cell << 2));
    end = i32At(i32At(AT_SURF_CELLS) + (cell << 2) + 4);
  }
  for (let j = start; j < end; j++) {
    const s = listed ? i32At(items + (j << 2)) : j;
    if (surfaceOverlaps(s, circle, x0, y0, x1, y1, cx, cy, r)) { found(PART_SURFACES, s); break; } // ascending ids: the first is the lowest
  }
  start = 0; end = headerI32(at, P_POLY_COUNT);
  if (listed) {
    items = i32At(AT_POLY_ITEMS);
    start = i32At(i32At(AT_POLY_CELLS) + (cell << 2));
    end = i32At(i32At(AT_POLY_CELLS) + (cell << 2) + 4);
  }
  for (let j = start; j < end; j++) {
    const k = listed ? i32At(items + (j << 2)) : j;
    if (polyhedronOverlaps(k, circle, x0, y0, x1, y1, cx, cy, r)) { found(PART_POLYHEDRA, k); break; }
  }
}

/** Whether a selected body holds a number the tests cannot take: sets S_INVALID / S_FIRST_INVALID. */
export function overlapRefused(count: i32, mask: u32): bool {
  const xs = hdr(H_X), ys = hdr(H_Y), as = hdr(H_A), bs = hdr(H_B), gs = hdr(H_GROUPS), ks = hdr(H_KIND);
  for (let s = 0; s < count; s++) {
    const o = s << 2;
    if (u8At(ks + s) == KIND_NONE || (u32At(gs + o) & mask) == 0) continue;
    if (!usable(<f64>f32At(xs + o), <f64>f32At(ys + o), 0, 0, <f64>f32At(as + o), <f64>f32At(bs + o))) {
      setHdr(S_INVALID, MOVE_BAD_NUMBER); setHdr(S_FIRST_INVALID, s);
      return true;
    }
  }
  return false;
}

/**
 * For every live body in [0, count) with (groups & mask) != 0: what static level geometry it
 * overlaps (open sets), into the W_OVERLAP planes: parts (1 << PART_*), the OR of the tile flags of
 * its cells, the first shape in part order (-1 if none). Other slots keep their values. Returns how
 * many bodies overlap anything, or -1, having written nothing but S_INVALID / S_FIRST_INVALID, when
 * a body holds a non-finite number or one past MAX_COORD (or a negative size).
 */
export function overlapLevel(count: i32, mask: u32): i32 {
  setHdr(S_INVALID, 0);
  if (overlapRefused(count, mask)) return -1;
  const tiles = hasTiles(), rects = hasRects(), platforms = hasPlatforms();
  if (rects) resetStats(); // treeQuery counts into the rect level's stats; this call does not report them
  const xs = hdr(H_X), ys = hdr(H_Y), as = hdr(H_A), bs = hdr(H_B), gs = hdr(H_GROUPS), ks = hdr(H_KIND);
  const out = i32At(fieldAt(WORLD_HEADER, W_OVERLAP));
  const plane = (hdr(H_CAPACITY) + 1) << 2; // bytes of one plane of CAPACITY + 1 slots
  let hits = 0;
  for (let s = 0; s < count; s++) {
    const kind = u8At(ks + s), o = s << 2;
    if (kind == KIND_NONE || (u32At(gs + o) & mask) == 0) continue;
    const x = <f64>f32At(xs + o), y = <f64>f32At(ys + o), a = <f64>f32At(as + o), b = <f64>f32At(bs + o);
    const circle = kind == KIND_CIRCLE && a > 0;
    // The body's box (a circle's bounding box) and centre; a point is a box of no extent.
    const x0 = circle ? x - a : x, y0 = circle ? y - a : y;
    const x1 = circle ? x + a : kind == KIND_RECT ? x + a : x, y1 = circle ? y + a : kind == KIND_RECT ? y + b : y;
    const cx = kind == KIND_RECT ? x + a * 0.5 : x, cy = kind == KIND_RECT ? y + b * 0.5 : y;
    const reach = kind == KIND_RECT ? Math.sqrt(a * a + b * b) * 0.5 : circle ? a : 0;
    parts = 0; cellFlags = 0; firstShape = -1;
    if (tiles) {
      if (circle) tilesCircle(x, y, a);
      else tilesBox(x0, y0, x1, y1);
    }
    if (rects) overlapRects(circle, x0, y0, x1, y1, x, y, a);
    if (platforms) overlapPlatforms(circle, reach, x0, y0, x1, y1, cx, cy, a);
    setI32(out + o, parts);
    setI32(out + plane + o, cellFlags);
    setI32(out + 2 * plane + o, firstShape);
    if (parts != 0) hits++;
  }
  return hits;
}
