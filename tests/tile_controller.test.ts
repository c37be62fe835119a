// The platformer controller (the tower seed's player update): scripted input sequences on the seed's
// map and on small maps drawn for one move each, with the end state the map's geometry dictates
// (walk, jump onto a platform, climb a ladder up and down, step up, collect a row of coins, touch a
// monster, walk across the wrap seam, the falling-jump grace); no snag over 1,000 seams; no falling
// through a platform at any speed; and the wasm cores and the js backend in lockstep on random maps.
// y grows downward and a controller's origin is the middle of its feet; each scene is the y-up
// scene it replaces mirrored (feet at y -> H - y, H the map's height), expectations too.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../fixtures/random.js";
import { randomAscii, SEED_TOWER } from "../fixtures/tile_maps.js";
import { IdKind, Input, TileCell, TileEvent, type TileMap, type TileMapOptions } from "../bindings/node.js";
import { BACKENDS, backendOptions, newTileMap } from "./support.js";
import { RefMap, RefPlayer, type RefTuning } from "./tiles_reference.js";

const T = 32;
const DT = 1 / 60;

async function tileMaps(options: TileMapOptions): Promise<TileMap[]> {
  const maps: TileMap[] = [];
  for (const backend of BACKENDS) maps.push(await newTileMap({ tileSize: T, ...options, ...(await backendOptions(backend)) }));
  return maps;
}

/** Runs `frames` steps with the given input (jump only on the first frame); returns the events seen, OR'd. */
function run(m: TileMap, id: number, input: number, frames: number, each?: (frame: number) => void): number {
  let seen = 0;
  for (let f = 0; f < frames; f++) {
    m.setInput(id, f === 0 ? input : input & ~Input.Jump);
    m.stepControllers(DT);
    seen |= m.controllerEvents(id);
    each?.(f);
  }
  return seen;
}

const EMPTY = " ".repeat(20);

describe("scripted moves", () => {
  it("walks, then friction stops it dead", async () => {
    for (const m of await tileMaps({ ascii: [EMPTY, EMPTY, EMPTY] })) {
      const id = m.addController(48, m.height); // on the floor below the map
      let last = 48;
      const seen = run(m, id, Input.Right, 30, () => {
        const s = m.controller(id);
        expect(s.x).toBeGreaterThanOrEqual(last);
        expect([s.y, s.falling]).toEqual([m.height, false]);
        last = s.x;
      });
      expect(seen & (TileEvent.Wall | TileEvent.Fall)).toBe(0);
      expect(m.controller(id).dx).toBe(8 * T); // maxdx, reached after a quarter second
      run(m, id, 0, 20);
      const stopped = m.controller(id);
      expect(stopped.dx).toBe(0);
      run(m, id, 0, 10);
      expect(m.controller(id).x).toBe(stopped.x);
    }
  });

  it("jumps onto a platform", async () => {
    const map = [EMPTY, "          XXXX      ", EMPTY, EMPTY]; // platform on row 1: its top is y = 32
    for (const m of await tileMaps({ ascii: map })) {
      const id = m.addController(8 * T + 16, m.height);
      let seen = run(m, id, Input.Right | Input.Jump, 20);
      seen |= run(m, id, 0, 60);
      const s = m.controller(id);
      expect(seen & TileEvent.Jump).toBeTruthy();
      expect(seen & TileEvent.Landed).toBeTruthy();
      expect([s.y, s.falling, s.dy]).toEqual([T, false, 0]);
      expect(s.x).toBeGreaterThan(10 * T);
      expect(s.x).toBeLessThan(14 * T);
    }
  });

  it("bumps its head on a platform above", async () => {
    const map = [EMPTY, EMPTY, "     XXXX           ", EMPTY, EMPTY]; // platform on row 2 (underside y = 96)
    for (const m of await tileMaps({ ascii: map })) {
      const id = m.addController(7 * T, m.height);
      let top = m.height;
      const seen = run(m, id, Input.Jump, 60, () => { top = Math.min(top, m.controllerY(id)); });
      expect(seen & TileEvent.Head).toBeTruthy();
      // The top points sit 2 pixels under the head: the head stops at the platform's underside.
      expect(top).toBe(3 * T + (2 * T - 2));
      expect([m.controllerY(id), m.controller(id).falling]).toEqual([m.height, false]);
    }
  });

  it("steps up a one-tile step without stopping", async () => {
    for (const m of await tileMaps({ ascii: [EMPTY, EMPTY, "   X                "] })) {
      const id = m.addController(16, m.height);
      let top = m.height, onStep = false;
      const seen = run(m, id, Input.Right, 60, () => {
        const s = m.controller(id);
        top = Math.min(top, s.y);
        if (s.x > 3 * T + 8 && s.x < 4 * T + 8 && !s.falling) { onStep = true; expect(s.y).toBe(2 * T); }
      });
      expect(seen & TileEvent.Step).toBeTruthy();
      expect(seen & TileEvent.Wall).toBe(0);
      expect(onStep).toBe(true);
      expect(top).toBe(2 * T); // the step's top
      // Past the step it drops back to the floor.
      expect([m.controllerY(id), m.controller(id).falling]).toEqual([m.height, false]);
      expect(m.controllerX(id)).toBeGreaterThan(5 * T);
    }
  });

  it("climbs a ladder up through a platform and back down", async () => {
    const map = [EMPTY, EMPTY, "    XXHXX           ", "      H             ", "      H             "];
    for (const m of await tileMaps({ ascii: map })) {
      const id = m.addController(6 * T + 16, m.height);
      const up = run(m, id, Input.Up, 120);
      expect(up & TileEvent.Climb).toBeTruthy();
      let s = m.controller(id);
      // On top of the ladder, which is level with the platform's top (row 2: y = 64).
      expect([s.y, s.climbing, s.falling, s.x]).toEqual([2 * T, false, false, 6 * T + 16]);
      const down = run(m, id, Input.Down, 120);
      expect(down & TileEvent.Climb).toBeTruthy();
      s = m.controller(id);
      expect([s.y, s.climbing, s.falling]).toEqual([m.height, false, false]);
    }
  });

  it("collects the seed's bottom row of coins and walks across the wrap seam", async () => {
    for (const m of await tileMaps({ ascii: SEED_TOWER, wrap: true })) {
      const id = m.addController(16, m.height);
      const bottom = (SEED_TOWER.length - 1) * m.cols; // the last line: the bottom row
      const coins = Array.from(m.cells.subarray(bottom, bottom + m.cols)).filter((f) => f & TileCell.Coin).length;
      expect(coins).toBe(9);
      let wrapped = 0, prev = 16;
      run(m, id, Input.Right, 200, () => {
        const s = m.controller(id);
        if (s.x < prev - m.width / 2) wrapped++;
        prev = s.x;
        expect([s.y, s.falling]).toEqual([m.height, false]);
      });
      expect(wrapped).toBe(1);
      expect(m.controllerScore(id)).toBe(9 * 50);
      expect(Array.from(m.cells.subarray(bottom, bottom + m.cols)).filter((f) => f & TileCell.Coin).length).toBe(0);
      // It kept running at full speed through the seam: 200 frames minus the quarter second of acceleration.
      expect(m.controller(id).dx).toBe(8 * T);
    }
  });

  it("is hurt once by a monster it runs through, then immune", async () => {
    for (const m of await tileMaps({ ascii: [EMPTY, "          1         "] })) {
      const id = m.addController(48, m.height);
      const seen = run(m, id, Input.Right, 90);
      const s = m.controller(id);
      expect(seen & TileEvent.Hurt).toBeTruthy();
      expect(s.hits).toBe(1);
      expect(s.hurting).toBeGreaterThan(0);
      expect(s.x).toBeGreaterThan(12 * T); // past the monster
    }
  });

  it("can still jump for a few frames after walking off an edge (falling-jump grace)", async () => {
    const map = [EMPTY, EMPTY, EMPTY, "XXXXX               ", EMPTY, EMPTY];
    for (const late of [false, true]) {
      for (const m of await tileMaps({ ascii: map })) {
        const id = m.addController(3 * T, 3 * T); // on the platform (row 3, its top at 3 T)
        let fellAt = -1, f = 0;
        while (fellAt < 0 && f++ < 100) {
          m.setInput(id, Input.Right);
          m.stepControllers(DT);
          if (m.controllerEvents(id) & TileEvent.Fall) fellAt = f;
        }
        expect(fellAt).toBeGreaterThan(0);
        run(m, id, 0, late ? 13 : 3);
        const seen = run(m, id, Input.Jump, 1);
        expect(!!(seen & TileEvent.Jump), `late ${late}`).toBe(!late);
      }
    }
  });

  it("does not fall through a one-tile platform however fast it falls", async () => {
    const map = [...new Array(80).fill(EMPTY), "   XXXX             ", EMPTY, EMPTY];
    for (const m of await tileMaps({ ascii: map, controller: { maxdy: 400 * T } })) {
      const id = m.addController(5 * T, 3 * T);
      run(m, id, 0, 240);
      expect([m.controllerY(id), m.controller(id).falling]).toEqual([80 * T, false]); // on the platform (row 80)
    }
  });

  it("walks 1,000 tile seams without snagging", async () => {
    const floor = "X".repeat(1100), air = " ".repeat(1100);
    for (const m of await tileMaps({ ascii: [air, air, air, floor] })) {
      const id = m.addController(16, m.height - T); // on the floor row
      let snags = 0, firstSnag = "";
      let f = 0;
      while (m.controllerX(id) < 1002 * T && f < 10000) {
        m.setInput(id, Input.Right);
        m.stepControllers(DT);
        f++;
        const s = m.controller(id);
        const bad = (s.events & (TileEvent.Wall | TileEvent.Fall | TileEvent.Step)) !== 0 || s.y !== m.height - T || s.falling || (f > 15 && s.dx !== 8 * T);
        if (bad && !snags++) firstSnag = `frame ${f}: ${JSON.stringify(s)}`;
      }
      expect(snags, firstSnag).toBe(0);
      expect(m.controllerX(id)).toBeGreaterThanOrEqual(1002 * T);
    }
  }, 60_000);
});

describe("wasm and js in lockstep", () => {
  // maxdy 60 T falls a tile a frame: the swept landing (not in the seed) runs too.
  it.each([[1, false, 20], [2, true, 20], [3, true, 60]])("random maps and inputs (seed %i, wrap %s, maxdy %i T)", async (seed, wrap, maxdy) => {
    const maps = await tileMaps({ ascii: randomAscii(30, 24, seed, 0.2), wrap, controller: { hurtFrames: 20, maxdy: maxdy * T } });
    const rnd = mulberry32(seed);
    const n = 24;
    for (let k = 0; k < n; k++) {
      const x = Math.floor(rnd() * 30 * T), y = (24 - Math.floor(rnd() * 24)) * T;
      for (const m of maps) m.addController(x, y);
    }
    const inputs = new Int32Array(n);
    let events = 0;
    for (let frame = 0; frame < 600; frame++) {
      if (frame % 12 === 0) for (let k = 0; k < n; k++) inputs[k] = Math.floor(rnd() * 32);
      for (const m of maps) {
        for (let k = 0; k < n; k++) m.setInput(m.idAt(IdKind.Controller, k), inputs[k]);
        m.stepControllers(DT);
      }
      events |= maps[0].controllerEvents(maps[0].idAt(IdKind.Controller, frame % n));
      if (frame % 25 === 0 || frame === 599) {
        for (const m of maps.slice(1)) {
          expect(Array.from(m.controllerReals), `frame ${frame}`).toEqual(Array.from(maps[0].controllerReals));
          expect(Array.from(m.controllerInts), `frame ${frame}`).toEqual(Array.from(maps[0].controllerInts));
          expect(Array.from(m.cells)).toEqual(Array.from(maps[0].cells));
          expect(m.stats).toEqual(maps[0].stats);
        }
      }
    }
    // The run exercised the checks, not only free fall.
    for (const ev of [TileEvent.Landed, TileEvent.Jump, TileEvent.Wall, TileEvent.Climb]) expect(events & ev, `event ${ev}`).toBeTruthy();
  });

  it.each([[4, false], [5, true]])("agree with the seed's player written as the article writes it, mirrored into y-down (seed %i, wrap %s)", async (seed, wrap) => {
    const maps = await tileMaps({ ascii: randomAscii(30, 24, seed, 0.2), wrap, controller: { hurtFrames: 20 } });
    const ref = new RefMap(maps[0], T / 2);
    // TileControllerTuning's documented defaults for tile size T.
    const tuning: RefTuning = {
      w: T, h: 2 * T, maxdx: 8 * T, maxdy: 20 * T, climbdy: 4 * T, gravity: 58.8 * T, impulse: 1200 * T, accel: 32 * T,
      friction: 48 * T, surface: 0.5 * T, ladderEdge: 0.6, fallingJump: 12, stepFrames: 8, hurtFrames: 20, coinScore: 50,
    };
    const rnd = mulberry32(seed);
    const n = 16;
    const players: RefPlayer[] = [];
    for (let k = 0; k < n; k++) {
      const x = Math.floor(rnd() * 30 * T), y = (24 - Math.floor(rnd() * 24)) * T;
      for (const m of maps) m.addController(x, y);
      players.push(new RefPlayer(ref, tuning, x, y));
    }
    const inputs = new Int32Array(n);
    let compared = 0;
    for (let frame = 0; frame < 400; frame++) {
      if (frame % 15 === 0) for (let k = 0; k < n; k++) inputs[k] = Math.floor(rnd() * 32);
      for (const m of maps) {
        for (let k = 0; k < n; k++) m.setInput(m.idAt(IdKind.Controller, k), inputs[k]);
        m.stepControllers(DT);
      }
      for (let k = 0; k < n; k++) {
        players[k].setInput(inputs[k]);
        players[k].update(DT);
      }
      for (const m of maps) {
        for (let k = 0; k < n; k++) {
          const s = m.controller(m.idAt(IdKind.Controller, k)), p = players[k];
          expect([s.x, s.y, s.dx, s.dy, s.falling, s.climbing, s.score, s.hits], `${m.backend} controller ${k} frame ${frame}`)
            .toEqual([p.x, p.y, p.dx, p.dy, p.falling, p.climbing, p.score, p.hits]);
          compared++;
        }
      }
    }
    expect(compared).toBe(maps.length * n * 400);
    expect(players.some((p) => p.score > 0)).toBe(true);
  });
});
