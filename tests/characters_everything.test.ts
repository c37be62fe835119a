// Controllers against every part of a world: four-sensor characters ("2D Platformer Advanced
// Collision Detection") on tiles, one-way tiles, rects, polyhedra and surfaces mixed, and tile
// characters ("Rotating Tower Collision Detection") on rects and polyhedra. The differential
// tests hold a scene built of one kind against the same scene built of another (a floor of tiles
// against the same floor of rects, of boxes drawn as polygons), frame by frame, on every backend.
import { describe, expect, it } from "vitest";
import { CharacterState, Input, type RectLevel, type TileMap, type World } from "../bindings/node.js";
import { mulberry32 } from "../fixtures/random.js";
import { BACKENDS, leastHeapPerCall, newWorld, type BackendName } from "./support.js";

const T = 16;
const W = 24, H = 48; // a character: holds the default sensors (sensorTop 15 + stepHeight 16 < 48)

/** A bordered random ASCII map: X solid, space air; the border keeps characters inside. */
function randomCells(cols: number, rows: number, seed: number, density = 0.12): string[] {
  const rnd = mulberry32(seed);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < cols; c++) {
      const border = r === 0 || r === rows - 1 || c === 0 || c === cols - 1;
      // Open space under the ceiling so the characters have room to start.
      line += border || (r > 4 && rnd() < density) ? "X" : " ";
    }
    lines.push(line);
  }
  return lines;
}

/** Cells marked `ch` as rects (x, y, w, h) of side T. */
function cellRects(ascii: string[], ch = "X"): number[] {
  const rects: number[] = [];
  ascii.forEach((line, r) => { for (let c = 0; c < line.length; c++) if (line[c] === ch) rects.push(c * T, r * T, T, T); });
  return rects;
}

/** Keeps cells for which `keep(col, row)` holds, blanks the others. */
function someCells(ascii: string[], keep: (c: number, r: number) => boolean): string[] {
  return ascii.map((line, r) => [...line].map((ch, c) => (ch !== " " && keep(c, r) ? ch : " ")).join(""));
}

type Build = "tiles" | "rects" | "polygons" | "mixed";

/** A world whose solid cells of `ascii` are tiles, rects, polygon boxes, or tiles and rects in a checkerboard of 3 x 2 cell blocks. */
async function cellWorld(backend: BackendName, ascii: string[], build: Build): Promise<{ world: World; level: RectLevel }> {
  const world = await newWorld(backend);
  const blank = ascii.map((l) => " ".repeat(l.length));
  const tileHalf = (c: number, r: number) => ((Math.floor(c / 3) + Math.floor(r / 2)) & 1) === 0;
  const tiles = build === "tiles" ? ascii : build === "mixed" ? someCells(ascii, tileHalf) : blank;
  world.addTileMap({ ascii: tiles, tileSize: T });
  const level = world.addRectLevel();
  const rectCells = build === "rects" ? ascii : build === "mixed" ? someCells(ascii, (c, r) => !tileHalf(c, r)) : null;
  if (rectCells) {
    const rects = cellRects(rectCells);
    if (rects.length > 0) level.addInstance(level.addPrefab(rects), 0, 0);
  }
  if (build === "polygons") {
    const platforms = world.addPlatforms();
    const rects = cellRects(ascii);
    for (let k = 0; k < rects.length; k += 4) {
      const [x, y, w, h] = rects.slice(k, k + 4);
      platforms.addPolygon([x, y, x, y + h, x + w, y + h, x + w, y]); // counter-clockwise, y down
    }
  }
  return { world, level };
}

function snapshot(level: RectLevel): number[] {
  const out: number[] = [];
  for (let c = 0; c < level.characterCount; c++) {
    out.push(level.charX[c], level.charY[c], level.charVX[c], level.charVY[c], level.charState[c], level.charGrace[c]);
  }
  return out;
}

/** Plays `frames` frames of seeded random input on every level at once; calls `check` with each frame's snapshots. */
function playTogether(levels: RectLevel[], frames: number, seed: number, check: (frame: number, snaps: number[][]) => void): void {
  const rnd = mulberry32(seed);
  const n = levels[0].characterCount;
  const inputs = new Int32Array(n);
  for (let f = 0; f < frames; f++) {
    if (f % 8 === 0) {
      for (let c = 0; c < n; c++) {
        const u = rnd();
        inputs[c] = (u < 0.4 ? Input.Right : u < 0.8 ? Input.Left : 0) | (rnd() < 0.25 ? Input.Jump : 0);
      }
    }
    for (const level of levels) {
      level.charInput.set(inputs);
      level.stepCharacters();
    }
    check(f, levels.map(snapshot));
  }
}

/** Characters at seeded spots of the map, some starting inside solid cells. */
function dropAll(levels: RectLevel[], ascii: string[], n: number, seed: number): void {
  const rnd = mulberry32(seed);
  const cols = ascii[0].length, rows = ascii.length;
  for (let c = 0; c < n; c++) {
    const x = T + Math.floor(rnd() * (cols - 2) * T - W);
    const y = T + Math.floor(rnd() * (rows - 2) * T - H);
    for (const level of levels) level.addCharacter(Math.max(T, x), Math.max(T, y), W, H, c % 4 === 0 ? 1 : 2);
  }
}

// First in the file: the js backend shares one instance among its worlds, and a world whose rect
// level has instances runs the rect queries, whose double arguments the js backend boxes
// (rect_level.ts; the characters' own rect loop, not this file's subject), which changes what V8
// compiles for the character step of every later world.
describe("controllers against every part allocate nothing per step", () => {
  for (const backend of BACKENDS) {
    it(`${backend}: tile controllers in a world of every part`, async () => {
      const ascii = randomCells(40, 30, 13);
      const { world } = await cellWorld(backend, ascii, "mixed");
      const platforms = world.addPlatforms();
      platforms.addPolygon([200, 400, 300, 350, 300, 400]);
      platforms.addPolygon([400, 300, 480, 300, 480, 320, 400, 320]);
      const map = world.tileMap!;
      const ids: number[] = [];
      for (let k = 0; k < 20; k++) ids.push(map.addController(40 + 25 * k, 100));
      const rnd = mulberry32(2);
      const frame = () => {
        for (let k = 0; k < 20; k++) map.setInput(ids[k], Math.floor(rnd() * 16));
        map.stepControllers(DT);
      };
      // Random input keeps reaching new branches for a while (V8 reoptimizes each time): a long warm-up.
      for (let f = 0; f < 30000; f++) frame();
      expect(leastHeapPerCall(frame, 400, 2)).toBeLessThan(2);
    });

    it(`${backend}: four-sensor characters in a world of tiles, one-way tiles, polygons and surfaces`, async () => {
      const world = await newWorld(backend);
      const lines = randomCells(40, 30, 17).map((l, r) => (r === 12 ? l.replace(/ {6}/, "------") : l));
      world.addTileMap({ ascii: lines, tileSize: T });
      const level = world.addRectLevel();
      const platforms = world.addPlatforms();
      platforms.addPolygon([200, 400, 300, 350, 300, 400]);
      platforms.addSurfaces([100, 200, 300, 180]);
      dropAll([level], lines, 20, 4);
      const rnd = mulberry32(2);
      const frame = () => {
        for (let c = 0; c < level.characterCount; c++) level.charInput[c] = Math.floor(rnd() * 8);
        level.stepCharacters();
      };
      for (let f = 0; f < 20000; f++) frame();
      expect(leastHeapPerCall(frame, 400, 2)).toBeLessThan(2);
    });

    it(`${backend}: four-sensor characters on a rect level's instances`, async () => {
      const lines = randomCells(40, 30, 19);
      const world = await newWorld(backend), level = world.addRectLevel();
      const rects = cellRects(lines);
      for (let k = 0; k < rects.length; k += 16) level.addInstance(level.addPrefab(rects.slice(k, k + 16)), 0, 0);
      expect(level.instanceCount).toBeGreaterThan(10);
      dropAll([level], lines, 20, 5);
      const rnd = mulberry32(3);
      const frame = () => {
        for (let c = 0; c < level.characterCount; c++) level.charInput[c] = Math.floor(rnd() * 8);
        level.stepCharacters();
      };
      for (let f = 0; f < 60000; f++) frame();
      expect(leastHeapPerCall(frame, 1000, 2, 1, 14)).toBeLessThan(2);
    });
  }
});

describe("four-sensor characters: one scene built of different parts, frame by frame", () => {
  for (const backend of BACKENDS) {
    for (const build of ["tiles", "mixed", "polygons"] as const) {
      it(`${backend}: a level of ${build} plays exactly as the same level of rects (inside starts, seams, walls, heads, stomps)`, async () => {
        const ascii = randomCells(60, 30, 7);
        const ref = await cellWorld(backend, ascii, "rects");
        const other = await cellWorld(backend, ascii, build);
        dropAll([ref.level, other.level], ascii, 24, 11);
        let grounded = 0, walls = 0, heads = 0;
        playTogether([ref.level, other.level], 900, 5, (f, [a, b]) => {
          if (a.join() !== b.join()) expect(b, `frame ${f}`).toEqual(a);
          for (let k = 4; k < a.length; k += 6) {
            if (a[k] & CharacterState.Grounded) grounded++;
            if (a[k] & (CharacterState.WallLeft | CharacterState.WallRight)) walls++;
            if (a[k] & CharacterState.HeadBump) heads++;
          }
        });
        // The scene exercised what it claims to.
        expect(grounded).toBeGreaterThan(1000);
        expect(walls).toBeGreaterThan(20);
        expect(heads).toBeGreaterThan(5);
      });
    }
  }
});

/** A long floor at y = 400 whose pieces alternate between tiles and rects every `piece` cells. */
async function seamFloor(backend: BackendName, piece: number): Promise<{ world: World; level: RectLevel }> {
  const cols = 200, rows = 30;
  const lines = Array.from({ length: rows }, () => " ".repeat(cols));
  const floorRow = 25;
  const asTile = (c: number) => Math.floor(c / piece) % 2 === 0;
  lines[floorRow] = [...lines[floorRow]].map((_, c) => (asTile(c) ? "X" : " ")).join("");
  const world = await newWorld(backend);
  world.addTileMap({ ascii: lines, tileSize: T });
  const level = world.addRectLevel();
  const rects: number[] = [];
  for (let c = 0; c < cols; c++) if (!asTile(c)) rects.push(c * T, floorRow * T, T, T);
  level.addInstance(level.addPrefab(rects), 0, 0);
  return { world, level };
}

describe("four-sensor characters on tiles, rects, polygons and surfaces mixed", () => {
  for (const backend of BACKENDS) {
    it(`${backend}: walks over seams between tiles, and between a tile and a rect, without a stop`, async () => {
      for (const piece of [1, 2, 5]) {
        const { level } = await seamFloor(backend, piece);
        const cId = level.addCharacter(20, 400 - H, W, H), c = level.indexOf(cId);
        level.stepCharacters();
        expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
        for (const dir of [Input.Right, Input.Left]) {
          for (let f = 0; f < 600; f++) {
            const x = level.charX[c];
            level.charInput[c] = dir;
            level.stepCharacters();
            const s = level.charState[c];
            if (level.charX[c] > 16 && level.charX[c] < 199 * T - W - 16) {
              expect(s & (CharacterState.WallLeft | CharacterState.WallRight), `piece ${piece} frame ${f}`).toBe(0);
              expect(level.charX[c] - x).toBe(dir === Input.Right ? 3 : -3);
            }
            expect(s & CharacterState.Grounded).toBeTruthy();
            expect(level.charY[c]).toBe(400 - H);
          }
        }
      }
    });

    it(`${backend}: walks up and down a slope drawn as a polygon, and stands on its top`, async () => {
      const world = await newWorld(backend);
      world.addTileMap({ ascii: Array.from({ length: 30 }, (_, r) => (r === 25 ? "X" : " ").repeat(60)), tileSize: T });
      const level = world.addRectLevel();
      const platforms = world.addPlatforms();
      // A ramp rising 1 in 2 from (200, 400) to (360, 320), a plateau to 480, and down again to 640.
      platforms.addPolygon([200, 400, 640, 400, 560, 320, 360, 320]);
      const cId = level.addCharacter(100, 400 - H, W, H), c = level.indexOf(cId);
      let lastY = level.charY[c], plateau = 0;
      for (let f = 0; f < 200; f++) {
        level.charInput[c] = Input.Right;
        level.stepCharacters();
        const s = level.charState[c];
        expect(s & (CharacterState.WallLeft | CharacterState.WallRight), `frame ${f}`).toBe(0);
        expect(s & CharacterState.Grounded, `frame ${f}`).toBeTruthy();
        // Uphill: never lower than the frame before; the feet on the ramp under the front foot.
        expect(level.charY[c]).toBeLessThanOrEqual(lastY);
        const front = level.charX[c] + W - 2; // the bottom sensor's right end (inset 2)
        const rampY = front <= 200 ? 400 : front >= 360 ? 320 : 400 - (front - 200) / 2;
        expect(level.charY[c] + H).toBeCloseTo(rampY, 3);
        lastY = level.charY[c];
        if (level.charY[c] + H === 320) plateau++;
        if (level.charX[c] > 420) break;
      }
      expect(plateau).toBeGreaterThan(5);
      // Downhill to the far side: back on the floor, never stopped by a wall.
      for (let f = 0; f < 100; f++) {
        level.charInput[c] = Input.Right;
        level.stepCharacters();
        expect(level.charState[c] & (CharacterState.WallLeft | CharacterState.WallRight)).toBe(0);
      }
      expect(level.charY[c] + H).toBe(400);
      expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
      expect(level.charX[c]).toBeGreaterThan(640);
    });

    it(`${backend}: lands on seeded convex polygons at their highest point under the feet (brute force over the vertices)`, async () => {
      const rnd = mulberry32(31);
      for (let k = 0; k < 20; k++) {
        // A dome: flat bottom at 400, walls of a and c at x 200 and 400, a peak b above 400 at px.
        const a = Math.floor(rnd() * 12), c = Math.floor(rnd() * 12), px = 230 + Math.floor(rnd() * 140);
        const b = Math.max(a, c) + 1 + Math.floor(rnd() * 40);
        const top: [number, number][] = [[200, 400 - c], [px, 400 - b], [400, 400 - a]];
        const topY = (x: number) => {
          const [[x0, y0], [x1, y1]] = x <= px ? [top[0], top[1]] : [top[1], top[2]];
          return y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
        };
        for (let d = 0; d < 5; d++) {
          const world = await newWorld(backend);
          const level = world.addRectLevel();
          world.addPlatforms().addPolygon([200, 400, 400, 400, 400, 400 - a, px, 400 - b, 200, 400 - c]);
          const x = 204 + Math.floor(rnd() * (190 - W)) + 0.25 * d;
          const ccId = level.addCharacter(x, 250, W, H), cc = level.indexOf(ccId);
          for (let f = 0; f < 80; f++) level.stepCharacters();
          // The reference: the top boundary's highest point over [x + inset, x + w - inset].
          const x0 = x + 2, x1 = x + W - 2;
          const want = Math.min(topY(x0), topY(x1), x0 <= px && px <= x1 ? 400 - b : Infinity);
          expect(level.charState[cc] & CharacterState.Grounded, `polygon ${k} drop ${d}`).toBeTruthy();
          expect(level.charState[cc] & (CharacterState.WallLeft | CharacterState.WallRight)).toBe(0);
          expect(level.charX[cc]).toBe(Math.fround(x));
          expect(Math.abs(level.charY[cc] + H - want), `polygon ${k} drop ${d}`).toBeLessThan(1e-3);
        }
      }
    });

    it(`${backend}: a polygon wall pushes the side sensors out horizontally; a polygon ceiling bumps the head`, async () => {
      const world = await newWorld(backend);
      world.addTileMap({ ascii: Array.from({ length: 30 }, (_, r) => (r === 25 ? "X" : " ").repeat(60)), tileSize: T });
      const level = world.addRectLevel();
      const platforms = world.addPlatforms();
      platforms.addPolygon([300, 200, 300, 400, 340, 400, 340, 200]); // a wall
      platforms.addPolygon([60, 300, 60, 320, 200, 320, 200, 300]); // a ledge overhead, bottom at 320
      const cId = level.addCharacter(200, 400 - H, W, H), c = level.indexOf(cId);
      for (let f = 0; f < 60; f++) { level.charInput[c] = Input.Right; level.stepCharacters(); }
      expect(level.charX[c] + W).toBe(300);
      expect(level.charState[c] & CharacterState.WallRight).toBeTruthy();
      level.placeCharacter(cId, 100, 400 - H);
      level.stepCharacters(); // grounded: a jump needs the ground (or the grace frames)
      level.charInput[c] = Input.Jump;
      let bumped = false;
      for (let f = 0; f < 40; f++) {
        level.stepCharacters();
        level.charInput[c] = 0;
        if (level.charState[c] & CharacterState.HeadBump) { bumped = true; expect(level.charY[c]).toBe(320); }
        expect(level.charY[c]).toBeGreaterThanOrEqual(320);
      }
      expect(bumped).toBe(true);
    });

    it(`${backend}: one-way tiles and up-facing surfaces are jumped through from below and landed on from above`, async () => {
      for (const kind of ["oneway", "surface"] as const) {
        const world = await newWorld(backend);
        const lines = Array.from({ length: 30 }, (_, r) => (r === 25 ? "X" : " ").repeat(60));
        // A one-way shelf at y = 336 (row 21) over x 64 .. 256, or a surface there drawn left to right (front up).
        if (kind === "oneway") lines[21] = "    " + "-".repeat(12) + " ".repeat(44);
        world.addTileMap({ ascii: lines, tileSize: T });
        const level = world.addRectLevel();
        if (kind === "surface") world.addPlatforms().addSurface(64, 336, 256, 336);
        const cId = level.addCharacter(100, 400 - H, W, H), c = level.indexOf(cId);
        level.stepCharacters();
        level.charInput[c] = Input.Jump;
        let minY = Infinity;
        for (let f = 0; f < 80; f++) {
          level.stepCharacters();
          level.charInput[c] = 0;
          minY = Math.min(minY, level.charY[c]);
        }
        expect(minY + H, kind).toBeLessThan(336); // went up through it
        expect(level.charY[c] + H, kind).toBe(336); // and landed on it
        expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
        // Standing still on it for a while.
        for (let f = 0; f < 30; f++) level.stepCharacters();
        expect(level.charY[c] + H, kind).toBe(336);
        // A character whose feet start below its top falls through it to the floor.
        const dId = level.addCharacter(150, 336 - H + 4, W, H), d = level.indexOf(dId);
        for (let f = 0; f < 60; f++) level.stepCharacters();
        expect(level.charY[d] + H, kind).toBe(400);
      }
    });

    it(`${backend}: a down-facing surface is no ground (surfaces are one-way, front up)`, async () => {
      const world = await newWorld(backend);
      world.addTileMap({ ascii: Array.from({ length: 30 }, (_, r) => (r === 25 ? "X" : " ").repeat(60)), tileSize: T });
      const level = world.addRectLevel();
      world.addPlatforms().addSurface(256, 336, 64, 336); // drawn right to left: its front faces down
      const cId = level.addCharacter(100, 300 - H, W, H), c = level.indexOf(cId);
      for (let f = 0; f < 80; f++) level.stepCharacters();
      expect(level.charY[c] + H).toBe(400);
    });

    it(`${backend}: falls at the fall cap land on thin tiles, one-ways, surfaces and polygons from every height`, async () => {
      const character = { maxFall: 15, sensorBottom: 15, gravity: 3 };
      for (const kind of ["tile", "oneway", "surface", "thin polygon"] as const) {
        for (let drop = 0; drop < 40; drop++) {
          const world = await newWorld(backend);
          const lines = Array.from({ length: 60 }, (_, r) => (r === 55 ? "X" : " ").repeat(40));
          if (kind === "tile") lines[40] = "X".repeat(40);
          if (kind === "oneway") lines[40] = "-".repeat(40);
          world.addTileMap({ ascii: lines, tileSize: T });
          const level = world.addRectLevel({ character });
          if (kind === "surface") world.addPlatforms().addSurface(0, 640, 640, 640);
          if (kind === "thin polygon") world.addPlatforms().addPolygon([0, 640, 0, 640.5, 640, 640.5, 640, 640]);
          const cId = level.addCharacter(200, 100 + drop * 0.37, W, H), c = level.indexOf(cId);
          for (let f = 0; f < 120; f++) level.stepCharacters();
          expect(level.charY[c] + H, `${kind} drop ${drop}`).toBe(640);
        }
      }
    });
  }

  it("every backend steps a scene of every part in lockstep", async () => {
    const runs = await Promise.all(BACKENDS.map(async (backend) => {
      const ascii = randomCells(50, 30, 3);
      const { world, level } = await cellWorld(backend, ascii, "mixed");
      const platforms = world.addPlatforms();
      platforms.addPolygon([200, 400, 300, 350, 300, 400]);
      platforms.addPolygon([500, 300, 560, 260, 620, 300, 560, 330]);
      platforms.addSurfaces([100, 200, 300, 180, 400, 150, 600, 170]);
      return level;
    }));
    dropAll(runs, randomCells(50, 30, 3), 30, 4);
    playTogether(runs, 600, 9, (f, snaps) => {
      for (let k = 1; k < snaps.length; k++) if (snaps[k].join() !== snaps[0].join()) expect(snaps[k], `frame ${f}`).toEqual(snaps[0]);
    });
  });
});

// ---- tile characters ------------------------------------------------------------------------

const DT = 1 / 60;
const TT = 32; // the tile characters' tile (the seed's)

/** A world whose map is `ascii`'s tiles or an empty map of its size plus the same cells as rects (or polygon boxes). */
async function tileWorld(backend: BackendName, ascii: string[], build: "tiles" | "rects" | "polygons"): Promise<TileMap> {
  const world = await newWorld(backend);
  const blank = ascii.map((l) => " ".repeat(l.length));
  const map = world.addTileMap({ ascii: build === "tiles" ? ascii : blank, tileSize: TT });
  const rects: number[] = [];
  ascii.forEach((line, r) => { for (let c = 0; c < line.length; c++) if (line[c] === "X") rects.push(c * TT, r * TT, TT, TT); });
  if (build === "rects" && rects.length > 0) {
    const level = world.addRectLevel();
    level.addInstance(level.addPrefab(rects), 0, 0);
  }
  if (build === "polygons") {
    const platforms = world.addPlatforms();
    for (let k = 0; k < rects.length; k += 4) {
      const [x, y, w, h] = rects.slice(k, k + 4);
      platforms.addPolygon([x, y, x, y + h, x + w, y + h, x + w, y]);
    }
  }
  return map;
}

function controllerSnap(m: TileMap, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) {
    const s = m.controller(id);
    out.push(s.x, s.y, s.dx, s.dy, +s.falling, s.events);
  }
  return out;
}

describe("four-sensor characters far out or huge on a tile map", () => {
  it("step in bounded time: the sensors test representatives of a long cell range, with the same answers near the map", async () => {
    for (const backend of BACKENDS) {
      for (const wrap of [false, true]) {
        const world = await newWorld(backend);
        world.addTileMap({ ascii: ["        ", "   XX   ", "XXXXXXXX"], tileSize: 32, wrap });
        const level = world.addRectLevel();
        // Far out (valid coordinates past 2^31 cells, which saturated the i32 cell ranges), and huge.
        const far = [[9e29, 100], [-9e29, 100], [100, 9e29], [6.8719476e10, 10]].map(([x, y]) => {
          const c = level.addCharacter(0, 0, 20, 40);
          level.placeCharacter(c, x, y);
          return level.indexOf(c);
        });
        const wide = level.indexOf(level.addCharacter(-5e8, -100, 1e9, 48));
        // Near the map, a character 100 cells wide (past the whole-range limit) lands on the floor as a narrow one does.
        const broad = level.indexOf(level.addCharacter(-1600, -60, 3200, 48)), narrow = level.indexOf(level.addCharacter(180, -60, 20, 48));
        for (let f = 0; f < 60; f++) level.stepCharacters();
        for (const c of [...far, wide, broad, narrow]) expect(Number.isFinite(level.charX[c]) && Number.isFinite(level.charY[c]), `${backend} wrap ${wrap} slot ${c}`).toBe(true);
        expect(level.charY[narrow] + 48, `${backend} wrap ${wrap}`).toBe(64);
        if (wrap) expect(level.charY[broad] + 48, backend).toBe(32); // on the copies of the middle "XX" under it
        world.validate();
        level.validate();
      }
    }
  });
});

describe("tile characters against rects and polygons", () => {
  for (const backend of BACKENDS) {
    for (const build of ["rects", "polygons"] as const) {
      it(`${backend}: a map whose platforms are ${build} plays exactly as the same map of tiles`, async () => {
        const rnd = mulberry32(21);
        const cols = 40, rows = 20;
        const ascii = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) =>
          r === rows - 1 || c === 0 || c === cols - 1 || (r > 3 && rnd() < 0.1) ? "X" : " ").join(""));
        const a = await tileWorld(backend, ascii, "tiles");
        const b = await tileWorld(backend, ascii, build);
        const n = 16;
        const idsA: number[] = [], idsB: number[] = [];
        for (let id = 0; id < n; id++) {
          const x = 48 + Math.floor(rnd() * (cols - 3) * TT), y = 40 + Math.floor(rnd() * (rows - 3) * TT);
          idsA.push(a.addController(x, y));
          idsB.push(b.addController(x, y));
        }
        const inputs = new Int32Array(n);
        let landed = 0, walls = 0, steps = 0;
        for (let f = 0; f < 900; f++) {
          if (f % 10 === 0) for (let id = 0; id < n; id++) {
            const u = rnd();
            inputs[id] = (u < 0.4 ? Input.Right : u < 0.8 ? Input.Left : 0) | (rnd() < 0.2 ? Input.Jump : 0);
          }
          for (const [m, ids] of [[a, idsA], [b, idsB]] as const) { for (let id = 0; id < n; id++) m.setInput(ids[id], inputs[id]); m.stepControllers(DT); }
          const sa = controllerSnap(a, idsA), sb = controllerSnap(b, idsB);
          if (sa.join() !== sb.join()) expect(sb, `frame ${f}`).toEqual(sa);
          for (let k = 5; k < sa.length; k += 6) {
            if (sa[k] & 2) landed++;
            if (sa[k] & 8) walls++;
            if (sa[k] & 16) steps++;
          }
        }
        expect(landed).toBeGreaterThan(20);
        expect(walls).toBeGreaterThan(20);
        expect(steps).toBeGreaterThan(2);
      });
    }

    it(`${backend}: stands on a rect, and on a sloped polygon's top`, async () => {
      const world = await newWorld(backend);
      const map = world.addTileMap({ ascii: Array.from({ length: 20 }, (_, r) => (r === 19 ? "X" : " ").repeat(40)), tileSize: TT });
      const level = world.addRectLevel();
      level.addInstance(level.addPrefab([100, 400, 120, 20]), 0, 0);
      const platforms = world.addPlatforms();
      platforms.addPolygon([600, 500, 900, 500, 900, 400]); // a slope rising to the right, 1 in 3
      const onRect = map.addController(160, 300);
      const onSlope = map.addController(750, 300);
      for (let f = 0; f < 120; f++) map.stepControllers(DT);
      expect(map.controllerY(onRect)).toBe(400);
      expect(map.controller(onRect).falling).toBe(false);
      // The slope's top under the higher foot point (x + w / 4).
      const foot = 750 + TT / 4;
      expect(map.controllerY(onSlope)).toBeCloseTo(500 - (foot - 600) / 3, 3);
      expect(map.controller(onSlope).falling).toBe(false);
      // Walking off the rect: falls to the floor.
      map.setInput(onRect, Input.Left);
      for (let f = 0; f < 120; f++) map.stepControllers(DT);
      expect(map.controllerY(onRect)).toBe(19 * TT);
    });

    it(`${backend}: walks over a floor of tiles, rects and polygon boxes in turn without a snag`, async () => {
      const world = await newWorld(backend);
      const cols = 120, floorRow = 15;
      const kind = (c: number) => ["tile", "rect", "tile", "polygon", "rect", "polygon"][Math.floor(c / 2) % 6];
      const lines = Array.from({ length: 20 }, (_, r) => (r === floorRow ? [...Array(cols)].map((_, c) => (kind(c) === "tile" ? "X" : " ")).join("") : " ".repeat(cols)));
      const map = world.addTileMap({ ascii: lines, tileSize: TT });
      const level = world.addRectLevel();
      const platforms = world.addPlatforms();
      const rects: number[] = [];
      for (let c = 0; c < cols; c++) {
        const x = c * TT, y = floorRow * TT;
        if (kind(c) === "rect") rects.push(x, y, TT, TT);
        if (kind(c) === "polygon") platforms.addPolygon([x, y, x, y + TT, x + TT, y + TT, x + TT, y]);
      }
      level.addInstance(level.addPrefab(rects), 0, 0);
      const id = map.addController(64, floorRow * TT);
      for (const dir of [Input.Right, Input.Left]) {
        map.setInput(id, dir);
        for (let f = 0; f < 300; f++) {
          map.stepControllers(DT);
          const s = map.controller(id);
          expect(s.events & (8 | 16), `frame ${f}: no wall, no step`).toBe(0);
          expect(s.y).toBe(floorRow * TT);
          expect(s.falling).toBe(false);
        }
      }
    });

    it(`${backend}: a fast fall lands on a thin rect instead of passing it`, async () => {
      const world = await newWorld(backend);
      const map = world.addTileMap({ ascii: Array.from({ length: 40 }, () => " ".repeat(20)), tileSize: TT, controller: { maxdy: 400 * TT } });
      const level = world.addRectLevel();
      level.addInstance(level.addPrefab([0, 1000, 640, 2]), 0, 0);
      const ids: number[] = [];
      for (let k = 0; k < 20; k++) ids.push(map.addController(40 + 30 * k, 10 + k * 3.3));
      for (let f = 0; f < 200; f++) map.stepControllers(DT);
      for (let k = 0; k < 20; k++) expect(map.controllerY(ids[k]), `controller ${k}`).toBe(1000);
    });
  }
});
