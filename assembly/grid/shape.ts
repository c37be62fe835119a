// The grid's shape: the cell size (the user's, or the size histogram's 90th percentile), raised
// until the cells fit the scratch, and the origin, columns and rows over the bounds of what the
// grid holds, with at most CELLS_PER_ENTITY cells per entity: a sparse world gets coarser cells,
// and a pile of entities in one cell costs what brute force costs, never more.
import {
  CELLS_PER_ENTITY, COVER_CELLS_MOST, COVER_CELLS_PER_ENTITY, H_CELLS_CAP, H_HIST, HIST_BUCKETS, MIN_CELL_SIZE, SCRATCH_SLACK,
} from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { bitsF32, f64FromHigh, f64High, i32At, maxI32, minI32, toF32, toI32 } from "../memory.ts";
import { reachLo } from "./boxes.ts";

// The grid being built (per call: each build sets all of it): the bounds of what it holds, the
// histogram's sample count, and its shape (originX <= minX, originY <= minY). Other files read
// the shape through the getters below; G_* in the header hold it once the build is done.
let minX: f32 = 0;
let minY: f32 = 0;
let maxX: f32 = 0;
let maxY: f32 = 0;
let histSamples = 0;
let originX: f32 = 0;
let originY: f32 = 0;
let cellSide: f64 = 1;
let cellSideY: f64 = 1;
let ncols = 0;
let nrows = 0;

/** The select pass's result: the bounds of the selected boxes, and how many the histogram counted. */
// @ts-ignore: decorator
@inline export function setBounds(x0: f32, y0: f32, x1: f32, y1: f32, samples: i32): void {
  minX = x0; minY = y0; maxX = x1; maxY = y1;
  histSamples = samples;
}

/**
 * A reach grid's bounds start one probe extent (w, h) earlier: probes look in the cell of their
 * top-left corner only. False when that is not a finite f32.
 */
export function widenBounds(w: f32, h: f32): bool {
  minX = reachLo(minX, w);
  minY = reachLo(minY, h);
  return minX > -Infinity && minY > -Infinity;
}

// @ts-ignore: decorator
@inline export function gridCols(): i32 { return ncols; }
// @ts-ignore: decorator
@inline export function gridRows(): i32 { return nrows; }
// @ts-ignore: decorator
@inline export function gridOriginX(): f32 { return originX; }
// @ts-ignore: decorator
@inline export function gridOriginY(): f32 { return originY; }
// @ts-ignore: decorator
@inline export function gridMaxX(): f32 { return maxX; }
// @ts-ignore: decorator
@inline export function gridMaxY(): f32 { return maxY; }
/** The cell width (and height, but in a split grid). */
// @ts-ignore: decorator
@inline export function gridSide(): f64 { return cellSide; }
// @ts-ignore: decorator
@inline export function gridSideY(): f64 { return cellSideY; }

/**
 * Cell size: the user's or the size histogram's, raised until the cells fit the scratch. The cell
 * table has one empty column on the right and one empty row below (its pitch is cols + 1), and a
 * zero before cell 0: every neighbour run is then two loads, with no edge tests.
 */
export function chooseShape(n: i32, cellSize: f32, cellSizeY: f32, cover: bool): void {
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
  if (!(cs >= MIN_CELL_SIZE)) cs = MIN_CELL_SIZE > (w + h) ? 1 : (w + h); // everything on one point
  // A home grid's size raised to fit the bounds goes up to the next of 16 steps an octave: the
  // bounds of moving entities change every frame, and selfPairs' grid should change only now and
  // then. Raised further, it goes a step at a time: doubling would overshoot to a quarter the cells.
  if (!cover && cs != asked) cs = sizeStep(cs);
  while (cellsOver(cs, cs, cover, maxCells)) cs = cover ? cs * 1.0625 : sizeStep(cs * 1.03125);
  setShape(cs, cs, cover);
}

/** The least m * 2^(e - 4) (m in 16..32) at or above v: sixteen steps an octave. v is at least MIN_CELL_SIZE. */
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
