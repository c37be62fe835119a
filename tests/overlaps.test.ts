// overlapLevel: which bodies are inside the level's static geometry, against a reference written
// plainly: every tile cell of a window around the body and the map (walls and floor included) with
// the per-cell open test, every rect of every instance stamped out by the rects part's own brute-force
// level (tests/rect_reference.ts), every surface and every polyhedron from the records the
// platforms hold. Seeded random scenes with every part, and the hard cases: bodies touching cells,
// rects and polygons exactly (not inside), bodies on seams, zero-size points and zero-width boxes
// on cell lines, bodies outside the map and far outside it, wrapping maps, maps with and without a
// floor, huge bodies (past the platforms' grid radius and over the whole map), an empty level.
import { describe, expect, it } from "vitest";
import { HitcoreError, IdKind, Part, TileCell, type World } from "../bindings/node.js";
import { mulberry32 } from "../fixtures/random.js";
import { RefLevel } from "./rect_reference.js";
import { BACKENDS, newWorld, refusal } from "./support.js";

const T = 16;
const ALL = 0xffffffff;
const f32 = Math.fround;
const KIND_POINT = 1, KIND_CIRCLE = 2, KIND_RECT = 3;

interface Map { cols: number; rows: number; cells: Uint8Array; wrap: boolean; floor: boolean }
interface Scene { map: Map | null; rects: RefLevel; surfaces: Float32Array[]; polyhedra: { hs: Float32Array; ext: Float32Array }[] }
interface Overlap { parts: number; cells: number; shape: number }

/** A cell's flags as the tile map has them, y-down: rows above are empty, rows below the floor, columns beside walls (or wrapped). */
function flagsOf(m: Map, col: number, row: number): number {
  if (row < 0) return 0;
  if (row >= m.rows) return m.floor ? TileCell.Platform : 0;
  if (col < 0 || col >= m.cols) {
    if (!m.wrap) return TileCell.Platform;
    col = ((col % m.cols) + m.cols) % m.cols;
  }
  return m.cells[row * m.cols + col] & 0x7f;
}

/** Whether the body overlaps cell (col, row): open sets; along an axis with no extent, the tile map's point rule. */
function cellOverlapped(circle: boolean, x0: number, y0: number, x1: number, y1: number, cx: number, cy: number, r: number, col: number, row: number): boolean {
  const cx0 = col * T, cy0 = row * T, cx1 = cx0 + T, cy1 = cy0 + T;
  if (circle) {
    const kx = Math.min(Math.max(cx, cx0), cx1), ky = Math.min(Math.max(cy, cy0), cy1);
    return (cx - kx) ** 2 + (cy - ky) ** 2 < r * r;
  }
  const inCol = x1 > x0 ? x0 < cx1 && x1 > cx0 : Math.floor(x0 / T) === col; // a point on a line: the column right of it
  const inRow = y1 > y0 ? y0 < cy1 && y1 > cy0 : Math.ceil(y0 / T) - 1 === row; // a point on a line: the row above it
  return inCol && inRow;
}

/** What overlapLevel should report for one body (the world's stored f32 values). */
function reference(world: World, scene: Scene, s: number): Overlap {
  const kind = world.kinds[s], x = world.x[s], y = world.y[s], a = world.a[s], b = world.b[s];
  const circle = kind === KIND_CIRCLE && a > 0;
  const x0 = circle ? x - a : x, y0 = circle ? y - a : y;
  const x1 = circle ? x + a : kind === KIND_RECT ? x + a : x, y1 = circle ? y + a : kind === KIND_RECT ? y + b : y;
  const point = !circle && x0 === x1 && y0 === y1;
  let parts = 0, cells = 0, shape = -1;
  const found = (part: number, id: number) => { if (parts === 0) shape = id; parts |= 1 << part; };
  const m = scene.map;
  if (m) {
    // A window of cells around the body and the map, one cell wider on every side.
    let low = Infinity, any = false;
    const c0 = Math.min(Math.floor(x0 / T), -1) - 1, c1 = Math.max(Math.ceil(x1 / T), m.cols) + 1;
    const r0 = Math.min(Math.floor(y0 / T), -1) - 1, r1 = Math.max(Math.ceil(y1 / T), m.rows) + 1;
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const flags = flagsOf(m, col, row);
        if (!flags || !cellOverlapped(circle, x0, y0, x1, y1, x, y, a, col, row)) continue;
        any = true;
        cells |= flags;
        const inMap = row < m.rows && (m.wrap || (col >= 0 && col < m.cols));
        if (inMap) low = Math.min(low, row * m.cols + (((col % m.cols) + m.cols) % m.cols));
      }
    }
    if (any) found(Part.Tiles, low === Infinity ? -1 : low);
  }
  // Rects: every stamped rect, the lowest instance.
  let inst = Infinity;
  for (const q of scene.rects.stamp()) {
    const hit = circle ? (x - Math.min(Math.max(x, q.x0), q.x1)) ** 2 + (y - Math.min(Math.max(y, q.y0), q.y1)) ** 2 < a * a
      : point ? x > q.x0 && x < q.x1 && y > q.y0 && y < q.y1
      : x0 < q.x1 && x1 > q.x0 && y0 < q.y1 && y1 > q.y0;
    if (hit) inst = Math.min(inst, q.instance);
  }
  if (inst !== Infinity) found(Part.Rects, inst);
  // Surfaces: distance below the radius; for a box, its corners strictly on both sides of the line within the segment's extent.
  const surface = scene.surfaces.findIndex((rec) => {
    const sx0 = rec[9], sy0 = rec[10], sx1 = rec[11], sy1 = rec[12], ex = sx1 - sx0, ey = sy1 - sy0;
    if (circle) {
      const qx = x - sx0, qy = y - sy0, u = Math.min(Math.max((qx * ex + qy * ey) / (ex * ex + ey * ey), 0), 1);
      return (qx - u * ex) ** 2 + (qy - u * ey) ** 2 < a * a;
    }
    if (!(x0 < Math.max(sx0, sx1) && x1 > Math.min(sx0, sx1) && y0 < Math.max(sy0, sy1) && y1 > Math.min(sy0, sy1))) return false;
    const sides = [[x0, y0], [x1, y0], [x0, y1], [x1, y1]].map(([px, py]) => ex * (py - sy0) - ey * (px - sx0));
    return Math.min(...sides) < 0 && Math.max(...sides) > 0;
  });
  if (surface >= 0) found(Part.Surfaces, surface);
  // Polyhedra: a circle inside every face moved out by r; a box's nearest corner strictly inside every face, and the extents strictly.
  const poly = scene.polyhedra.findIndex(({ hs, ext }) => {
    for (let k = 0; k < hs.length; k += 3) {
      const nx = hs[k], ny = hs[k + 1], off = hs[k + 2];
      if (circle ? !(x * nx + y * ny - off - a < 0) : !(nx * (nx > 0 ? x0 : x1) + ny * (ny > 0 ? y0 : y1) < off)) return false;
    }
    return circle || (x0 < ext[2] && x1 > ext[0] && y0 < ext[3] && y1 > ext[1]);
  });
  if (poly >= 0) found(Part.Polyhedra, poly);
  return { parts, cells, shape };
}

/** A seeded level with every part in a world, mirrored in a Scene for the reference. */
function buildScene(world: World, seed: number, opts: { map: boolean; wrap: boolean; floor: boolean }): Scene {
  const rand = mulberry32(seed);
  const level = world.addRectLevel(), plat = world.addPlatforms({ maxRadius: 12 }), rects = new RefLevel();
  let map: Map | null = null;
  if (opts.map) {
    const cols = 20, rows = 14;
    const tm = world.addTileMap({ cols, rows, tileSize: T, wrap: opts.wrap, solidFloor: opts.floor });
    const cells = new Uint8Array(cols * rows);
    const kinds = [TileCell.Platform, TileCell.OneWay, TileCell.Ladder, TileCell.Coin, TileCell.Spike, TileCell.Ladder | TileCell.Coin];
    for (let k = 0; k < cells.length; k++) {
      if (rand() < 0.25) {
        cells[k] = kinds[Math.floor(rand() * kinds.length)];
        tm.setCell(k % cols, Math.floor(k / cols), cells[k]);
      }
    }
    map = { cols, rows, cells, wrap: opts.wrap, floor: opts.floor };
  }
  // Prefabs of blocks on the 16 grid (exact touching) and thin and mirrored ones.
  const prefabs = [[0, 0, 16, 16, 16, 8, 16, 16], [0, 0, 1, 40, 10, 0, 30, 1], [0, 0, 32, 16]];
  const handles = prefabs.map((p) => { rects.addPrefab(p); return level.addPrefab(p); });
  for (let k = 0; k < 7; k++) {
    const p = k % 3, x = Math.floor(rand() * 22) * T, y = Math.floor(rand() * 16) * T, mirror = k % 4;
    level.addInstance(handles[p], x, y, mirror);
    rects.addInstance(p, x, y, mirror);
  }
  // Surfaces: some along cell lines, some slanted.
  for (let k = 0; k < 8; k++) {
    const x = Math.floor(rand() * 22) * T, y = Math.floor(rand() * 16) * T;
    if (k % 2) plat.addSurface(x, y, x + 2 * T, y);
    else plat.addSurface(x, y, x + 10 + Math.floor(rand() * 50), y + Math.floor(rand() * 40) - 20);
  }
  // Polygons: axis-aligned squares on the grid (exact touching), slanted quads, and an unbounded ground below the map.
  for (let k = 0; k < 4; k++) {
    const x = Math.floor(rand() * 20) * T, y = Math.floor(rand() * 14) * T;
    if (k % 2) plat.addPolygon([x, y, x + T, y, x + T, y + T, x, y + T]);
    else plat.addPolygon([x, y, x + 20, y, x + 24, y + 18, x + 4, y + 22]);
  }
  plat.addHalfspaces([0, -1, -300]); // y >= 300
  const surfaces: Float32Array[] = [];
  for (let s = 0; s < plat.surfaceCount; s++) surfaces.push(plat.surface(plat.idAt(IdKind.Surface, s)));
  const polyhedra = [];
  for (let k = 0; k < plat.polyhedronCount; k++) {
    const id = plat.idAt(IdKind.Polyhedron, k);
    polyhedra.push({ hs: plat.halfspaces(id), ext: plat.extent(id) });
  }
  return { map, rects, surfaces, polyhedra };
}

/** Bodies of every kind: many on the 16 grid's lines (touching exactly), zero sizes, outside the map, huge ones. */
function addBodies(world: World, seed: number, n: number): void {
  const rand = mulberry32(seed * 13 + 5);
  for (let k = 0; k < n; k++) {
    const far = rand() < 0.1;
    let x = Math.floor(rand() * 400) - 40, y = Math.floor(rand() * 300) - 40;
    if (far) { x = rand() < 0.5 ? -300 - Math.floor(rand() * 2000) : 600 + Math.floor(rand() * 2000); y = Math.floor(rand() * 600) - 200; }
    const snap = rand() < 0.5;
    if (snap) { x = Math.round(x / T) * T; y = Math.round(y / T) * T; }
    else if (rand() < 0.5) { x += rand(); y += rand(); }
    const groups = 1 + (k % 2), kind = k % 3, huge = rand() < 0.04;
    if (kind === 0) {
      world.addPoint(x, y, groups);
    } else if (kind === 1) {
      // Radii that make circles touch cell lines from their centre on the grid, and huge ones.
      const r = huge ? 100 + Math.floor(rand() * 1500) : snap ? T * Math.floor(1 + rand() * 2) : rand() < 0.1 ? 0 : 1 + rand() * 10;
      world.addCircle(x, y, r, groups);
    } else {
      const w = huge ? 200 + Math.floor(rand() * 3000) : snap ? T * Math.floor(rand() * 3) : 1 + Math.floor(rand() * 20);
      const h = huge ? 200 + Math.floor(rand() * 3000) : snap ? T * Math.floor(rand() * 3) : 1 + Math.floor(rand() * 20);
      world.addRect(x, y, w, h, groups);
    }
  }
}

function views(world: World, s: number): Overlap {
  return { parts: world.overlapParts[s], cells: world.overlapCells[s], shape: world.overlapShape[s] };
}

describe("overlapLevel", () => {
  it("agrees with the reference on seeded levels with every part (maps wrapping or not, with and without a floor)", async () => {
    for (const backend of BACKENDS) {
      for (let seed = 1; seed <= 4; seed++) {
        const world = await newWorld(backend, { capacity: 64 }); // grows while the bodies are added
        const scene = buildScene(world, seed, { map: true, wrap: seed % 2 === 0, floor: seed !== 3 });
        addBodies(world, seed, 400);
        const seen = new Set<number>();
        for (const mask of [ALL, 1, 2]) {
          const n = world.count, before = Array.from({ length: n }, (_, s) => (world.overlapParts.length ? views(world, s) : null));
          const found = world.overlapLevel(mask);
          let counted = 0;
          for (let s = 0; s < n; s++) {
            if (!(world.groups[s] & mask)) {
              if (before[s]) expect(views(world, s), `${backend} seed ${seed} unselected slot ${s}`).toEqual(before[s]);
              continue;
            }
            const e = reference(world, scene, s);
            expect(views(world, s), `${backend} seed ${seed} mask ${mask} slot ${s} kind ${world.kinds[s]} at ${world.x[s]}, ${world.y[s]} size ${world.a[s]}, ${world.b[s]}`).toEqual(e);
            if (e.parts) counted++;
            for (let p = 1; p <= 4; p++) if (e.parts & (1 << p)) seen.add(p);
          }
          expect(found).toBe(counted);
          expect(counted).toBeGreaterThan(mask === ALL ? 60 : 30);
        }
        expect([...seen].sort()).toEqual([Part.Tiles, Part.Rects, Part.Surfaces, Part.Polyhedra]);
      }
    }
  });

  it("agrees with the reference without a tile map, and reports nothing on an empty level", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const scene = buildScene(world, 9, { map: false, wrap: false, floor: false });
      addBodies(world, 9, 200);
      const found = world.overlapLevel();
      let counted = 0;
      for (let s = 0; s < world.count; s++) {
        const e = reference(world, scene, s);
        expect(views(world, s), `${backend} slot ${s}`).toEqual(e);
        if (e.parts) counted++;
      }
      expect(found).toBe(counted);
      const empty = await newWorld(backend);
      addBodies(empty, 9, 100);
      expect(empty.overlapLevel()).toBe(0);
      expect(Array.from(empty.overlapParts.subarray(0, empty.count))).toEqual(new Array(empty.count).fill(0));
      expect(Array.from(empty.overlapShape.subarray(0, empty.count))).toEqual(new Array(empty.count).fill(-1));
      empty.addRectLevel(); empty.addPlatforms(); // parts holding nothing
      expect(empty.overlapLevel()).toBe(0);
    }
  });

  it("counts inside, not touching: the hand-made cases", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const map = world.addTileMap({ cols: 4, rows: 3, tileSize: T, wrap: false, solidFloor: true });
      map.setCell(1, 1, TileCell.Platform); // [16, 32] x [16, 32]
      map.setCell(2, 1, TileCell.Coin);
      map.setCell(3, 0, TileCell.Ladder | TileCell.Spike);
      const level = world.addRectLevel();
      level.addInstance(level.addPrefab([0, 0, 10, 10]), 200, -300); // [200, 210] x [-300, -290], above the map
      const plat = world.addPlatforms({ maxRadius: 20 });
      plat.addSurface(300, -200, 340, -200);
      plat.addPolygon([400, -200, 420, -200, 420, -180, 400, -180]);
      const cases: [() => number, Overlap][] = [
        // Tiles: a box exactly on the solid cell's edges is inside it only.
        [() => world.addRect(16, 16, 16, 16), { parts: 1 << Part.Tiles, cells: TileCell.Platform, shape: 5 }],
        // Touching the solid cell from the left (x1 = 16): in cell (0, 1), empty.
        [() => world.addRect(8, 16, 8, 16), { parts: 0, cells: 0, shape: -1 }],
        // A point on the line between cells 5 and 6 counts in the column right of it (the coin).
        [() => world.addPoint(32, 20), { parts: 1 << Part.Tiles, cells: TileCell.Coin, shape: 6 }],
        // A point on the line between rows 0 and 1 counts in the row above (empty cell (1, 0)).
        [() => world.addPoint(20, 16), { parts: 0, cells: 0, shape: -1 }],
        // A zero-width box on the line x = 16 over rows 1: the column right, the solid cell.
        [() => world.addRect(16, 18, 0, 4), { parts: 1 << Part.Tiles, cells: TileCell.Platform, shape: 5 }],
        // A circle touching the solid cell's corner from outside (distance 5 = r), then just inside.
        [() => world.addCircle(13, 12, 5), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addCircle(13, 12, 5.5), { parts: 1 << Part.Tiles, cells: TileCell.Platform, shape: 5 }],
        // Left of the map: the wall; below it: the floor (touching the floor's top is not inside).
        [() => world.addPoint(-1, 20), { parts: 1 << Part.Tiles, cells: TileCell.Platform, shape: -1 }],
        [() => world.addRect(0, 40, 10, 8), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addRect(0, 40, 10, 8.5), { parts: 1 << Part.Tiles, cells: TileCell.Platform, shape: -1 }],
        // Above the map: nothing.
        [() => world.addCircle(20, -10, 9), { parts: 0, cells: 0, shape: -1 }],
        // Over the whole map: every flag, the lowest flagged cell (3, 0) = 3.
        [() => world.addRect(-1e6, -1e6, 2e6, 2e6), { parts: (1 << Part.Tiles) | (1 << Part.Surfaces) | (1 << Part.Rects) | (1 << Part.Polyhedra), cells: TileCell.Platform | TileCell.Coin | TileCell.Ladder | TileCell.Spike, shape: 3 }],
        // Rects: touching the rect's right edge, then overlapping it by a little.
        [() => world.addRect(210, -300, 5, 5), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addRect(209.5, -300, 5, 5), { parts: 1 << Part.Rects, cells: 0, shape: 0 }],
        [() => world.addPoint(200, -295), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addPoint(201, -295), { parts: 1 << Part.Rects, cells: 0, shape: 0 }],
        // Surfaces: a circle at distance r is not inside, a point on the segment neither, a box across it is.
        [() => world.addCircle(320, -205, 5), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addCircle(320, -195, 5.25), { parts: 1 << Part.Surfaces, cells: 0, shape: 0 }],
        [() => world.addPoint(320, -200), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addRect(310, -210, 10, 10), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addRect(310, -210, 10, 11), { parts: 1 << Part.Surfaces, cells: 0, shape: 0 }],
        // Polyhedra: a box touching the square's side, a point on its edge, then inside.
        [() => world.addRect(420, -195, 5, 5), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addPoint(410, -200), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addPoint(410, -199), { parts: 1 << Part.Polyhedra, cells: 0, shape: 0 }],
        [() => world.addCircle(425, -190, 5), { parts: 0, cells: 0, shape: -1 }],
        [() => world.addCircle(424, -190, 5), { parts: 1 << Part.Polyhedra, cells: 0, shape: 0 }],
      ];
      const ids = cases.map(([add]) => add());
      const found = world.overlapLevel();
      ids.forEach((id, k) => expect(views(world, world.indexOf(id)), `${backend} case ${k}`).toEqual(cases[k][1]));
      expect(found).toBe(cases.filter(([, e]) => e.parts !== 0).length);
    }
  });

  it("wraps: a body across the map's side sees the cells of the other side, and one wider than the map sees every column", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const map = world.addTileMap({ cols: 4, rows: 2, tileSize: T, wrap: true, solidFloor: false });
      map.setCell(0, 0, TileCell.Ladder);
      map.setCell(3, 1, TileCell.Spike);
      const across = world.indexOf(world.addRect(60, 4, 8, 4)); // columns 3 and 4 = 0, row 0
      const left = world.indexOf(world.addPoint(-4, 20)); // column -1 = 3, row 1
      const wide = world.indexOf(world.addRect(-1000, 20, 5000, 4)); // row 1, every column
      const circle = world.indexOf(world.addCircle(1e4, 10, 1e4)); // every cell of the map, and below it (no floor)
      const under = world.indexOf(world.addCircle(30, 100, 20)); // below the map, no floor: nothing
      expect(world.overlapLevel()).toBe(4);
      expect(views(world, across)).toEqual({ parts: 1 << Part.Tiles, cells: TileCell.Ladder, shape: 0 });
      expect(views(world, left)).toEqual({ parts: 1 << Part.Tiles, cells: TileCell.Spike, shape: 7 });
      expect(views(world, wide)).toEqual({ parts: 1 << Part.Tiles, cells: TileCell.Spike, shape: 7 });
      expect(views(world, circle)).toEqual({ parts: 1 << Part.Tiles, cells: TileCell.Ladder | TileCell.Spike, shape: 0 });
      expect(views(world, under)).toEqual({ parts: 0, cells: 0, shape: -1 });
    }
  });

  it("keeps its views through growth and snapshots, and refuses bad bodies and masks, changing nothing", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 4 });
      const map = world.addTileMap({ cols: 4, rows: 4, tileSize: T, wrap: false });
      map.setCell(1, 1, TileCell.Coin);
      const a = world.addPoint(20, 20);
      expect(world.overlapLevel()).toBe(1);
      for (let k = 0; k < 40; k++) world.addPoint(100 + k, 20); // grows the stores (and relays the views)
      expect(views(world, world.indexOf(a))).toEqual({ parts: 1 << Part.Tiles, cells: TileCell.Coin, shape: 5 });
      expect(world.overlapLevel()).toBe(41); // the 40 are in the wall right of the map
      const saved = world.snapshot();
      const copy = await newWorld(backend, { capacity: 4 });
      copy.addTileMap({ cols: 4, rows: 4, tileSize: T, wrap: false });
      copy.restore(saved);
      expect(Array.from(copy.overlapCells.subarray(0, copy.count))).toEqual(Array.from(world.overlapCells.subarray(0, world.count)));
      expect(copy.overlapLevel()).toBe(41);

      world.x[world.indexOf(a)] = NaN;
      const before = world.snapshot();
      const e = refusal(() => world.overlapLevel());
      expect(e.code).toBe("INVALID_ENTITY");
      expect(world.snapshot()).toEqual(before);
      expect(world.overlapLevel(2)).toBe(0); // the bad body is not in the mask
      expect(refusal(() => world.overlapLevel(0)).code).toBe("INVALID_MASK");
      expect(refusal(() => world.overlapLevel(1.5)).code).toBe("INVALID_MASK");
      world.dispose();
      expect(refusal(() => world.overlapLevel()).code).toBe("DISPOSED");
      expect(() => world.overlapLevel()).toThrow(HitcoreError);
    }
  });

  it("refused for a value written through a view, changes nothing, even when the level and its planes are laid out first", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 4 });
      world.addTileMap({ ascii: ["X  X", "XXXX"], tileSize: 16 });
      world.addRectLevel().addInstance(world.rectLevel!.addPrefab([0, 0, 8, 8]), 40, 0);
      world.addPlatforms().addPolygon([0, 40, 20, 40, 10, 60]);
      for (let k = 0; k < 6; k++) world.addCircle(10 * k, 5, 3); // grown past the first capacity
      world.y[2] = NaN;
      const before = world.snapshot();
      expect(refusal(() => world.overlapLevel()).code).toBe("INVALID_ENTITY");
      expect(refusal(() => world.moveBodies()).code).toBe("INVALID_ENTITY");
      expect(world.snapshot(), backend).toEqual(before);
      // castMany too: its casts are checked before the changed level is readied.
      world.y[2] = 5;
      world.ensureCasts(2);
      world.castInputs.set([0, 0, 10, 10, 0, 0, NaN, 0, 1, 1, 0, 0]);
      world.rectLevel!.addInstance(world.rectLevel!.idAt(1, 0), 80, 0);
      const stale = world.snapshot();
      expect(refusal(() => world.castMany(2)).code).toBe("INVALID_CAST");
      expect(world.snapshot(), backend).toEqual(stale);
      world.y[2] = NaN;
      world.y[2] = 5;
      expect(world.overlapLevel()).toBeGreaterThan(0);
    }
  });
});
