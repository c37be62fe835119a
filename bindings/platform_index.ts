// The static grid over a level's surfaces and polyhedra, built by the facade at load time (plain
// TS shared by both backends; the level does not move, so the core only reads it). Each cell lists,
// in ascending id order, every item whose hit region for any ball up to the largest radius can
// reach the cell; a ball then tests only the list of the cell holding its centre, so its cost does
// not grow with the level. Unbounded polyhedra are listed in every cell and in the extra "outside"
// cell (index cols * rows) that points beyond the grid map to. Cells are chosen with the same
// monotone cellOf the kernels use, on the same f32 grid parameters, so no float margin can drop
// an item from the cell a kernel looks in.

/** What the kernels need: the grid and the two CSR lists (starts has cells + 2 entries). */
export interface PlatformIndex {
  cols: number;
  rows: number;
  ox: number;
  oy: number;
  inv: number;
  surfStarts: Int32Array;
  surfItems: Int32Array;
  polyStarts: Int32Array;
  polyItems: Int32Array;
}

/** Cells per bounded item the grid may have, at most. */
const CELLS_PER_ITEM = 4;

/**
 * The most cells and list entries (over both lists) an index of `items` surfaces and polyhedra
 * holds: a grid whose lists would hold more (boxes that each reach many cells, unbounded
 * polyhedra in every cell) is made coarser until they fit, which the lists' conservatism allows.
 * So the memory an index takes is known from the item count alone: Platforms checks it at every
 * edit, before anything changes.
 */
export function indexBounds(items: number): { cells: number; entries: number } {
  return { cells: 8 * items + 1024, entries: 64 * items + 4096 };
}

/**
 * Builds the grid. `surfBoxes` and `polyBoxes` hold (x0, y0, x1, y1) per item, already grown by
 * what the item's hit region can reach; a polyhedron box of NaN marks it unbounded.
 */
export function buildPlatformIndex(surfBoxes: Float64Array, nSurf: number, polyBoxes: Float64Array, nPoly: number): PlatformIndex {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const extents: number[] = [];
  const scan = (boxes: Float64Array, n: number) => {
    for (let i = 0; i < n; i++) {
      const b = 4 * i;
      if (Number.isNaN(boxes[b])) continue;
      x0 = Math.min(x0, boxes[b]); y0 = Math.min(y0, boxes[b + 1]);
      x1 = Math.max(x1, boxes[b + 2]); y1 = Math.max(y1, boxes[b + 3]);
      extents.push(Math.max(boxes[b + 2] - boxes[b], boxes[b + 3] - boxes[b + 1]));
    }
  };
  scan(surfBoxes, nSurf);
  scan(polyBoxes, nPoly);
  let cols = 1, rows = 1, ox = 0, oy = 0, cell = 1;
  if (extents.length > 0) {
    // Cells about the size of a typical item, no more than CELLS_PER_ITEM per item.
    extents.sort((a, b) => a - b);
    const w = Math.max(x1 - x0, 1e-3), h = Math.max(y1 - y0, 1e-3);
    cell = Math.max(extents[extents.length >> 1], 1e-3);
    const most = CELLS_PER_ITEM * extents.length + 64;
    if ((w / cell + 1) * (h / cell + 1) > most) cell = Math.max(cell, Math.sqrt((w * h) / most), Math.max(w, h) / most);
    ox = Math.fround(x0);
    oy = Math.fround(y0);
    // One spare column and row, and a little slack: the far edge of the last box, measured from the
    // rounded origin with the rounded 1 / cell, must still fall inside the grid.
    const shape = () => {
      cols = Math.floor(((x1 - ox) / cell) * 1.00001) + 1;
      rows = Math.floor(((y1 - oy) / cell) * 1.00001) + 1;
    };
    shape();
    // Within indexBounds: coarser cells (twice as wide each time) until the lists fit.
    const bound = indexBounds(nSurf + nPoly);
    while (cols > 1 || rows > 1) {
      const cellsNow = cols * rows;
      if (cellsNow <= bound.cells && entriesOf(surfBoxes, nSurf, cols, rows, ox, oy, cell) + entriesOf(polyBoxes, nPoly, cols, rows, ox, oy, cell) <= bound.entries) break;
      cell *= 2;
      shape();
    }
  }
  // The kernels read these as f32: decide cells on the stored values.
  const f = Math.fround;
  const fox = f(ox), foy = f(oy), finv = f(1 / cell);
  const colOf = (v: number) => { const t = (v - fox) * finv; return t < 1 ? 0 : Math.min(Math.floor(t), cols - 1); };
  const rowOf = (v: number) => { const t = (v - foy) * finv; return t < 1 ? 0 : Math.min(Math.floor(t), rows - 1); };
  const cells = cols * rows;
  const lists = (boxes: Float64Array, n: number): [Int32Array, Int32Array] => {
    const starts = new Int32Array(cells + 2);
    // Counting pass, then fill in id order so every run is ascending.
    const visit = (i: number, emit: (c: number) => void) => {
      const b = 4 * i;
      if (Number.isNaN(boxes[b])) {
        for (let c = 0; c <= cells; c++) emit(c);
        return;
      }
      const c0 = colOf(boxes[b]), c1 = colOf(boxes[b + 2]), r0 = rowOf(boxes[b + 1]), r1 = rowOf(boxes[b + 3]);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) emit(r * cols + c);
    };
    for (let i = 0; i < n; i++) visit(i, (c) => { starts[c + 1]++; });
    for (let c = 0; c <= cells; c++) starts[c + 1] += starts[c];
    const items = new Int32Array(starts[cells + 1]);
    const fill = starts.slice(0, cells + 1);
    for (let i = 0; i < n; i++) visit(i, (c) => { items[fill[c]++] = i; });
    return [starts, items];
  };
  const [surfStarts, surfItems] = lists(surfBoxes, nSurf);
  const [polyStarts, polyItems] = lists(polyBoxes, nPoly);
  return { cols, rows, ox: fox, oy: foy, inv: finv, surfStarts, surfItems, polyStarts, polyItems };
}

/** The list entries `n` boxes make on a grid of cols x rows cells of side `cell` from (ox, oy), as buildPlatformIndex lists them. */
function entriesOf(boxes: Float64Array, n: number, cols: number, rows: number, ox: number, oy: number, cell: number): number {
  const f = Math.fround, fox = f(ox), foy = f(oy), finv = f(1 / cell);
  const colOf = (v: number) => { const t = (v - fox) * finv; return t < 1 ? 0 : Math.min(Math.floor(t), cols - 1); };
  const rowOf = (v: number) => { const t = (v - foy) * finv; return t < 1 ? 0 : Math.min(Math.floor(t), rows - 1); };
  let entries = 0;
  for (let i = 0; i < n; i++) {
    const b = 4 * i;
    if (Number.isNaN(boxes[b])) entries += cols * rows + 1;
    else entries += (colOf(boxes[b + 2]) - colOf(boxes[b]) + 1) * (rowOf(boxes[b + 3]) - rowOf(boxes[b + 1]) + 1);
  }
  return entries;
}
