// moveBodies: every body in a mask swept against the whole level in one call, against a reference
// written plainly: each body's sweep takes the earliest of a brute-force sweep over every tile cell
// (and the walls and floor around the map) and the rect level's and platforms' own casts (each
// checked against its tutorial's brute force in its own tests), then stops, slides or bounces as
// the docs say. Seeded random levels with the hard cases: bodies starting inside cells, rects and
// polyhedra, grazing corners and seams, one-way cells, speeds of 1000 x the thinnest wall, and
// empty levels.
import { describe, expect, it } from "vitest";
import { HitcoreError, Kind, Part, Response, Sweep, TileCell, type World } from "../bindings/node.js";
import { mulberry32 } from "../fixtures/random.js";
import { BACKENDS, newWorld } from "./support.js";

const T = 16;
const SKIN_BASE = 1e-3, SKIN_ULP = 2.384185791015625e-7;
const f32 = Math.fround;

interface Hit { t: number; nx: number; ny: number; part: number; shape: number; rect: number }

/**
 * The sweep of a box (centre, half extents, rounded by r for a circle) against a closed box, as
 * moveBodies defines it: a body starting inside (open sets) hits at 0 with a zero normal; else the
 * earliest entry, into the box grown by the half extents, or for a circle into one of the pieces
 * the rounded box is made of (the box grown by r across, the box grown by r up and down, the four
 * corners' circles). Touching without moving in is no hit, nor is a graze (entry = exit).
 */
function sweepBox(cx: number, cy: number, hx: number, hy: number, r: number, dx: number, dy: number,
  x0: number, y0: number, x1: number, y1: number): { t: number; nx: number; ny: number } | null {
  const clampX = (v: number) => Math.min(Math.max(v, x0), x1), clampY = (v: number) => Math.min(Math.max(v, y0), y1);
  const insideRounded = r === 0 || (cx - clampX(cx)) ** 2 + (cy - clampY(cy)) ** 2 < r * r;
  if (cx > x0 - hx && cx < x1 + hx && cy > y0 - hy && cy < y1 + hy && insideRounded) return { t: 0, nx: 0, ny: 0 };
  if (r === 0) return enterBox(cx, cy, dx, dy, x0 - hx, y0 - hy, x1 + hx, y1 + hy);
  const hits = [
    enterBox(cx, cy, dx, dy, x0 - r, y0, x1 + r, y1),
    enterBox(cx, cy, dx, dy, x0, y0 - r, x1, y1 + r),
    ...[[x0, y0], [x1, y0], [x0, y1], [x1, y1]].map(([kx, ky]) => enterCircle(cx, cy, dx, dy, kx, ky, r)),
  ];
  let best: { t: number; nx: number; ny: number } | null = null;
  for (const h of hits) if (h && (!best || h.t < best.t)) best = h;
  return best;
}

/** A point entering the closed box from outside it: the later of the axes' entries (x on a tie), before the earlier exit. */
function enterBox(cx: number, cy: number, dx: number, dy: number, x0: number, y0: number, x1: number, y1: number) {
  let tn = -Infinity, tf = Infinity, nx = 0, ny = 0;
  if (dx === 0) { if (!(cx > x0 && cx < x1)) return null; } else {
    const a = (x0 - cx) / dx, b = (x1 - cx) / dx;
    tn = Math.min(a, b); tf = Math.max(a, b); nx = dx > 0 ? -1 : 1;
  }
  if (dy === 0) { if (!(cy > y0 && cy < y1)) return null; } else {
    const a = (y0 - cy) / dy, b = (y1 - cy) / dy;
    if (Math.min(a, b) > tn) { tn = Math.min(a, b); nx = 0; ny = dy > 0 ? -1 : 1; }
    tf = Math.min(tf, Math.max(a, b));
  }
  return tn < tf && tn >= 0 && tn <= 1 ? { t: tn, nx, ny } : null;
}

/** A point entering the circle (kx, ky, r) from outside it: the entering root of |c + t d - k| = r, in [0, 1]. */
function enterCircle(cx: number, cy: number, dx: number, dy: number, kx: number, ky: number, r: number) {
  const fx = cx - kx, fy = cy - ky, a = dx * dx + dy * dy, b = fx * dx + fy * dy, c = fx * fx + fy * fy - r * r;
  const disc = b * b - a * c;
  if (!(disc > 0) || b >= 0) return null;
  const t = (-b - Math.sqrt(disc)) / a;
  if (t < 0 || t > 1) return null;
  const hx = fx + t * dx, hy = fy + t * dy, len = Math.sqrt(hx * hx + hy * hy);
  return { t, nx: hx / len, ny: hy / len };
}

interface Level { cols: number; rows: number; cells: Uint8Array; wrap: boolean; floor: boolean }

/** Every cell of the map, the wall columns beside it and the floor row below, brute force. */
function tileHit(L: Level, cx: number, cy: number, hx: number, hy: number, r: number, dx: number, dy: number): Hit | null {
  let best: Hit | null = null;
  // Every column the sweep could reach; without wrap, the wall columns beside the map stand for the rest.
  let c0 = Math.floor((Math.min(cx, cx + dx) - hx) / T) - 1, c1 = Math.floor((Math.max(cx, cx + dx) + hx) / T) + 1;
  if (!L.wrap) { c0 = Math.max(c0, -1); c1 = Math.min(c1, L.cols); }
  for (let row = 0; row <= L.rows; row++) {
    for (let col = c0; col <= c1; col++) {
      const inMap = col >= 0 && col < L.cols, wrapped = ((col % L.cols) + L.cols) % L.cols;
      let flags: number;
      if (row === L.rows) flags = L.floor ? TileCell.Platform : 0;
      else if (!inMap && !L.wrap) flags = TileCell.Platform;
      else flags = L.cells[row * L.cols + wrapped];
      if (!(flags & (TileCell.Platform | TileCell.OneWay))) continue;
      const x0 = col * T, y0 = row * T, y1 = row < L.rows ? y0 + T : 1e36;
      const oneWay = !(flags & TileCell.Platform);
      if (oneWay && (!(dy > 0) || cy + hy > y0)) continue;
      const h = sweepBox(cx, cy, hx, hy, r, dx, dy, x0, y0, x0 + T, y1);
      if (!h || (oneWay && h.ny !== -1)) continue;
      const shape = row < L.rows && (inMap || L.wrap) ? row * L.cols + wrapped : -1;
      if (!best || h.t < best.t) best = { ...h, part: Part.Tiles, shape, rect: -1 };
    }
  }
  return best;
}

/** What moveBodies should leave for one body: position (top-left for rects), velocity and first hit. */
function reference(world: World, L: Level | null, s: number, response: number, restitution: number) {
  const kind = world.kinds[s], a = world.a[s], b = world.b[s];
  const hx = kind === 3 ? a * 0.5 : kind === 2 ? a : 0, hy = kind === 3 ? b * 0.5 : hx;
  const ox = kind === 3 ? hx : 0, oy = kind === 3 ? hy : 0; // the stores hold a rect's top-left corner
  let cx = world.x[s] + ox, cy = world.y[s] + oy;
  let vx = world.vx[s], vy = world.vy[s], dx = vx, dy = vy;
  let first: Hit | null = null;
  for (let it = 0; it < 4 && (dx !== 0 || dy !== 0); it++) {
    // Each move aims at where the body is stored: its f32 position.
    dx = f32(cx - ox + dx) + ox - cx;
    dy = f32(cy - oy + dy) + oy - cy;
    if (dx === 0 && dy === 0) break;
    const best = castReference(world, L, kind, cx, cy, hx, hy, dx, dy);
    if (!best) { cx += dx; cy += dy; break; }
    first ??= best;
    if (best.nx === 0 && best.ny === 0) break;
    // A skin off the hit, back along the path; along the normal only what the path cannot give.
    const skin = SKIN_BASE + (Math.abs(best.nx) * (Math.abs(cx) + Math.abs(best.t * dx)) + Math.abs(best.ny) * (Math.abs(cy) + Math.abs(best.t * dy))) * SKIN_ULP;
    const dn = dx * best.nx + dy * best.ny;
    let stop = best.t, push = skin;
    if (dn < 0 && skin / -dn <= best.t) { stop = best.t - skin / -dn; push = 0; } else if (dn < 0) { stop = 0; push = skin + best.t * dn; }
    cx += stop * dx + best.nx * push;
    cy += stop * dy + best.ny * push;
    if (response === Response.Stop) { vx = 0; vy = 0; break; }
    const k = response === Response.Bounce ? 1 + restitution : 1, rest = 1 - best.t;
    const vn = vx * best.nx + vy * best.ny;
    dx = (dx - k * dn * best.nx) * rest;
    dy = (dy - k * dn * best.ny) * rest;
    if (vn < 0) { vx -= k * vn * best.nx; vy -= k * vn * best.ny; }
  }
  return {
    x: f32(cx - ox), y: f32(cy - oy), vx: f32(vx), vy: f32(vy),
    part: first?.part ?? Part.None, shape: first?.shape ?? -1, rect: first?.rect ?? -1,
    t: f32(first?.t ?? 1), nx: f32(first?.nx ?? 0), ny: f32(first?.ny ?? 0),
  };
}

/**
 * A seeded level in a world: cells (walls, one-way cells), rect instances, surfaces, polygons; or
 * nothing. `keep` (Part values) leaves out the other kinds, drawing the same random numbers, so the
 * kinds kept are the same shapes; `groups` gives each kind the group bit 1 << part.
 */
function buildLevel(world: World, seed: number, empty: boolean, keep: readonly number[] = ALL_PARTS, groups = false): Level | null {
  const rand = mulberry32(seed);
  const bit = (part: number) => (groups ? { groups: 1 << part } : {});
  const level = world.addRectLevel(bit(Part.Rects)), plat = world.addPlatforms({ maxRadius: 12, ...bit(Part.Surfaces) });
  if (groups) world.setLevelGroups(Part.Polyhedra, 1 << Part.Polyhedra);
  if (empty) return null;
  const cols = 24, rows = 16, wrap = seed % 2 === 0;
  const map = keep.includes(Part.Tiles) ? world.addTileMap({ cols, rows, tileSize: T, wrap, ...bit(Part.Tiles) }) : null;
  const cells = new Uint8Array(cols * rows);
  for (let k = 0; k < cells.length; k++) {
    const v = rand();
    cells[k] = v < 0.12 ? TileCell.Platform : v < 0.17 ? TileCell.OneWay : 0;
    if (cells[k]) map?.setCell(k % cols, Math.floor(k / cols), cells[k]);
  }
  // Thin walls (1 unit) in rects and long thin platforms: the tunnelling targets.
  const thin = level.addPrefab([0, 0, 1, 60, 20, 0, 40, 1]);
  const blocks = level.addPrefab([0, 0, 16, 16, 16, 8, 16, 16]);
  for (let k = 0; k < 6; k++) {
    const x = Math.floor(rand() * 360), y = Math.floor(rand() * 240);
    if (keep.includes(Part.Rects)) level.addInstance(k % 2 ? thin : blocks, x, y, k % 3);
  }
  for (let k = 0; k < 8; k++) {
    const x = Math.floor(rand() * 360), y = Math.floor(rand() * 240), x1 = x + 10 + Math.floor(rand() * 60), y1 = y + Math.floor(rand() * 30) - 15;
    if (keep.includes(Part.Surfaces)) plat.addSurface(x, y, x1, y1);
  }
  for (let k = 0; k < 4; k++) {
    const x = Math.floor(rand() * 340), y = Math.floor(rand() * 220);
    if (keep.includes(Part.Polyhedra)) plat.addPolygon([x, y, x + 20, y, x + 24, y + 18, x + 4, y + 22]);
  }
  // Seed 3: an unbounded polyhedron (the ground y >= 300), which the level grid cannot bound.
  if (seed === 3 && keep.includes(Part.Polyhedra)) plat.addHalfspaces([0, -1, -300]);
  return map ? { cols, rows, cells, wrap, floor: true } : null;
}

const ALL_PARTS = [Part.Tiles, Part.Rects, Part.Surfaces, Part.Polyhedra];

function addBodies(world: World, seed: number, n: number): void {
  const rand = mulberry32(seed * 7 + 3);
  for (let k = 0; k < n; k++) {
    const x = Math.floor(rand() * 400) - 8, y = Math.floor(rand() * 280) - 8;
    // Some on the grid lines (touching cells exactly), some far off, some very fast.
    const snap = rand() < 0.3;
    const px = snap ? Math.round(x / T) * T : x + rand(), py = snap ? Math.round(y / T) * T : y + rand();
    const kind = k % 3;
    const id = kind === 0 ? world.addPoint(px, py, 1 + (k % 2)) : kind === 1 ? world.addCircle(px, py, 1 + rand() * 6, 1 + (k % 2))
      : world.addRect(px, py, 1 + Math.floor(rand() * 12), 1 + Math.floor(rand() * 12), 1 + (k % 2));
    const s = world.indexOf(id), fast = rand() < 0.1 ? 1000 : 1;
    world.vx[s] = (rand() * 16 - 8) * fast;
    world.vy[s] = (rand() * 16 - 8) * fast;
    if (rand() < 0.15) world.vx[s] = 0; // axis-aligned moves graze seams and corners
    if (rand() < 0.15) world.vy[s] = 0;
  }
  // Far outside every shape's box (the level grid's cells hold nothing there), moving in or on.
  for (let k = 0; k < 8; k++) {
    const s = world.indexOf(world.addCircle(k % 2 ? -5000 : 5000, k < 4 ? 150 : 5000, 3, 1 + (k % 2)));
    world.vx[s] = k % 4 === 0 ? (k % 2 ? 9000 : -9000) : 5;
    world.vy[s] = k > 5 ? -9000 : 5;
  }
}

/**
 * A level packed close, with `bodies` circles of radius 2 moving up to 6 a frame among it: cells,
 * prefabs with gaps of 4 between their rects (a body's width), surfaces and polyhedra. Returns the
 * number of slots.
 */
function gapScene(world: World, side: number, bodies: number): number {
  const rand = mulberry32(77);
  const map = world.addTileMap({ cols: side / T, rows: side / T, tileSize: T });
  for (let row = 0; row < side / T; row++) for (let col = 0; col < side / T; col++) if (rand() < 0.08) map.setCell(col, row, TileCell.Platform);
  const level = world.addRectLevel(), prefab = level.addPrefab([0, 0, 24, 4, 0, 4, 4, 20, 20, 4, 4, 20, 8, 20, 8, 4]);
  for (let k = 0; k < side * side / 5760; k++) level.addInstance(prefab, Math.floor(rand() * (side - 24)), Math.floor(rand() * (side - 24)), k & 1);
  const plat = world.addPlatforms({ maxRadius: 4 });
  for (let k = 0; k < side * side / 3840; k++) {
    const x = rand() * (side - 60), y = rand() * (side - 60);
    plat.addSurface(x, y, x + 10 + rand() * 40, y + rand() * 20 - 10);
  }
  for (let k = 0; k < side * side / 7680; k++) {
    const x = rand() * (side - 30), y = rand() * (side - 30), d = 6 + rand() * 10;
    plat.addPolygon([x, y, x + d, y, x + d, y + d, x, y + d]);
  }
  for (let k = 0; k < bodies; k++) {
    const s = world.indexOf(world.addCircle(rand() * side, rand() * side, 2));
    world.vx[s] = rand() * 12 - 6;
    world.vy[s] = rand() * 12 - 6;
  }
  return world.count;
}

/** What moveBodies left for one body, in the shape reference() gives. */
function moved(world: World, s: number) {
  return {
    x: world.x[s], y: world.y[s], vx: world.vx[s], vy: world.vy[s], part: world.hitPart[s], shape: world.hitShape[s],
    rect: world.hitRect[s], t: world.hitT[s], nx: world.hitNx[s], ny: world.hitNy[s],
  };
}

/** Whether the body's last move found it inside a shape: a hit at t = 0 with a zero normal. */
function startsInside(world: World, s: number): boolean {
  return world.hitPart[s] !== Part.None && world.hitT[s] === 0 && world.hitNx[s] === 0 && world.hitNy[s] === 0;
}

describe("moveBodies", () => {
  for (const response of [Response.Stop, Response.Slide, Response.Bounce]) {
    it(`agrees with the reference on seeded levels (response ${response})`, async () => {
      for (const backend of BACKENDS) {
        for (let seed = 1; seed <= 4; seed++) {
          const world = await newWorld(backend, { capacity: 64 });
          const L = buildLevel(world, seed, seed === 4);
          addBodies(world, seed, 240);
          const mask = seed === 3 ? 1 : 0xffffffff, restitution = 0.5 + 0.125 * seed;
          const expected = [], n = world.count;
          for (let s = 0; s < n; s++) expected.push((world.groups[s] & mask) ? reference(world, L, s, response, restitution) : null);
          const hits = world.moveBodies(mask, response, restitution);
          let counted = 0;
          for (let s = 0; s < n; s++) {
            const e = expected[s];
            if (!e) continue;
            const got = moved(world, s);
            expect(got, `${backend} seed ${seed} slot ${s}`).toEqual(e);
            if (e.part !== Part.None) counted++;
          }
          expect(hits).toBe(counted);
          if (seed !== 4) expect(counted).toBeGreaterThan(20);
        }
      }
    });
  }

  it("sweeps only the level geometry whose groups meet levelMask: the same as a level without the rest", async () => {
    const subsets = [[Part.Tiles], [Part.Rects], [Part.Surfaces], [Part.Polyhedra], [Part.Tiles, Part.Polyhedra], [Part.Rects, Part.Surfaces]];
    for (const backend of BACKENDS) {
      for (const [k, keep] of subsets.entries()) {
        const seed = 1 + (k % 3);
        const all = await newWorld(backend, { capacity: 64 }), only = await newWorld(backend, { capacity: 64 });
        buildLevel(all, seed, false, ALL_PARTS, true);
        buildLevel(only, seed, false, keep);
        addBodies(all, seed, 200);
        addBodies(only, seed, 200);
        const levelMask = keep.reduce((m, part) => m | (1 << part), 0);
        let hits = 0;
        for (let frame = 0; frame < 6; frame++) {
          const h = all.moveBodies(ALL, Response.Bounce, 0.5, levelMask);
          expect(h, `${backend} ${keep} frame ${frame}`).toBe(only.moveBodies(ALL, Response.Bounce, 0.5));
          for (const view of ["x", "y", "vx", "vy", "hitPart", "hitShape", "hitRect", "hitT", "hitNx", "hitNy"] as const) {
            expect(Array.from(all[view].subarray(0, all.count)), `${backend} ${keep} ${view}`).toEqual(Array.from(only[view].subarray(0, only.count)));
          }
          hits += h;
        }
        expect(hits, `${backend} ${keep} hits`).toBeGreaterThan(0);
        // The casts take the same mask.
        all.ensureCasts(64);
        only.ensureCasts(64);
        for (let c = 0; c < 64; c++) {
          const x = (c * 37) % 380, y = (c * 53) % 260, dx = ((c * 29) % 120) - 60, dy = ((c * 31) % 120) - 60;
          all.castInputs.set([x, y, dx, dy, 3, 2], 6 * c);
          only.castInputs.set([x, y, dx, dy, 3, 2], 6 * c);
        }
        for (const sweep of [Sweep.Point, Sweep.Circle, Sweep.Box]) {
          expect(all.castMany(64, sweep, levelMask)).toBe(only.castMany(64, sweep));
          expect(Array.from(all.castHitInts.subarray(0, 192))).toEqual(Array.from(only.castHitInts.subarray(0, 192)));
          expect(Array.from(all.castHitReals.subarray(0, 192))).toEqual(Array.from(only.castHitReals.subarray(0, 192)));
        }
        expect(all.castCircle(100, 0, 3, 0, 400, levelMask)).toBe(only.castCircle(100, 0, 3, 0, 400));
        expect([all.hit.part, all.hit.shape, all.hit.t]).toEqual([only.hit.part, only.hit.shape, only.hit.t]);
      }
    }
  });

  it("responds by group with Response.ByGroup: each body as setResponse set for its lowest group bit in the mask", async () => {
    for (const backend of BACKENDS) {
      for (let seed = 1; seed <= 3; seed++) {
        const world = await newWorld(backend, { capacity: 64 });
        const L = buildLevel(world, seed, false);
        addBodies(world, seed, 240); // groups 1 and 2, alternating
        const g3 = world.addCircle(5, 5, 2, 3), s3 = world.indexOf(g3); // groups 1 | 2: its lowest bit, 1, decides
        world.vx[s3] = 40;
        world.setResponse(1, Response.Bounce, 0.75);
        world.setResponse(2, Response.Slide);
        const n = world.count, expected = [];
        for (let s = 0; s < n; s++) {
          const bounce = (world.groups[s] & 1) !== 0;
          expected.push(reference(world, L, s, bounce ? Response.Bounce : Response.Slide, bounce ? 0.75 : 1));
        }
        const hits = world.moveBodies(ALL, Response.ByGroup);
        let counted = 0;
        for (let s = 0; s < n; s++) {
          const e = expected[s];
          expect({ x: world.x[s], y: world.y[s], vx: world.vx[s], vy: world.vy[s], part: world.hitPart[s], t: world.hitT[s] }, `${backend} seed ${seed} slot ${s}`)
            .toEqual({ x: e.x, y: e.y, vx: e.vx, vy: e.vy, part: e.part, t: e.t });
          if (e.part !== Part.None) counted++;
        }
        expect(hits).toBe(counted);
        expect(counted).toBeGreaterThan(20);
      }
      const world = await newWorld(backend);
      expect(() => world.setResponse(3, Response.Stop)).toThrow(/one group bit/);
      expect(() => world.setResponse(4, 9)).toThrow(/response/);
      expect(() => world.setLevelGroups(9, 1)).toThrow(/part/);
      expect(() => world.moveBodies(ALL, Response.Stop, 1, 0)).toThrow(/levelMask/);
    }
  });

  it("agrees with the reference when the level grid's rect lists pass their budget (huge instances: the quadtree answers)", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 64 });
      const L = buildLevel(world, 2, false);
      const level = world.rectLevel!, slab = level.addPrefab([0, 0, 3000, 2, 0, 40, 3000, 2]);
      for (let k = 0; k < 40; k++) level.addInstance(slab, -1300 + k, -100 + 13 * k);
      addBodies(world, 2, 200);
      const n = world.count, expected = [];
      for (let s = 0; s < n; s++) expected.push(reference(world, L, s, Response.Slide, 1));
      const hits = world.moveBodies(ALL, Response.Slide);
      for (let s = 0; s < n; s++) {
        const e = expected[s];
        expect({ x: world.x[s], y: world.y[s], part: world.hitPart[s], shape: world.hitShape[s], rect: world.hitRect[s], t: world.hitT[s] }, `${backend} slot ${s}`)
          .toEqual({ x: e.x, y: e.y, part: e.part, shape: e.shape, rect: e.rect, t: e.t });
      }
      expect(hits).toBe(expected.filter((e) => e.part !== Part.None).length);
      expect(expected.filter((e) => e.part === Part.Rects).length).toBeGreaterThan(20);
    }
  });

  it("keeps every body's first hit when the stores grow", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 64, growable: true });
      buildLevel(world, 1, false);
      addBodies(world, 1, 56);
      world.moveBodies(ALL, Response.Bounce, 0.5);
      const views = ["hitPart", "hitShape", "hitRect", "hitT", "hitNx", "hitNy"] as const;
      const n = world.count, before = views.map((v) => Array.from(world[v].subarray(0, n)));
      expect(before[0].filter((p) => p !== Part.None).length).toBeGreaterThan(5);
      for (let k = 0; k < 200; k++) world.addPoint(k, 0); // grows the stores twice
      expect(world.capacity).toBeGreaterThan(64);
      views.forEach((v, k) => expect(Array.from(world[v].subarray(0, n)), `${backend} ${v}`).toEqual(before[k]));
    }
  });

  it("lets nothing tunnel: bodies 1000x faster than a wall is thick all stop at it", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const level = world.addRectLevel();
      level.addInstance(level.addPrefab([0, -1000, 1, 2000]), 500, 0);
      const map = world.addTileMap({ cols: 4, rows: 4, tileSize: T, wrap: true, solidFloor: false });
      map.setCell(0, 0, TileCell.Platform);
      const ids = [];
      for (let k = 0; k < 50; k++) {
        const id = world.addCircle(100, 100 + k * 3, 2);
        world.vx[world.indexOf(id)] = 1000 + k * 37;
        ids.push(id);
      }
      expect(world.moveBodies(ALL, Response.Stop)).toBe(50);
      for (const id of ids) {
        const s = world.indexOf(id);
        expect(world.hitPart[s]).toBe(Part.Rects);
        expect(world.x[s]).toBeLessThan(498.1);
        expect(world.x[s]).toBeGreaterThan(497.9);
        expect(world.vx[s]).toBe(0);
      }
    }
  });

  it("meets a cell's rounded corner from a start beside it, inside the grown box but outside the corner's circle", async () => {
    // A circle whose centre starts in a corner square of the cell's box grown by its radius, clear
    // of the corner: the slabs' entries lie behind it, and only the corner's circle can stop it.
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 256 });
      const cols = 8, rows = 8, cells = new Uint8Array(cols * rows);
      const map = world.addTileMap({ cols, rows, tileSize: T });
      map.setCell(3, 3, TileCell.Platform);
      cells[3 * cols + 3] = TileCell.Platform;
      world.addRectLevel(); // empty: the reference casts every part
      world.addPlatforms({ maxRadius: 8 });
      const L: Level = { cols, rows, cells, wrap: false, floor: true };
      const rand = mulberry32(41);
      for (let k = 0; k < 200; k++) {
        const r = 1 + rand() * 5, sx = k & 1 ? 1 : -1, sy = k & 2 ? 1 : -1;
        const kx = sx > 0 ? 4 * T : 3 * T, ky = sy > 0 ? 4 * T : 3 * T;
        let ox: number, oy: number;
        do { ox = rand() * r; oy = rand() * r; } while (ox * ox + oy * oy <= r * r * 1.0001);
        const s = world.indexOf(world.addCircle(kx + sx * ox, ky + sy * oy, r));
        // Towards the cell, more or less: most of these meet the corner, some pass it.
        const angle = Math.atan2(-sy * oy, -sx * ox) + (rand() - 0.5) * 1.2, speed = 0.5 + rand() * 8;
        world.vx[s] = Math.cos(angle) * speed;
        world.vy[s] = Math.sin(angle) * speed;
      }
      const n = world.count, expected = [];
      for (let s = 0; s < n; s++) expected.push(reference(world, L, s, Response.Bounce, 1));
      const hits = world.moveBodies(ALL, Response.Bounce, 1);
      for (let s = 0; s < n; s++) {
        expect(moved(world, s), `${backend} slot ${s}`).toEqual(expected[s]);
      }
      const corner = expected.filter((e) => e.part === Part.Tiles && e.t > 0 && e.nx !== 0 && e.ny !== 0).length;
      expect(hits).toBe(expected.filter((e) => e.part !== Part.None).length);
      expect(corner, `${backend}: corner hits`).toBeGreaterThan(100);
      // Every body ends clear of the cell: none went through its corner.
      expect(world.overlapLevel(ALL), backend).toBe(0);
    }
  });

  it("leaves no body that starts clear of the level inside it: bounces in gaps its own width, off seams and corners", async () => {
    // A body stopped at one shape is put back along its own path, never pushed along the normal
    // into its neighbour. A body inside a shape reports t = 0 and a zero normal, and stays.
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 2048 });
      const n = gapScene(world, 480, 1500);
      const stuck = new Uint8Array(n);
      let hits = 0, became = 0;
      for (let frame = 0; frame < 120; frame++) {
        hits += world.moveBodies(ALL, Response.Bounce, 1);
        for (let s = 0; s < n; s++) {
          const inside = startsInside(world, s) ? 1 : 0;
          if (frame > 0 && inside && !stuck[s]) became++;
          stuck[s] = inside;
        }
      }
      expect(hits, backend).toBeGreaterThan(20000);
      expect(became, `${backend}: bodies left inside a shape they started clear of`).toBe(0);
    }
  });

  it("ends a move that meets nothing exactly where its sweep found room: no f32 rounding lands a sliding body inside", async () => {
    // Sliding bodies creep into corners and wedges in steps far below a skin; the move aims at the
    // f32 position the stores keep, so its end is the one the sweep tested, not a rounding of it
    // that can lie a hair inside a rounded corner or a slope.
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 8192 });
      const n = gapScene(world, 960, 6000);
      const free = new Uint8Array(n);
      let moved = 0, after = 0;
      for (let frame = 0; frame < 150; frame++) {
        world.moveBodies(ALL, Response.Slide, 1);
        for (let s = 0; s < n; s++) {
          if (frame > 0 && free[s] && startsInside(world, s)) after++;
          free[s] = world.hitPart[s] === Part.None ? 1 : 0;
          moved += free[s];
        }
      }
      expect(moved, backend).toBeGreaterThan(300000);
      expect(after, `${backend}: bodies inside a shape right after a move that met nothing`).toBe(0);
    }
  });

  it("refuses bad velocities and bodies too large for the platforms, moving nothing", async () => {
    const world = await newWorld("wasm-scalar");
    const plat = world.addPlatforms({ maxRadius: 5 });
    plat.addSurface(0, 50, 100, 50);
    plat.addSurface(100, 50, 0, 50); // one of the two faces the falling circle, whichever way surfaces face
    const a = world.addCircle(10, 10, 2), b = world.addCircle(20, 10, 2);
    world.vy[world.indexOf(a)] = 100;
    expect(world.moveBodies()).toBe(1); // a lands on the surface
    world.vy[world.indexOf(b)] = NaN;
    const before = world.snapshot();
    expect(() => world.moveBodies()).toThrow(HitcoreError);
    expect(world.snapshot()).toEqual(before);
    world.vy[world.indexOf(b)] = 1;
    world.addCircle(30, 10, 9);
    const again = world.snapshot();
    expect(() => world.moveBodies()).toThrow(/maxRadius/);
    expect(() => world.moveBodies(ALL, 7)).toThrow(/response/);
    expect(() => world.moveBodies(ALL, Response.Bounce, 2)).toThrow(/restitution/);
    expect(world.snapshot()).toEqual(again);
  });
});

const ALL = 0xffffffff;

/**
 * The closest hit of one sweep (a body of KIND_* centred at cx, cy, half extents hx, hy, moving by
 * dx, dy) against every part: the brute-force tile sweep and the rect level's and platforms' own
 * casts; equal times go to the lower Part. Each of moveBodies' sweeps, and each cast.
 */
function castReference(world: World, L: Level | null, kind: number, cx: number, cy: number, hx: number, hy: number, dx: number, dy: number): Hit | null {
  const level = world.rectLevel!, plat = world.platforms!;
  const offers: Hit[] = [];
  const tile = L && tileHit(L, cx, cy, hx, hy, kind === 2 ? hx : 0, dx, dy);
  if (tile) offers.push(tile);
  const mode = kind === 3 ? 1 : kind === 2 && hx > 0 ? 2 : 0;
  if (level.instanceCount > 0 && (level as unknown as { cast(...a: number[]): boolean }).cast(mode, cx, cy, dx, dy, hx, hy)) {
    offers.push({ t: level.hit.t, nx: level.hit.nx, ny: level.hit.ny, part: level.hit.part, shape: level.hit.shape, rect: level.hit.rect });
  }
  if (plat.surfaceCount + plat.polyhedronCount > 0) {
    const hit = kind === 3 ? plat.castBox(cx - hx, cy - hy, 2 * hx, 2 * hy, dx, dy) : plat.castCircle(cx, cy, hx, dx, dy);
    if (hit) offers.push({ t: plat.hit.t, nx: plat.hit.nx, ny: plat.hit.ny, part: plat.hit.part, shape: plat.hit.shape, rect: plat.hit.rect });
  }
  return offers.length ? offers.reduce((p, q) => (q.t < p.t || (q.t === p.t && q.part < p.part) ? q : p)) : null;
}

describe.each(BACKENDS)("moveBodies' refusal check (%s)", (backend) => {
  // The SIMD core passes four slots at a time when every number is well inside the limits and
  // tests the four exactly otherwise: a bad number anywhere in a block, in a body the call moves
  // or not, must give the answer the exact test gives.
  it("refuses exactly the bodies in the mask holding a bad number or too large for the platforms, wherever they sit", async () => {
    const rand = mulberry32(41);
    const bad = [NaN, Infinity, -Infinity, 1.5e30, -1.5e30];
    for (let trial = 0; trial < 40; trial++) {
      const world = await newWorld(backend, { capacity: 32 });
      world.addPlatforms({ maxRadius: 6 }).addSurface(0, 300, 400, 300);
      const n = 9 + Math.floor(rand() * 20);
      for (let k = 0; k < n; k++) {
        const kind = k % 3;
        if (kind === 0) world.addPoint(rand() * 200, rand() * 200, 1 + (k & 1));
        else if (kind === 1) world.addCircle(rand() * 200, rand() * 200, 1 + rand() * 4, 1 + (k & 1));
        else world.addRect(rand() * 200, rand() * 200, 1 + rand() * 6, 1 + rand() * 6, 1 + (k & 1));
        world.vx[k] = rand() * 8 - 4;
        world.vy[k] = rand() * 8 - 4;
      }
      world.moveBodies(1 << 30); // readies the level
      const slot = Math.floor(rand() * n), inMask = (world.groups[slot] & 1) !== 0, kind = world.kinds[slot];
      const what = Math.floor(rand() * 4);
      if (what === 0) world.vx[slot] = bad[Math.floor(rand() * bad.length)];
      else if (what === 1) world.y[slot] = bad[Math.floor(rand() * bad.length)];
      else if (what === 2) world.a[slot] = -1; // a negative size, read for every kind
      else world.a[slot] = 7; // past the platforms' radius for a circle; a 7-wide rect's half diagonal is below it
      const refused = inMask && (what <= 2 || kind === Kind.Circle);
      const before = world.snapshot();
      if (refused) {
        expect(() => world.moveBodies(1)).toThrow(new RegExp(`slot ${slot}\\b`));
        expect(world.snapshot()).toEqual(before);
      } else {
        expect(world.moveBodies(1)).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe("casts against every part of the level", () => {
  it("castSegment, castCircle, castBox and castMany agree with the reference", async () => {
    for (const backend of BACKENDS) {
      for (let seed = 1; seed <= 3; seed++) {
        const world = await newWorld(backend);
        const L = buildLevel(world, seed, false);
        const rand = mulberry32(seed + 50);
        const n = 300;
        world.ensureCasts(n);
        let hits = 0;
        for (const sweep of [Sweep.Point, Sweep.Circle, Sweep.Box]) {
          const expected: (Hit | null)[] = [];
          for (let k = 0; k < n; k++) {
            const x = f32(rand() * 400 - 8), y = f32(rand() * 280 - 8), fast = rand() < 0.1 ? 1000 : 1;
            const dx = f32((rand() * 60 - 30) * fast), dy = f32((rand() * 60 - 30) * fast);
            const a = sweep === Sweep.Point ? 0 : f32(1 + rand() * 5), b = sweep === Sweep.Box ? f32(1 + rand() * 5) : a;
            world.castInputs.set([x, y, dx, dy, a, b], 6 * k); // re-read: a cast may grow memory
            const kind = sweep === Sweep.Box ? 3 : sweep === Sweep.Circle ? 2 : 1;
            const e = castReference(world, L, kind, x, y, a, b, dx, dy);
            expected.push(e);
            const one = sweep === Sweep.Box ? world.castBox(x - a, y - b, 2 * a, 2 * b, dx, dy)
              : sweep === Sweep.Circle ? world.castCircle(x, y, a, dx, dy) : world.castSegment(x, y, dx, dy);
            expect(one).toBe(e !== null);
            if (e && sweep !== Sweep.Box) {
              // castBox takes the top-left corner, whose centre may round differently; castMany below checks boxes exactly.
              expect([world.hit.part, world.hit.shape, world.hit.rect, world.hit.t, world.hit.nx, world.hit.ny]).toEqual([e.part, e.shape, e.rect, e.t, e.nx, e.ny]);
            }
          }
          const found = world.castMany(n, sweep);
          const ints = world.castHitInts, reals = world.castHitReals;
          for (let k = 0; k < n; k++) {
            const e = expected[k];
            expect([ints[3 * k], ints[3 * k + 1], ints[3 * k + 2], reals[3 * k], reals[3 * k + 1], reals[3 * k + 2]], `${backend} ${sweep} cast ${k}`)
              .toEqual(e ? [e.part, e.shape, e.rect, f32(e.t), f32(e.nx), f32(e.ny)] : [Part.None, -1, -1, 1, 0, 0]);
          }
          expect(found).toBe(expected.filter(Boolean).length);
          hits += found;
        }
        expect(hits).toBeGreaterThan(100);
      }
    }
  });

  it("refuses bad casts before casting anything", async () => {
    const world = await newWorld("js");
    world.addPlatforms({ maxRadius: 4 });
    expect(() => world.castCircle(0, 0, 5, 1, 1)).toThrow(/maxRadius/);
    expect(() => world.castSegment(0, NaN, 1, 1)).toThrow(HitcoreError);
    world.ensureCasts(4);
    world.castInputs.set([0, 0, 1, 1, 9, 0], 6);
    expect(() => world.castMany(2, Sweep.Circle)).toThrow(/cast 1/);
    expect(() => world.castMany(17)).toThrow(/count/); // ensureCasts(4) made room for 16
  });
});

/** A wrapping map: its size, floor and cells ([col, row, TileCell]). */
interface WrapMap { cols: number; rows: number; size: number; floor: boolean; cells: [number, number, number][] }

/** The first hit of the body `add` puts in a fresh world on the map, moved by (vx, vy) times k with Response.Stop. */
async function wrapMoveHit(backend: (typeof BACKENDS)[number], map: WrapMap, add: (world: World) => number, vx: number, vy: number, k: number) {
  const world = await newWorld(backend);
  const tiles = world.addTileMap({ cols: map.cols, rows: map.rows, tileSize: map.size, wrap: true, solidFloor: map.floor });
  for (const [c, r, cell] of map.cells) tiles.setCell(c, r, cell);
  const s = world.indexOf(add(world));
  // The body's own sweep, cast as it stands (moveBodies aims each move at the f32 position it
  // stores, which turns a move this long by its rounding, a different turn for each scale).
  const x = world.x[s], y = world.y[s], a = world.a[s], b = world.b[s], dx = f32(vx * k), dy = f32(vy * k);
  const kind = world.kinds[s];
  if (kind === Kind.Point) world.castSegment(x, y, dx, dy);
  else if (kind === Kind.Circle) world.castCircle(x, y, a, dx, dy);
  else world.castBox(x, y, a, b, dx, dy);
  const h = world.hit;
  return { part: h.part, shape: h.shape, t: f32(h.t), nx: f32(h.nx), ny: f32(h.ny) };
}

/**
 * The long move meets the cell the move scaled by `scale` meets, at the scaled time, or no cell
 * before where the short move ends. Returns whether the short move met a cell.
 */
function expectScaledHit(short: Awaited<ReturnType<typeof wrapMoveHit>>, long: Awaited<ReturnType<typeof wrapMoveHit>>, scale: number, what: string): boolean {
  if (short.part === Part.Tiles) {
    expect({ part: long.part, shape: long.shape, nx: long.nx, ny: long.ny }, what).toEqual({ part: short.part, shape: short.shape, nx: short.nx, ny: short.ny });
    expect(long.t / scale, what).toBeCloseTo(short.t, 5);
    return true;
  }
  if (long.part === Part.Tiles) expect(long.t, what).toBeGreaterThanOrEqual(scale * (1 - 1e-6)); // beyond where the short move ends
  return false;
}

describe("sweeps on a wrapping map, moves longer than 2^20 cells", () => {
  // A move that long is cut into 2^20 pieces, each longer than the map, so each piece's cells are
  // taken from a window of the map's columns. The same move scaled down by a power of two (exact
  // in f32: the same direction) runs in pieces of a cell and meets the same cell first, at the
  // time scaled by the same factor; the scaled move's own sweeps are checked against the brute
  // force above. Bodies moving across rows and around the map, into the floor or through gaps.
  it("meets the cell the same move scaled down meets, at the scaled time", async () => {
    const rand = mulberry32(5150);
    let hits = 0;
    for (const backend of BACKENDS) {
      for (let scene = 0; scene < 40; scene++) {
        const cols = 5 + Math.floor(rand() * 26), rows = 3 + Math.floor(rand() * 10), size = [1, 16, 0.25][scene % 3];
        const floor = rand() < 0.5, cells: [number, number, number][] = [];
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (rand() < 0.12) cells.push([c, r, TileCell.Platform]);
        const kind = scene % 3;
        const x = rand() * cols * size, y = (rand() * (rows + 2) - 1) * size;
        // Every fourth scene nearly along the rows (or exactly): the body stays in its rows for
        // many laps of the map, where the cast stops testing a row once it has crossed it whole.
        const along = scene % 4 === 3, angle = along ? (rand() < 0.5 ? 0 : Math.PI) + (rand() < 0.3 ? 0 : (rand() - 0.5) * 1e-5) : rand() * 2 * Math.PI;
        const cellsMoved = 2 ** (21 + rand() * 20);
        const vx = f32(Math.cos(angle) * cellsMoved * size), vy = f32(Math.sin(angle) * cellsMoved * size);
        const scale = 2 ** -(Math.ceil(Math.log2(cellsMoved)) - 18); // about 2^18 cells: no cap
        const map = { cols, rows, size, floor, cells };
        const add = (world: World) => (kind === 0 ? world.addPoint(x, y) : kind === 1 ? world.addCircle(x, y, 0.3 * size) : world.addRect(x, y, 0.5 * size, 0.7 * size));
        const short = await wrapMoveHit(backend, map, add, vx, vy, scale), long = await wrapMoveHit(backend, map, add, vx, vy, 1);
        if (expectScaledHit(short, long, scale, `${backend} scene ${scene}: ${JSON.stringify({ cols, rows, size, floor, kind, x, y, vx, vy })}`)) hits++;
      }
    }
    expect(hits).toBeGreaterThan(30);
  }, 120_000);

  it("one-way cells a long move grazes: it meets those the same move scaled down meets, and passes the others", async () => {
    // One-way cells stop only a body coming down from at or above their row's top: a row of them
    // the body is in, or moves up through, holds nothing for it, and the pieces stop testing it.
    const rand = mulberry32(6160);
    let hits = 0, oneWayHits = 0;
    for (const backend of BACKENDS) {
      for (let scene = 0; scene < 36; scene++) {
        const cols = 5 + Math.floor(rand() * 20), rows = 4 + Math.floor(rand() * 6), size = [1, 16, 0.25][scene % 3];
        const cells: [number, number, number][] = [];
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) { const v = rand(); if (v < 0.25) cells.push([c, r, TileCell.OneWay]); else if (v < 0.3) cells.push([c, r, TileCell.Platform]); }
        const kind = scene % 3, row = 1 + Math.floor(rand() * (rows - 1));
        // The body's bottom on a row's top, a little above or a little into it; moving nearly along the rows.
        const h = (0.3 + rand()) * size, bottom = row * size + [0, -0.05, 0.05, 0.3][scene % 4] * size;
        const x = rand() * cols * size, y = kind === 0 ? bottom : kind === 1 ? bottom - 0.4 * size : bottom - h;
        const cellsMoved = 2 ** (21 + rand() * 16), dir = rand() < 0.5 ? -1 : 1;
        const vx = f32(dir * cellsMoved * size), vy = f32([1e-7, -1e-7, 1e-4, -1e-4][Math.floor(rand() * 4)] * cellsMoved * size);
        const scale = 2 ** -(Math.ceil(Math.log2(cellsMoved)) - 18);
        const map = { cols, rows, size, floor: true, cells };
        const add = (world: World) => (kind === 0 ? world.addPoint(x, y) : kind === 1 ? world.addCircle(x, y, 0.4 * size) : world.addRect(x, y, 0.6 * size, h));
        const short = await wrapMoveHit(backend, map, add, vx, vy, scale), long = await wrapMoveHit(backend, map, add, vx, vy, 1);
        if (!expectScaledHit(short, long, scale, `${backend} scene ${scene}: ${JSON.stringify({ cols, rows, size, kind, x, y, vx, vy })}`)) continue;
        hits++;
        if (short.shape >= 0 && cells.some(([c, r, cell]) => r * cols + c === short.shape && cell === TileCell.OneWay)) oneWayHits++;
      }
    }
    expect(hits).toBeGreaterThan(20);
    expect(oneWayHits).toBeGreaterThan(5);
  }, 120_000);

  it("a ray across tiles of 1e-300 stops on the floor, after rows done pieces apart", async () => {
    // The first piece spans every row: rows with nothing solid in the window are done at once,
    // the others and the floor a piece later, apart from them. The body never comes back to rows
    // it passed, so the run of done rows restarts at the floor, and the pieces stop there.
    const ascii = ["XXXXXXXXXXXXXXXXXHXX", "   o      H     H   ", "  ---    XH  1  H  ^", "         XH XXXXX   ", " 0   o    H         ", "XXXXX  XXXXXXX   XXX", "       ^^       2   ", "XXXXXXXXXXXXXXXXXXXX"];
    for (const backend of BACKENDS) {
      for (const size of [1e-100, 1e-300]) {
        const world = await newWorld(backend);
        world.addTileMap({ ascii, tileSize: size, wrap: true });
        for (const [x, y, dx, dy] of [[85.375, 5.4e-323, -123.125, 1], [-7, 2e-300, -1, 0.01], [1e5, 1e-310, 3, 1]]) {
          const what = `${backend}, tiles ${size}: ray from (${x}, ${y}) along (${dx}, ${dy})`;
          expect(world.castRay(x, y, dx, dy, 42.5), what).toBe(true);
          const len = Math.hypot(dx, dy), vy = (dy / len) * 42.5;
          expect([world.hit.part, world.hit.shape, world.hit.ny], what).toEqual([Part.Tiles, -1, -1]);
          expect(world.hit.t / ((ascii.length * size - y) / vy), what).toBeCloseTo(1, 9);
        }
      }
    }
  });

  it("a move so long that a tile is below the spacing of its positions stops on the solid floor, just above it", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const size = 3.7, rows = 5;
      world.addTileMap({ cols: 15, rows, tileSize: size, wrap: true, solidFloor: true });
      for (const [kind, x, y, vx, vy] of [[0, 88.5, -3.4, -4.18e19, 5120.25], [2, 10, 2, 2.04e21, 2.5e5], [1, -98, 4, -8.4e24, 1.03e9]] as const) {
        const id = kind === 0 ? world.addPoint(x, y) : kind === 1 ? world.addCircle(x, y, 1.1) : world.addRect(x, y, 1.5, 2.5);
        const s = world.indexOf(id), below = kind === 0 ? 0 : kind === 1 ? 1.1 : 2.5; // from y to the body's bottom
        world.vx[s] = vx;
        world.vy[s] = vy;
        world.moveBodies(ALL, Response.Stop);
        const what = `${backend}: body ${kind} moving (${vx}, ${vy})`;
        expect({ part: world.hitPart[s], shape: world.hitShape[s], ny: world.hitNy[s] }, what).toEqual({ part: Part.Tiles, shape: -1, ny: -1 });
        // Its bottom on the floor's top (row 5), off it by a skin of y's own rounding.
        const bottom = world.y[s] + below;
        expect(bottom, what).toBeLessThan(rows * size);
        expect(bottom, what).toBeGreaterThan(rows * size - 0.5);
        world.remove(id);
      }
    }
  });
});
