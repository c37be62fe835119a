// Balls against the world's tile cells and rects (assembly/ball_boxes.ts): every solid cell,
// one-way cell and rect is the box polyhedron of "Hit Detection with Polyhedra", pushed out along
// its nearest face that does not lead into another solid box. Differential: the three cores and a
// plain reference (below: every cell of the span the docs name, every rect of the level's one
// instance, in that order) agree bit for bit on seeded random levels, with balls starting inside,
// fast balls and one-way cells. Then the behaviours the docs promise: rolling over seams of tiles
// and rects, one-way cells, starting inside, no tunnelling through one-tile walls, and a world
// whose other parts are empty stepping exactly as one with only platforms.
import { describe, expect, it } from "vitest";
import { EG_DATA, flipY } from "../fixtures/platform_levels.js";
import { mulberry32 } from "../fixtures/random.js";
import { Mirror, Part, TileCell, type Platforms, type RectLevel, type TileMap, type World } from "../bindings/node.js";
import { BACKENDS, gc, leastHeapPerCall, newWorld, type BackendName } from "./support.js";

const f32 = Math.fround;
const T = 16;
const PLATFORM = TileCell.Platform, ONE_WAY = TileCell.OneWay;

/** A ball as the store holds it; lastY: its y before its last move (where a one-way cell sees it come from). */
interface Ball { x: number; y: number; vx: number; vy: number; ax: number; ay: number; r: number; lastY: number; hit?: number[] }
interface Boxes {
  cols: number; rows: number; size: number; cells: Uint8Array; wrap: boolean; floor: boolean;
  /** One instance's rects in world space (x0, y0, x1, y1), prefab order, and its master box. */
  rects: number[][]; master: number[] | null;
}

/** A cell's flags as the docs define them: walls beside a non-wrapping map, the floor below it, nothing above. */
function tileFlags(L: Boxes, col: number, row: number): number {
  if (row < 0) return 0;
  if (row >= L.rows) return L.floor ? PLATFORM : 0;
  if (col < 0 || col >= L.cols) {
    if (!L.wrap) return PLATFORM;
    col = ((col % L.cols) + L.cols) % L.cols;
  }
  return L.cells[row * L.cols + col];
}

/** The ball against one box (x0, y0, x1, y1): inside its grown box, out along the nearest face that is not a seam. */
function resolveBox(L: Boxes, b: Ball, box: number[], oneWay: boolean, subY: number, rects: number[][]): boolean {
  const [x0, y0, x1, y1] = box, r = b.r;
  const d = [y0 - b.y - r, b.y - y1 - r, x0 - b.x - r, b.x - x1 - r]; // top, bottom, left, right
  if (d.some((v) => v > 0)) return false;
  const normals = [[0, -1], [0, 1], [-1, 0], [1, 0]];
  let face = -1;
  if (oneWay) {
    if (!(b.vy > 0 && subY + r <= y0 + (Math.abs(y0) + r) * (1 / 1048576))) return false;
    face = 0;
  } else {
    const eps = r * 0.0625 + 1e-6;
    const open = [0, 1, 2, 3].filter((f) => {
      const sx = x1 - x0 > 2 * eps ? Math.min(Math.max(b.x, x0 + eps), x1 - eps) : (x0 + x1) * 0.5;
      const sy = y1 - y0 > 2 * eps ? Math.min(Math.max(b.y, y0 + eps), y1 - eps) : (y0 + y1) * 0.5;
      const qx = f === 2 ? x0 - eps : f === 3 ? x1 + eps : sx, qy = f === 0 ? y0 - eps : f === 1 ? y1 + eps : sy;
      const solidCell = L.cols > 0 && (tileFlags(L, Math.floor(qx / L.size), Math.floor(qy / L.size)) & (PLATFORM | ONE_WAY)) !== 0;
      return !solidCell && !rects.some(([a0, b0, a1, b1]) => qx >= a0 && qx <= a1 && qy >= b0 && qy <= b1);
    });
    let nearest = 0;
    for (let f = 1; f < 4; f++) if (d[f] > d[nearest]) nearest = f;
    // A seam nearest, with the centre beyond it: the box on the other side takes the ball.
    if (!open.includes(nearest) && d[nearest] > -r) return false;
    const pool = open.length > 0 ? open : [0, 1, 2, 3];
    for (const f of pool) if (face < 0 || d[f] > d[face]) face = f;
  }
  const [nx, ny] = normals[face], dist = d[face];
  const vn = nx * b.vx + ny * b.vy;
  b.x = b.x - dist * nx; b.y = b.y - dist * ny;
  if (vn <= 0) { b.vx = b.vx - vn * nx; b.vy = b.vy - vn * ny; }
  return true;
}

/** One sub-step's fold: the cells of the ball's span row by row, then the instance's rects when its master box is near. */
function foldBoxes(L: Boxes, b: Ball, subY: number): void {
  const r = b.r, eps = r * 0.0625 + 1e-6, reach = 2 * r + 4 * eps;
  const m = L.master;
  const near = m !== null && b.x - reach <= m[2] && m[0] <= b.x + reach && b.y - reach <= m[3] && m[1] <= b.y + reach;
  const rects = near ? L.rects : [];
  if (L.cols > 0) {
    const inv = 1 / L.size, px = b.x, py = b.y;
    const c0 = Math.floor((px - r) * inv) - 1, c1 = Math.floor((px + r) * inv) + 1;
    const r0 = Math.floor((py - r) * inv) - 1, r1 = Math.floor((py + r) * inv) + 1;
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const flags = tileFlags(L, col, row);
        if ((flags & (PLATFORM | ONE_WAY)) === 0) continue;
        if (resolveBox(L, b, [col * L.size, row * L.size, (col + 1) * L.size, (row + 1) * L.size], (flags & PLATFORM) === 0, subY, rects)) {
          const around = row >= L.rows || (!L.wrap && (col < 0 || col >= L.cols));
          b.hit = [Part.Tiles, around ? -1 : row * L.cols + ((col % L.cols) + L.cols) % L.cols];
        }
      }
    }
  }
  for (const box of rects) if (resolveBox(L, b, box, false, subY, rects)) b.hit = [Part.Rects, 0];
}

/** The platforms' step (resistance, sub-steps of r / 2, f32 stores) with only the boxes to meet. */
function refStep(L: Boxes, balls: Ball[], dt: number, resX: number, resY: number, maxSubsteps: number): void {
  for (const b of balls) {
    b.hit = [Part.None, -1];
    b.vx = f32(resX) * b.vx + dt * b.ax;
    b.vy = f32(resY) * b.vy + dt * b.ay;
    let steps = 1;
    if (b.r > 0) {
      const travel = Math.sqrt(b.vx * b.vx + b.vy * b.vy) * dt, limit = 0.5 * b.r;
      if (travel > limit) {
        steps = Math.ceil(travel / limit);
        if (steps > maxSubsteps) {
          const scale = maxSubsteps * limit / travel;
          b.vx *= scale; b.vy *= scale;
          steps = maxSubsteps;
        }
      }
    }
    const h = dt / steps;
    for (let s = 0; s < steps; s++) {
      foldBoxes(L, b, b.lastY);
      b.lastY = b.y;
      b.x = b.x + h * b.vx;
      b.y = b.y + h * b.vy;
    }
    b.x = f32(b.x); b.y = f32(b.y); b.vx = f32(b.vx); b.vy = f32(b.vy); b.lastY = f32(b.lastY);
  }
}

interface Scene { world: World; tiles: TileMap | null; rects: RectLevel | null; platforms: Platforms }

async function scene(backend: BackendName, tiles: boolean, rects: boolean, platformOptions = {}): Promise<Scene> {
  const world = await newWorld(backend);
  return {
    world,
    tiles: tiles ? world.addTileMap({ cols: 24, rows: 16, tileSize: T, solidFloor: false }) : null,
    rects: rects ? world.addRectLevel() : null,
    platforms: world.addPlatforms({ maxRadius: 12, resistanceX: 1, ...platformOptions }),
  };
}

function ballState(p: Platforms): number[] {
  const n = p.ballCount;
  return [...p.x.subarray(0, n), ...p.y.subarray(0, n), ...p.vx.subarray(0, n), ...p.vy.subarray(0, n), ...p.boxContactPart.subarray(0, n), ...p.boxContactShape.subarray(0, n)];
}

function refState(balls: Ball[]): number[] {
  return [...balls.map((b) => b.x), ...balls.map((b) => b.y), ...balls.map((b) => b.vx), ...balls.map((b) => b.vy), ...balls.map((b) => b.hit![0]), ...balls.map((b) => b.hit![1])];
}

/** A seeded level: random solid and one-way cells, one instance of a prefab of random rects, and balls anywhere (inside boxes too). */
function randomLevel(seed: number, wrap: boolean, floor: boolean): { L: Boxes; balls: Ball[]; prefab: number[] } {
  const rnd = mulberry32(seed), int = (n: number) => Math.floor(rnd() * n);
  const cols = 24, rows = 16, cells = new Uint8Array(cols * rows);
  for (let k = 0; k < cells.length; k++) {
    const u = rnd();
    cells[k] = u < 0.18 ? PLATFORM : u < 0.26 ? ONE_WAY : 0;
  }
  // Rects on the tile lattice (seams with cells), off it, and overlapping each other.
  const prefab: number[] = [];
  for (let k = 0; k < 12; k++) {
    const onLattice = rnd() < 0.5;
    const x = onLattice ? int(cols) * T : int(cols * T), y = onLattice ? int(rows) * T : int(rows * T);
    prefab.push(x, y, onLattice ? T * (1 + int(3)) : 2 + int(40), onLattice ? T : 2 + int(24));
  }
  const balls: Ball[] = [];
  for (let k = 0; k < 40; k++) {
    const fast = k % 5 === 0;
    const y = f32(rnd() * rows * T);
    balls.push({
      x: f32(rnd() * cols * T), y, lastY: y, r: f32(2 + rnd() * 10),
      vx: f32((rnd() - 0.5) * (fast ? 20000 : 400)), vy: f32((rnd() - 0.5) * (fast ? 20000 : 400)),
      ax: 0, ay: f32(300 + rnd() * 300),
    });
  }
  // The instance's rects in world space and its master box come from the level (rect_level.test.ts checks them).
  return { L: { cols, rows, size: T, cells, wrap, floor, rects: [], master: null }, balls, prefab };
}

describe("balls against tile cells and rects", () => {
  it("agree with the reference bit for bit on seeded levels, on every core", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const wrap = seed % 3 === 0, floor = seed % 2 === 0;
      const { L, balls, prefab } = randomLevel(seed, wrap, floor);
      const ref = balls.map((b) => ({ ...b }));
      const worlds = await Promise.all(BACKENDS.map(async (backend) => {
        const world = await newWorld(backend);
        const tm = world.addTileMap({ cols: L.cols, rows: L.rows, tileSize: T, wrap, solidFloor: floor });
        tm.cells.set(L.cells);
        const rl = world.addRectLevel();
        // Placed off the lattice by a quarter tile, mirrored on odd seeds.
        const inst = rl.addInstance(rl.addPrefab(prefab), seed % 2 ? 4 : 0, seed % 2 ? -4 : 0, seed % 2 ? Mirror.X | Mirror.Y : 0);
        if (L.master === null) {
          for (let k = 0; k < prefab.length / 4; k++) L.rects.push([...rl.worldRect(inst, k, new Float64Array(4))]);
          L.master = [...rl.instanceBox(inst, new Float64Array(4))];
        }
        const p = world.addPlatforms({ maxRadius: 12, resistanceX: 0.99, maxSubsteps: 64 });
        for (const b of balls) p.indexOf(p.addBall(b.x, b.y, b.r, b.vx, b.vy, b.ax, b.ay));
        return p;
      }));
      let touched = 0;
      for (let frame = 0; frame < 90; frame++) {
        refStep(L, ref, 1 / 60, 0.99, 1, 64);
        const want = refState(ref);
        for (const p of worlds) {
          p.step(1 / 60);
          expect(ballState(p)).toEqual(want);
        }
        touched += worlds[0].stats().contacts;
      }
      expect(touched).toBeGreaterThan(100); // the balls met boxes, not only air
    }
  });

  for (const backend of BACKENDS) {
    describe(backend, () => {
      const rolls = async (kindOf: (col: number) => "tile" | "rect", vx: number) => {
        const s = await scene(backend, true, true);
        const prefab = s.rects!.addPrefab([0, 0, T, T]);
        for (let c = 0; c < 20; c++) {
          if (kindOf(c) === "tile") s.tiles!.setCell(2 + c, 12, PLATFORM);
          else s.rects!.addInstance(prefab, (2 + c) * T, 12 * T);
        }
        const p = s.platforms, r = 5, top = 12 * T;
        const b = p.indexOf(p.addBall(vx > 0 ? 3 * T : 20 * T, top - r, r, vx, 0, 0, 400));
        const xs: number[] = [];
        for (let frame = 0; frame < 60; frame++) {
          p.step(1 / 60);
          expect(p.y[b]).toBe(top - r); // on the floor, never lifted or sunk at a seam
          expect(p.vx[b]).toBe(vx); // no seam took any of its speed
          xs.push(p.x[b]);
        }
        expect(Math.abs(xs[59] - (vx > 0 ? 3 * T : 20 * T))).toBeCloseTo(Math.abs(vx), 3); // rolled over 15 seams
        return p;
      };

      it("roll over the seams of a floor of 20 tiles, both ways", async () => {
        const p = await rolls(() => "tile", 240);
        expect(p.stats().contacts).toBeGreaterThan(0);
        await rolls(() => "tile", -240);
      });

      it("roll over the seams of 10 tiles followed by 10 rects, and back", async () => {
        await rolls((c) => (c < 10 ? "tile" : "rect"), 240);
        await rolls((c) => (c < 10 ? "tile" : "rect"), -240);
        await rolls((c) => (c % 2 === 0 ? "tile" : "rect"), 240); // every seam a tile against a rect
      });

      it("stop at a wall, whether a tile or a rect, and do not climb it", async () => {
        for (const wall of ["tile", "rect"]) {
          const s = await scene(backend, true, true);
          for (let c = 0; c < 12; c++) s.tiles!.setCell(c, 12, PLATFORM);
          if (wall === "tile") s.tiles!.setCell(8, 11, PLATFORM);
          else s.rects!.addInstance(s.rects!.addPrefab([0, 0, T, T]), 8 * T, 11 * T);
          const p = s.platforms, b = p.indexOf(p.addBall(3 * T, 12 * T - 5, 5, 200, 0, 0, 400));
          for (let frame = 0; frame < 60; frame++) p.step(1 / 60);
          expect(p.x[b]).toBe(8 * T - 5); // against the wall's left face
          expect(p.y[b]).toBe(12 * T - 5);
          expect(p.vx[b]).toBe(0);
          // Its last contact in the step: cells go row by row, then rects.
          expect([p.boxContactPart[b], p.boxContactShape[b]]).toEqual(wall === "tile" ? [Part.Tiles, 12 * 24 + 7] : [Part.Rects, 0]);
        }
      });

      it("land on a one-way cell from above and pass through it from below", async () => {
        const s = await scene(backend, true, false);
        for (let c = 0; c < 8; c++) s.tiles!.setCell(c, 8, ONE_WAY);
        const p = s.platforms, r = 4;
        const falling = p.indexOf(p.addBall(2 * T, 2 * T, r, 0, 0, 0, 400));
        const rising = p.indexOf(p.addBall(5 * T, 11 * T, r, 0, -400, 0, 0)); // from below, no gravity
        const inside = p.indexOf(p.addBall(7 * T, 8 * T + 6, r, 0, 0, 0, 400)); // its bottom already under the top: falls through
        for (let frame = 0; frame < 120; frame++) p.step(1 / 60);
        expect(p.y[falling]).toBe(8 * T - r);
        expect(p.vy[falling]).toBe(0);
        expect(p.y[rising]).toBeLessThan(8 * T - 2 * r); // went through, up
        expect(p.vy[rising]).toBe(-400);
        expect(p.y[inside]).toBeGreaterThan(9 * T + r);
      });

      it("leave a cell or rect they start inside along its nearest face", async () => {
        const s = await scene(backend, true, true);
        s.tiles!.setCell(4, 4, PLATFORM);
        s.rects!.addInstance(s.rects!.addPrefab([0, 0, 32, 8]), 160, 64);
        const p = s.platforms;
        const a = p.indexOf(p.addBall(4 * T + 8, 4 * T + 3, 2, 0, 0, 0, 0)); // 3 below the cell's top: out through the top
        const b = p.indexOf(p.addBall(4 * T + 14, 4 * T + 8, 2, 0, 0, 0, 0)); // 2 left of its right face: out through the right
        const c = p.indexOf(p.addBall(170, 71, 2, 0, 0, 0, 0)); // 1 above the rect's bottom: out through the bottom
        p.step(1 / 60);
        expect([p.x[a], p.y[a]]).toEqual([4 * T + 8, 4 * T - 2]);
        expect([p.x[b], p.y[b]]).toEqual([5 * T + 2, 4 * T + 8]);
        expect([p.x[c], p.y[c]]).toEqual([170, 74]);
      });

      it("do not tunnel through a one-tile wall or a thin rect, however fast", async () => {
        const s = await scene(backend, true, true, { maxSubsteps: 8 });
        for (let r = 0; r < 16; r++) s.tiles!.setCell(12, r, PLATFORM);
        s.rects!.addInstance(s.rects!.addPrefab([0, 0, 2, 1000]), 100, -400);
        const p = s.platforms;
        const toWall: number[] = [], toRect: number[] = [];
        for (let k = 0; k < 8; k++) {
          const speed = 1000 * 4 ** k;
          toWall.push(p.indexOf(p.addBall(8 * T, 3 * T + 10 * k, 3, speed, 0, 0, 0)));
          toRect.push(p.indexOf(p.addBall(60, 3 * T + 10 * k, 3, speed, 0, 0, 0)));
        }
        for (let frame = 0; frame < 30; frame++) p.step(1 / 60);
        for (const b of toWall) expect(p.x[b]).toBe(12 * T - 3);
        for (const b of toRect) expect(p.x[b]).toBe(100 - 3);
      });

      it("report each ball's last box contact of the step: the cell (-1 around the map) or the rect instance", async () => {
        const s = await scene(backend, true, true);
        const p = s.platforms;
        const surface = p.addSurface(0, 600, 100, 600); // drawn left to right: its front faces up (-y)
        const poly = p.addPolygon([200, 600, 300, 600, 300, 620, 200, 620])[0];
        s.tiles!.setCell(3, 3, PLATFORM);
        const inst = s.rects!.addInstance(s.rects!.addPrefab([0, 0, 40, 10]), 500, 600);
        // Each ball rests on its shape (touching counts), then one in the wall left of the map, one in the air below it.
        const balls = [p.indexOf(p.addBall(50, 592, 8)), p.indexOf(p.addBall(250, 592, 8)), p.indexOf(p.addBall(3 * T + 8, 3 * T - 8, 8)), p.indexOf(p.addBall(520, 592, 8)),
          p.indexOf(p.addBall(-40, 100, 8)), p.indexOf(p.addBall(200, 300, 8))];
        p.step(1 / 60);
        const got = balls.map((b) => [p.boxContactPart[b], p.boxContactShape[b]]);
        expect(p.stats().contacts).toBe(5); // surfaces and polyhedra are counted, not recorded per ball
        expect(got).toEqual([[Part.None, -1], [Part.None, -1], [Part.Tiles, 3 * 24 + 3], [Part.Rects, s.rects!.indexOf(inst)],
          [Part.Tiles, -1], [Part.None, -1]]);
      });

      // The js backend boxes a double kept in a module variable or passed through a call V8 does not
      // inline; ball_boxes.ts keeps its doubles in the scratch slots.
      it.runIf(gc !== undefined)("a step against tiles and rects allocates no JS heap", async () => {
        const s = await scene(backend, true, true);
        const rnd = mulberry32(3);
        for (let k = 0; k < 24 * 16; k++) if (rnd() < 0.3) s.tiles!.cells[k] = rnd() < 0.8 ? PLATFORM : ONE_WAY;
        const prefab = s.rects!.addPrefab([0, 0, 16, 16, 16, 0, 16, 16]);
        for (let k = 0; k < 20; k++) s.rects!.addInstance(prefab, Math.floor(rnd() * 350), Math.floor(rnd() * 250));
        const p = s.platforms;
        for (let k = 0; k < 300; k++) p.indexOf(p.addBall(f32(rnd() * 380), f32(rnd() * 250), 3 + (k % 5), f32(rnd() * 200 - 100), 0));
        for (let f = 0; f < 1500; f++) p.step(1 / 60);
        expect(leastHeapPerCall(() => p.step(1 / 60), 300, 2)).toBeLessThan(2);
        expect(p.stats().contacts).toBeGreaterThan(0);
      });

      it("a world whose tile map and rect level are empty steps its balls exactly as one with only platforms", async () => {
        const level = EG_DATA.map((poly) => flipY(poly));
        const run = async (others: boolean) => {
          const world = await newWorld(backend);
          if (others) {
            world.addTileMap({ cols: 40, rows: 30, tileSize: T, solidFloor: false });
            world.addRectLevel().addPrefab([0, 0, 10, 10]); // a prefab, no instance
          }
          const p = world.addPlatforms();
          for (const poly of level) p.addPolygon(poly);
          const rnd = mulberry32(7);
          for (let k = 0; k < 50; k++) p.indexOf(p.addBall(f32(600 + 300 * rnd()), f32(-600 + 250 * rnd()), 10, f32(300 * (rnd() - 0.5)), 0));
          const states: number[][] = [];
          for (let frame = 0; frame < 120; frame++) { p.step(1 / 60); states.push(ballState(p)); }
          return states;
        };
        expect(await run(true)).toEqual(await run(false));
      });
    });
  }
});
