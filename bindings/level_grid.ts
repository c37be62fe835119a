// The level grid: one byte per cell over the level's static shapes, so that a body's sweep in
// moveBodies and the casts skips every part with nothing near it (layout/moves.ts, W_LEVEL_*). A
// cell holds LEVEL_RECTS where a rect instance's master box meets it (the rect casts' candidates
// are the instances whose master box meets the sweep's box), and LEVEL_PLATFORMS where a surface's
// or polyhedron's reach box meets it (the box where the centre of any body the platforms take can
// be at contact, as their own grid lists them). Unbounded polyhedra set LEVEL_PLATFORMS in
// `always`. The core reads the cells a sweep's box meets with the same f64 arithmetic
// (floor((v - ox) * inv)), and floor is monotone, so closed boxes that meet share a cell.
//
// Built at load time (not per frame), in O(shapes + cells) whatever the shapes' sizes: each box
// adds its corners to a difference table whose prefix sums count the boxes over each cell.
import { LEVEL_PLATFORMS, LEVEL_RECTS } from "../layout/moves.js";

/** The grid the core reads. */
export interface LevelGrid {
  cols: number;
  rows: number;
  ox: number;
  oy: number;
  inv: number;
  always: number;
  cells: Uint8Array;
  /** Per cell, the rect instances whose box meets it: starts (cells + 1), then the items; null past the budget. */
  rectLists: Int32Array | null;
}

/** Cells per bounded shape the grid aims at (a sweep then reads one to four), and its bounds. */
const CELLS_PER_SHAPE = 16;
const MIN_CELLS = 256;
const MAX_CELLS = 1 << 20;
const MAX_SIDE = 4096;

/** Boxes of one kind of shape: (x0, y0, x1, y1) per shape, NaN for an unbounded one, and the bit they set. */
export interface LevelBoxes {
  boxes: ArrayLike<number>;
  count: number;
  bit: number;
}

/** Builds the grid over the shapes' boxes. */
export function buildLevelGrid(sets: readonly LevelBoxes[]): LevelGrid {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, shapes = 0, always = 0;
  const scan = (boxes: ArrayLike<number>, n: number, bit: number) => {
    for (let i = 0; i < n; i++) {
      const b = 4 * i;
      if (Number.isNaN(boxes[b])) { always |= bit; continue; }
      x0 = Math.min(x0, boxes[b]); y0 = Math.min(y0, boxes[b + 1]);
      x1 = Math.max(x1, boxes[b + 2]); y1 = Math.max(y1, boxes[b + 3]);
      shapes++;
    }
  };
  for (const set of sets) scan(set.boxes, set.count, set.bit);
  if (shapes === 0) return { cols: 1, rows: 1, ox: 0, oy: 0, inv: 1, always, cells: new Uint8Array(1), rectLists: null };
  const w = x1 - x0, h = y1 - y0;
  const target = Math.min(Math.max(CELLS_PER_SHAPE * shapes, MIN_CELLS), MAX_CELLS);
  const tiny = 1e-6 * Math.max(1, Math.abs(x0), Math.abs(y0), Math.abs(x1), Math.abs(y1));
  const cell = Math.max(Math.sqrt((w * h) / target), Math.max(w, h) / MAX_SIDE, tiny);
  const inv = 1 / cell;
  const cols = Math.floor((x1 - x0) * inv) + 1, rows = Math.floor((y1 - y0) * inv) + 1;
  const pitch = cols + 1;
  const diff = [new Int32Array(pitch * (rows + 1)), new Int32Array(pitch * (rows + 1))];
  const tableOf = (bit: number) => diff[bit === LEVEL_RECTS ? 0 : 1];
  const mark = (boxes: ArrayLike<number>, n: number, table: Int32Array) => {
    for (let i = 0; i < n; i++) {
      const b = 4 * i;
      if (Number.isNaN(boxes[b])) continue;
      const c0 = Math.floor((boxes[b] - x0) * inv), c1 = Math.floor((boxes[b + 2] - x0) * inv) + 1;
      const r0 = Math.floor((boxes[b + 1] - y0) * inv), r1 = Math.floor((boxes[b + 3] - y0) * inv) + 1;
      table[r0 * pitch + c0]++;
      table[r0 * pitch + c1]--;
      table[r1 * pitch + c0]--;
      table[r1 * pitch + c1]++;
    }
  };
  for (const set of sets) mark(set.boxes, set.count, tableOf(set.bit));
  const cells = new Uint8Array(cols * rows);
  for (const [k, bit] of [[0, LEVEL_RECTS], [1, LEVEL_PLATFORMS]] as const) {
    const t = diff[k];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const at = r * pitch + c;
        // Prefix sums in place: each entry becomes the number of boxes over its cell.
        t[at] += (c > 0 ? t[at - 1] : 0) + (r > 0 ? t[at - pitch] : 0) - (c > 0 && r > 0 ? t[at - pitch - 1] : 0);
        if (t[at] > 0) cells[r * cols + c] |= bit;
      }
    }
  }
  const grid = { cols, rows, ox: x0, oy: y0, inv, always, cells, rectLists: null as Int32Array | null };
  const rects = sets.find((set) => set.bit === LEVEL_RECTS);
  if (rects) grid.rectLists = listRects(grid, rects, diff[0], pitch);
  return grid;
}

/**
 * The instances over each cell, in ascending order, from the counts the prefix sums left in
 * `counts`: starts, then items. Null when they would pass LIST_BUDGET items per cell and per shape
 * (huge instances over many cells): the core then asks the quadtree.
 */
function listRects(grid: LevelGrid, rects: LevelBoxes, counts: Int32Array, pitch: number): Int32Array | null {
  const { cols, rows, ox, oy, inv } = grid, n = cols * rows;
  let total = 0;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) total += counts[r * pitch + c];
  if (total > LIST_BUDGET * (n + rects.count)) return null;
  const lists = new Int32Array(n + 1 + total);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) lists[r * cols + c + 1] = counts[r * pitch + c];
  for (let k = 0; k < n; k++) lists[k + 1] += lists[k];
  const fill = lists.slice(0, n), boxes = rects.boxes;
  for (let i = 0; i < rects.count; i++) {
    const b = 4 * i;
    if (Number.isNaN(boxes[b])) continue;
    const c0 = Math.floor((boxes[b] - ox) * inv), c1 = Math.floor((boxes[b + 2] - ox) * inv);
    const r0 = Math.floor((boxes[b + 1] - oy) * inv), r1 = Math.floor((boxes[b + 3] - oy) * inv);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) lists[n + 1 + fill[r * cols + c]++] = i;
  }
  return lists;
}

/** Rect list items per cell and per instance, at most. */
const LIST_BUDGET = 4;
