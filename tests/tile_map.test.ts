// The tile map: collision points and swept boxes agree between the wasm cores, the js backend and
// the brute-force references (tests/tiles_reference.ts) on seeded random maps, including the hard
// cases (points on cell edges, monsters straddling cells and the wrap seam, any number of monsters
// in one cell, boxes flush against tiles, movers much faster than a tile per frame); boxes slide
// across 1,000 tile seams without snagging; loaders and bad input fail with HitcoreError and leave
// the store unchanged. Coordinates are y-down, row 0 on top; the scenes are the y-up scenes they
// replace mirrored (y -> H - y for points, H - y - h for a box's top, dy -> -dy), expectations too.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../fixtures/random.js";
import { randomAscii, SEED_TOWER } from "../fixtures/tile_maps.js";
import {
  TileCell, TileContact, TileHit, HitcoreError, IdKind, NO_MONSTER, OUTSIDE_MAP, parseAsciiMap, seedCollisionPoints,
  type TileMap, type TileMapOptions,
} from "../bindings/node.js";
import { RefMap } from "./tiles_reference.js";
import { BACKENDS, backendOptions, newTileMap } from "./support.js";

const core = WebAssembly.compile(await readFile(new URL("../dist/hitcore.wasm", import.meta.url)));

export async function tileMaps(options: TileMapOptions): Promise<TileMap[]> {
  const maps: TileMap[] = [];
  for (const backend of BACKENDS) maps.push(await newTileMap({ ...options, ...(await backendOptions(backend)) }));
  return maps;
}

function expectHitcoreError(fn: () => unknown, code: string, text: RegExp): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, "expected a HitcoreError").toBeInstanceOf(HitcoreError);
  expect((error as HitcoreError).code).toBe(code);
  expect((error as HitcoreError).message).toMatch(text);
}

describe("ASCII maps", () => {
  it("loads the seed's tower: first line on top, flags and monsters where the text puts them", async () => {
    for (const m of await tileMaps({ ascii: SEED_TOWER, tileSize: 32, wrap: true })) {
      expect([m.cols, m.rows]).toEqual([20, SEED_TOWER.length]);
      for (let line = 0; line < m.rows; line++) {
        const row = line;
        for (let col = 0; col < m.cols; col++) {
          const ch = SEED_TOWER[line][col];
          const want = ch === "X" ? TileCell.Platform : ch === "H" ? TileCell.Ladder : ch === "o" ? TileCell.Coin : 0;
          expect(m.cellAt(col, row) & ~TileCell.MonsterNear, `line ${line} col ${col} '${ch}'`).toBe(want);
        }
      }
      // Monsters 0, 0, 3, 2 in text order (top to bottom, left to right).
      expect(m.monsterCount).toBe(4);
      expect(Array.from(m.monsterTypes.subarray(0, 4))).toEqual([0, 0, 3, 2]);
      // Line 9's monster stands on the bottom of its cell (row 9).
      expect(Array.from(m.monsterBoxes.subarray(0, 4))).toEqual([16 * 32, 9 * 32, 32, 32]);
      m.validate();
    }
  });

  it("names the row and column of malformed maps", async () => {
    expectHitcoreError(() => parseAsciiMap(["XX ", "X"]), "MALFORMED_MAP", /line 1 has 1 characters, expected 3/);
    expectHitcoreError(() => parseAsciiMap(["XX ", "X?X"]), "MALFORMED_MAP", /line 1, column 1: unknown character "\?"/);
    expectHitcoreError(() => parseAsciiMap([]), "MALFORMED_MAP", /no rows/);
    expectHitcoreError(() => parseAsciiMap([""]), "MALFORMED_MAP", /row 0/);
    await expect(newTileMap({ ascii: ["X", "XY"], wasm: await core })).rejects.toThrow(/line 1/);
  });

  it("the seed-002 grid check: may a point move here", async () => {
    for (const m of await tileMaps({ ascii: ["X  ", " X "], tileSize: 10 })) {
      expect(m.canMoveTo(5, 5)).toBe(false); // X in the top row, column 0
      expect(m.canMoveTo(15, 5)).toBe(true);
      expect(m.canMoveTo(15, 15)).toBe(false);
      expect(m.canMoveTo(29.9, 0.1)).toBe(true);
      expect(m.canMoveTo(30, 15)).toBe(false); // beside the map: a wall
      expect(m.canMoveTo(-0.1, 15)).toBe(false);
      expect(m.canMoveTo(5, 20.1)).toBe(false); // the floor
      expect(m.canMoveTo(5, -5)).toBe(true); // air above
      // On the line between two rows, a point is in the row above: the floor's top edge is not in it.
      expect(m.canMoveTo(5, 20)).toBe(true);
      expect(m.canMoveTo(15, 10)).toBe(true);
      expect(m.canMoveTo(15, 20)).toBe(false);
    }
    for (const m of await tileMaps({ ascii: ["X  ", " X "], tileSize: 10, wrap: true })) {
      expect(m.canMoveTo(35, 5)).toBe(false); // wraps to column 0
      expect(m.canMoveTo(-25, 5)).toBe(false);
      expect(m.canMoveTo(-5, 5)).toBe(true); // column 2
    }
  });
});

/** Random maps with monsters added on top of the ASCII ones: off-grid, straddling cells and the seam, many per cell. */
async function randomPointMaps(seed: number, wrap: boolean): Promise<TileMap[]> {
  const T = 16;
  const maps = await tileMaps({ ascii: randomAscii(24, 18, seed), tileSize: T, wrap, monsterSize: 12, solidFloor: seed % 2 === 0 });
  const rnd = mulberry32(seed + 100);
  const H = 18 * T;
  for (let k = 0; k < 40; k++) {
    const w = Math.floor(rnd() * (T + 1)), h = Math.floor(rnd() * (T + 1));
    let x = Math.floor(rnd() * 24 * T), y = H - h - Math.floor(rnd() * (18 * T - h));
    if (k % 8 === 0) { x = 5 * T + 2; y = H - h - (7 * T + 1); } // many in one cell
    if (wrap && k % 9 === 0) x = 24 * T - Math.floor(w / 2); // straddling the seam
    if (!wrap && x + w / 2 >= 24 * T) x = 24 * T - w;
    for (const m of maps) m.addMonster(x, y, w, h, k % 4);
  }
  return maps;
}

describe("collision points", () => {
  it.each([[1, false], [2, true], [3, false], [4, true]])("match the seed's point check on random maps (seed %i, wrap %s)", async (seed, wrap) => {
    const maps = await randomPointMaps(seed, wrap);
    const T = 16;
    const ref = new RefMap(maps[0], maps[0].tileSize / 2);
    const rnd = mulberry32(seed);
    const n = 600;
    const points = seedCollisionPoints(20, 28, T);
    for (const m of maps) {
      m.setPoints(points);
      m.ensureEntities(n);
    }
    for (const m of maps) {
      const xs = m.entityX, ys = m.entityY;
      const r2 = mulberry32(seed * 7);
      for (let e = 0; e < n; e++) {
        // Integer and half-unit origins, on and off cell edges, some outside the map.
        xs[e] = Math.floor(r2() * 30 * T * 2) / 2 - 3 * T;
        ys[e] = 20 * T - Math.floor(r2() * 22 * T * 2) / 2;
        if (e % 10 === 0) { xs[e] = Math.floor(r2() * 24) * T; ys[e] = (18 - Math.floor(r2() * 18)) * T; }
      }
    }
    void rnd;
    const counts = maps.map((m) => m.collidePoints(n));
    for (const c of counts) expect(c).toBe(counts[0]);
    const np = points.length / 2;
    let hit = 0, monsters = 0, coins = 0;
    for (let e = 0; e < n; e++) {
      for (let p = 0; p < np; p++) {
        const want = ref.point(maps[0].entityX[e], maps[0].entityY[e], points[2 * p], points[2 * p + 1]);
        for (const m of maps) {
          const k = e * np + p;
          expect([m.pointCells[k], m.pointHits[k], m.pointMonsters[k]], `${m.backend} entity ${e} point ${p}`).toEqual([want.cell, want.hits, want.monster]);
        }
        if (want.hits) hit++;
        if (want.monster >= 0) monsters++;
        if (want.hits & TileHit.Coin) coins++;
      }
    }
    expect(counts[0]).toBe(hit);
    // The scenes exercise the box checks, not only the cell flags.
    expect(monsters).toBeGreaterThan(0);
    expect(coins).toBeGreaterThan(0);
    for (const m of maps) expect(m.stats.monsterTests).toBe(maps[0].stats.monsterTests);
  });

  it("holds any number of monsters per cell, through moves and removals", async () => {
    for (const m of await tileMaps({ cols: 4, rows: 4, tileSize: 10 })) {
      const ids = [0, 1, 2, 3, 4].map((k) => m.addMonster(11 + k, 27, 2, 2));
      const slots = ids.map((id) => m.indexOf(id)); // pointMonsters gives slots
      m.setPoints([0, 0]);
      const probe = (x: number, y: number) => {
        m.entityX[0] = x;
        m.entityY[0] = y;
        m.collidePoints(1);
        return m.pointMonsters[0];
      };
      expect(probe(11, 28)).toBe(slots[0]);
      expect(probe(15.5, 28)).toBe(slots[3]); // monsters 3 (14..16) and 4 (15..17): the lowest slot
      m.removeMonster(ids[3]);
      expect(probe(15.5, 28)).toBe(slots[4]);
      m.moveMonster(ids[4], 28, 10); // to another cell
      expect(probe(15.5, 28)).toBe(NO_MONSTER);
      expect(probe(29, 11)).toBe(slots[4]);
      const again = m.addMonster(19, 19, 2, 2); // reuses the freed slot under a new handle; centre (20, 20), on a cell corner: cell (2, 1)
      expect(m.indexOf(again)).toBe(slots[3]);
      expect(again).not.toBe(ids[3]);
      expect(m.isMonster(ids[3])).toBe(false);
      expect(m.idAt(IdKind.Monster, slots[3])).toBe(again);
      expect(probe(20, 20)).toBe(slots[3]);
      m.validate();
    }
  });

  it("reports cells outside the map as OUTSIDE_MAP: floor solid, walls solid, air empty", async () => {
    for (const m of await tileMaps({ cols: 3, rows: 2, tileSize: 8 })) {
      m.setPoints([0, 0]);
      const at = (x: number, y: number): [number, number] => {
        m.entityX[0] = x; m.entityY[0] = y;
        m.collidePoints(1);
        return [m.pointCells[0], m.pointHits[0]];
      };
      expect(at(4, 17)).toEqual([OUTSIDE_MAP, TileHit.Blocked]);
      expect(at(-1, 12)).toEqual([OUTSIDE_MAP, TileHit.Blocked]);
      expect(at(24, 12)).toEqual([OUTSIDE_MAP, TileHit.Blocked]);
      expect(at(4, 0)).toEqual([OUTSIDE_MAP, 0]); // on the map's top edge: the row above it
      expect(at(23.999, 0.001)).toEqual([2, 0]);
      expect(at(4, 16)).toEqual([3, 0]); // on the map's bottom edge: the bottom row, not the floor
    }
  });
});

describe("swept boxes", () => {
  it.each([[11, false], [12, true], [13, false]])("match unit-step movement on random maps (seed %i, wrap %s)", async (seed, wrap) => {
    const T = 8;
    const maps = await tileMaps({ ascii: randomAscii(30, 20, seed, 0.3), tileSize: T, wrap, solidFloor: seed !== 13 });
    const ref = new RefMap(maps[0], T / 2);
    const H = 20 * T;
    const rnd = mulberry32(seed);
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const boxes: number[][] = [];
    while (boxes.length < 400) {
      const w = int(1, 3 * T), h = int(1, 3 * T);
      // Flush against cell edges half the time (the bottom edge: y + h on a row line).
      let x = int(0, 30 * T - w), y = int(0, 20 * T - h);
      if (rnd() < 0.5) { x -= x % T; y -= y % T; }
      if (rnd() < 0.25) x = 30 * T - w - (wrap ? -int(1, w) : 0);
      y = H - h - y;
      if (!ref.boxFree(x, y, w, h)) continue;
      const fast = rnd() < 0.3 ? 40 : 1;
      boxes.push([x, y, w, h, int(-3 * T, 3 * T) * fast, -int(-3 * T, 3 * T) * fast]);
    }
    for (const m of maps) {
      m.ensureBoxes(boxes.length);
      boxes.forEach((b, i) => m.boxes.set(b, 6 * i));
    }
    const touched = maps.map((m) => m.moveBoxes(boxes.length));
    let want = 0;
    boxes.forEach((b, i) => {
      const [x, y, contacts] = ref.moveBox(b[0], b[1], b[2], b[3], b[4], b[5]);
      if (contacts) want++;
      for (const m of maps) {
        expect([m.boxes[6 * i], m.boxes[6 * i + 1], m.boxContacts[i]], `${m.backend} box ${i} ${b.join(",")}`).toEqual([x, y, contacts]);
      }
    });
    expect(touched).toEqual(maps.map(() => want));
    expect(want).toBeGreaterThan(50);
  });

  it("slides across 1,000 tile seams at several speeds and heights without snagging", async () => {
    const T = 16, cols = 1100;
    // A floor row and a ceiling row four tiles above it, both made of single tiles with seams between.
    const floor = "X".repeat(cols), air = " ".repeat(cols);
    for (const m of await tileMaps({ ascii: [floor, air, air, air, air, floor], tileSize: T })) {
      // The floor row's top is at 5 T, the ceiling row's underside at T.
      const cases: { h: number; y: number; dy: number; contact: number }[] = [
        { h: 12, y: 5 * T - 12, dy: 2, contact: TileContact.Down }, // pressed onto the floor by gravity
        { h: 12, y: 5 * T - 12, dy: 0, contact: 0 }, // resting exactly on it
        { h: 12, y: 5 * T - 12.5, dy: 0, contact: 0 }, // hovering just above
        { h: 20, y: T, dy: -3, contact: TileContact.Up }, // pushed into the ceiling
        { h: 4 * T, y: T, dy: 1, contact: TileContact.Down }, // filling the gap exactly, floor to ceiling
      ];
      for (const speed of [0.25, 1, 7, 15.5, 16, 40]) {
        for (const c of cases) {
          const b = m.boxes;
          b.set([2 * T, c.y, 10, c.h, speed, c.dy], 0);
          let frames = 0, snags = 0, firstSnag = "";
          while (b[0] < 2 * T + 1000 * T) {
            const before = b[0];
            m.moveBoxes(1);
            frames++;
            // expect() per frame is slow at 64k frames: count the frames that went wrong instead.
            if (b[0] !== before + speed || b[1] !== c.y || m.boxContacts[0] !== c.contact) {
              if (!snags++) firstSnag = `frame ${frames}: x ${before} -> ${b[0]}, y ${b[1]}, contacts ${m.boxContacts[0]}`;
            }
          }
          expect(snags, `${m.backend} speed ${speed} y ${c.y} h ${c.h}: ${firstSnag}`).toBe(0);
          expect(frames).toBe(Math.ceil((1000 * T) / speed));
        }
      }
    }
  }, 120_000);

  it("stops fast movers at a one-tile wall, however fast (no tunnelling)", async () => {
    const T = 16;
    const line = " ".repeat(20) + "X" + " ".repeat(200);
    for (const m of await tileMaps({ ascii: [line, line], tileSize: T })) {
      for (const speed of [400, 1000, 3333.5, 100000]) {
        m.boxes.set([2, 24, 5, 5, speed, 0], 0);
        m.boxes.set([30 * T - 7, 6, 6, 6, -speed, 0], 6);
        m.moveBoxes(2);
        expect(m.boxes[0]).toBe(20 * T - 5);
        expect(m.boxContacts[0]).toBe(TileContact.Right);
        expect(m.boxes[6]).toBe(21 * T);
        expect(m.boxContacts[1]).toBe(TileContact.Left);
      }
      // Falling from far above onto the floor (its top at 2 T), and onto a one-tile floor piece (at 0).
      m.boxes.set([2, 2 * T - 1e6 - 5, 5, 5, 0, 2e6], 0);
      m.moveBoxes(1);
      expect([m.boxes[1], m.boxContacts[0]]).toEqual([2 * T - 5, TileContact.Down]);
      m.boxes.set([20 * T + 3, 2 * T - 1e5 - 5, 5, 5, 0, 2e5], 0);
      m.moveBoxes(1);
      expect([m.boxes[1], m.boxContacts[0]]).toEqual([-5, TileContact.Down]);
    }
  });

  it("one-way platforms stop what comes down onto them and let everything else through", async () => {
    for (const m of await tileMaps({ ascii: ["     ", "  -  ", "     "], tileSize: 10 })) {
      m.boxes.set([21, 0, 5, 5, 0, 10], 0); // from above: lands on top (y 10, its bottom at 10)
      m.boxes.set([21, 23, 5, 5, 0, -20], 6); // from below: passes through
      m.boxes.set([5, 13, 5, 5, 20, 0], 12); // sideways: passes through
      m.moveBoxes(3);
      expect(Array.from(m.boxes.subarray(0, 2))).toEqual([21, 5]);
      expect(Array.from(m.boxes.subarray(6, 8))).toEqual([21, 3]);
      expect(Array.from(m.boxes.subarray(12, 14))).toEqual([25, 13]);
      expect(Array.from(m.boxContacts.subarray(0, 3))).toEqual([TileContact.Down, 0, 0]);
    }
  });
});

describe("rejected calls leave the store unchanged", () => {
  it("bad boxes, points, monsters, cells and options", async () => {
    for (const m of await tileMaps({ ascii: SEED_TOWER, tileSize: 32, wrap: true })) {
      const cells = Array.from(m.cells);
      m.boxes.set([40, 40, 8, 8, 3, 0, 60, 60, 8, 8, NaN, 0], 0);
      expectHitcoreError(() => m.moveBoxes(2), "INVALID_ARGUMENT", /box 1/);
      expect(Array.from(m.boxes.subarray(0, 2))).toEqual([40, 40]);
      m.boxes.set([40, 40, 0, 8, 3, 0], 0);
      expectHitcoreError(() => m.moveBoxes(1), "INVALID_ARGUMENT", /sizes positive/);
      expectHitcoreError(() => m.moveBoxes(m.boxCapacity + 1), "CAPACITY", /ensureBoxes/);

      m.entityX[0] = 5; m.entityY[0] = 5;
      m.collidePoints(1);
      const before = Array.from(m.pointHits.subarray(0, 10));
      m.entityX[0] = Infinity;
      expectHitcoreError(() => m.collidePoints(1), "INVALID_ARGUMENT", /entity 0/);
      expect(Array.from(m.pointHits.subarray(0, 10))).toEqual(before);
      expectHitcoreError(() => m.setPoints([1, 2, 3]), "INVALID_ARGUMENT", /pairs/);
      expectHitcoreError(() => m.setPoints(new Array(34).fill(0)), "INVALID_ARGUMENT", /1 to 16/);

      const monsters = m.monsterCount;
      expectHitcoreError(() => m.addMonster(10, 10, 40, 4), "INVALID_ARGUMENT", /monster size/);
      expectHitcoreError(() => m.addMonster(10, -100, 4, 4), "INVALID_ARGUMENT", /outside the map/);
      expectHitcoreError(() => m.addMonster(NaN, 10, 4, 4), "INVALID_ARGUMENT", /monster x/);
      expectHitcoreError(() => m.moveMonster(99, 10, 10), "UNKNOWN_ID", /not an id.*addMonster/);
      expectHitcoreError(() => m.moveMonster(m.idAt(IdKind.Monster, 0), 10, 1e9), "INVALID_ARGUMENT", /outside the map/);
      expect(m.monsterCount).toBe(monsters);
      m.validate();

      expectHitcoreError(() => m.setCell(20, 0, 1), "INVALID_ARGUMENT", /outside/);
      expectHitcoreError(() => m.setCell(0, 0, 128), "INVALID_ARGUMENT", /0-127/);
      expect(Array.from(m.cells)).toEqual(cells);

      const id = m.addController(16, 0);
      const state = m.controller(id);
      expectHitcoreError(() => m.stepControllers(NaN), "INVALID_ARGUMENT", /dt/);
      expectHitcoreError(() => m.stepControllers(0), "INVALID_ARGUMENT", /dt/);
      expectHitcoreError(() => m.setInput(id, 64), "INVALID_ARGUMENT", /Input/);
      expectHitcoreError(() => m.setInput(5, 1), "UNKNOWN_ID", /addController/);
      expectHitcoreError(() => m.setInput(id + 5, 1), "UNKNOWN_ID", /never issued/);
      expect(m.controller(id)).toEqual(state);
    }
    await expect(newTileMap({ ascii: ["X"], tiled: {}, wasm: await core })).rejects.toThrow(/exactly one map/);
    await expect(newTileMap({ cols: 4, rows: 4, tileSize: -1, wasm: await core })).rejects.toThrow(/tileSize/);
    await expect(newTileMap({ cols: 4, rows: 4, monsterSize: 64, tileSize: 32, wasm: await core })).rejects.toThrow(/monsterSize/);
    await expect(newTileMap({ cols: 100000, rows: 100000, wasm: await core })).rejects.toThrow(/over the limit/);
    await expect(newTileMap({ cols: 4, rows: 4, backend: "gpu" as never, wasm: await core })).rejects.toThrow(/backend/);
  });

  it("grows its stores (x2) and keeps their contents", async () => {
    for (const m of await tileMaps({ ascii: SEED_TOWER, tileSize: 32, entityCapacity: 2, boxCapacity: 1, monsterCapacity: 1, controllerCapacity: 1 })) {
      const ids: number[] = [];
      for (let k = 0; k < 9; k++) ids.push(m.addMonster(32 * k + 1, m.height - 41, 8, 8, k));
      const cells = Array.from(m.cells);
      const c0 = m.addController(16, 0), c1 = m.addController(48, 0);
      m.setInput(c1, 2);
      m.ensureEntities(100);
      m.ensureBoxes(50);
      expect(m.entityCapacity).toBe(128);
      expect(m.boxCapacity).toBe(64);
      expect(m.monsterCapacity).toBeGreaterThanOrEqual(13);
      expect(Array.from(m.cells)).toEqual(cells);
      expect(Array.from(m.monsterTypes.subarray(4, 13))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(m.controllerX(c0)).toBe(16);
      expect(m.controllerX(c1)).toBe(48);
      m.validate();
      m.setPoints([0, 0]);
      m.entityX[99] = 32 * 3 + 4; m.entityY[99] = m.height - 34;
      m.collidePoints(100);
      expect(m.pointMonsters[99 * 1]).toBe(m.indexOf(ids[3]));
    }
  });
});
