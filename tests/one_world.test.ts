// One world: every part in one instance and one memory. The scripted game (fixtures/one_world.ts)
// gives the same answers with its parts in one world as in a world each, and the same on every
// core; a snapshot restores the whole game bit for bit, on the core that took it or another; a
// damaged, foreign or mismatched snapshot is refused with the world unchanged; ids belong to their
// world; a disposed world refuses every call.
import { describe, expect, it } from "vitest";
import { HitcoreError, Part, TileCell, type World } from "../bindings/node.js";
import { SNAPSHOT_FORMAT } from "../bindings/snapshot.js";
import { scriptedGame } from "../fixtures/one_world.js";
import { BACKENDS, newWorld, refusal } from "./support.js";

/** The hashes of `frames` frames of the scripted game, one every `every` frames. */
function play(game: ReturnType<typeof scriptedGame>, from: number, frames: number, every = 50): number[] {
  const out: number[] = [];
  for (let f = from; f < from + frames; f++) {
    game.step(f);
    if ((f + 1) % every === 0) out.push(game.hash());
  }
  return out;
}

describe("one world", () => {
  it("holds every part in one memory, each part's growth keeping the others' data", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend, { capacity: 64 });
      const game = scriptedGame(world);
      expect(world.capacity).toBeGreaterThan(64);
      expect(world.tileMap!.controllerCount).toBe(3);
      expect(world.rectLevel!.characterCount).toBe(6);
      expect(world.platforms!.ballCount).toBe(24);
      play(game, 0, 120);
      world.validate();
      world.tileMap!.validate();
      world.rectLevel!.validate();
      world.platforms!.validate();
    }
  });

  it("plays the same 10,000-frame game on every core: the same hash every 1,000 frames", async () => {
    const hashes: number[][] = [];
    for (const backend of BACKENDS) hashes.push(play(scriptedGame(await newWorld(backend, { capacity: 64 })), 0, 10000, 1000));
    expect(hashes[0].length).toBe(10);
    expect(new Set(hashes[0]).size).toBeGreaterThan(1);
    for (const h of hashes) expect(h).toEqual(hashes[0]);
  });

  it("adds each part once", async () => {
    const world = await newWorld("js");
    world.addPlatforms();
    expect(refusal(() => world.addPlatforms()).code).toBe("INVALID_OPTION");
  });
});

describe("snapshot and restore", () => {
  it("restores the whole game: stepped again with the same inputs, it gives the same hashes", async () => {
    for (const backend of BACKENDS) {
      const game = scriptedGame(await newWorld(backend, { capacity: 64 }));
      play(game, 0, 200);
      const saved = game.world.snapshot();
      const ahead = play(game, 200, 300);
      game.world.restore(saved);
      expect(play(game, 200, 300)).toEqual(ahead);
    }
  });

  it("moves between cores: a snapshot of one restores into a world on another", async () => {
    const from = scriptedGame(await newWorld("wasm-simd", { capacity: 64 }));
    play(from, 0, 150);
    const saved = from.world.snapshot();
    const ahead = play(from, 150, 200);
    for (const backend of ["wasm-scalar", "js"] as const) {
      const to = scriptedGame(await newWorld(backend, { capacity: 64 }));
      to.world.restore(saved);
      expect(play(to, 150, 200)).toEqual(ahead);
    }
  });

  it("makes old ids valid again, and the restored world answers to them", async () => {
    const a = await newWorld("js"), b = await newWorld("js");
    const id = a.addCircle(1, 2, 3);
    const saved = a.snapshot();
    a.remove(id);
    expect(a.has(id)).toBe(false);
    a.restore(saved);
    expect(a.has(id)).toBe(true);
    expect(b.has(id)).toBe(false);
    b.restore(saved);
    expect(b.has(id)).toBe(true);
    expect(b.x[b.indexOf(id)]).toBe(1);
  });

  it("restores a snapshot taken before the platforms' index was built into a world that built it, and the other way", async () => {
    for (const backend of BACKENDS) {
      const made = async () => {
        const world = await newWorld(backend);
        const plat = world.addPlatforms();
        plat.addPolygon([0, 0, 40, 0, 20, 30]);
        return { world, plat };
      };
      const a = await made(), b = await made();
      a.plat.addSurface(-50, 10, 50, 10); // a's index: not built since
      expect(b.plat.polyhedraAt(20, 10)).toBe(1); // b's: built by the query
      const unbuilt = a.world.snapshot(), built = b.world.snapshot();
      b.world.restore(unbuilt);
      expect(b.plat.surfaceCount).toBe(1);
      expect(b.plat.touchingSurfaces(0, 5, 10)).toBe(1);
      a.world.restore(built);
      expect(a.plat.surfaceCount).toBe(0);
      expect(a.plat.polyhedraAt(20, 10)).toBe(1);
    }
  });

  it("refuses a damaged, truncated, foreign-format or mismatched snapshot and leaves the world as it was", async () => {
    const game = scriptedGame(await newWorld("wasm-scalar", { capacity: 64 }));
    play(game, 0, 60);
    const world = game.world, saved = world.snapshot();
    play(game, 60, 30);
    const before = world.snapshot(), hash = game.hash();

    const flipped = saved.slice();
    flipped[flipped.length >> 1] ^= 0x40;
    expect(refusal(() => world.restore(flipped)).code).toBe("SNAPSHOT_CORRUPT");
    expect(refusal(() => world.restore(saved.subarray(0, saved.length - 100))).code).toBe("SNAPSHOT_CORRUPT");
    expect(refusal(() => world.restore(new Uint8Array(10))).code).toBe("SNAPSHOT_CORRUPT");
    expect(refusal(() => world.restore("bytes" as never)).code).toBe("INVALID_BUFFER");
    const newer = saved.slice();
    new DataView(newer.buffer).setUint32(8, SNAPSHOT_FORMAT + 1, true);
    expect(refusal(() => world.restore(newer)).code).toBe("SNAPSHOT_FORMAT");

    const bare = await newWorld("wasm-scalar", { capacity: 64 });
    expect(refusal(() => bare.restore(saved)).code).toBe("SNAPSHOT_MISMATCH");
    const other = await newWorld("wasm-scalar", { capacity: 64 });
    other.addTileMap({ cols: 8, rows: 8 });
    other.addRectLevel();
    other.addPlatforms();
    expect(refusal(() => other.restore(saved)).code).toBe("SNAPSHOT_MISMATCH");

    expect(game.hash()).toBe(hash);
    expect(world.snapshot()).toEqual(before);
  });

  it("refuses a snapshot whose checksum was recomputed over a broken layout, and rolls back", async () => {
    const { crc32 } = await import("../bindings/snapshot.js");
    const world = await newWorld("wasm-scalar", { capacity: 16 });
    for (let k = 0; k < 10; k++) world.addCircle(k, k, 1);
    const saved = world.snapshot(), before = world.snapshot();
    // The first body header field (capacity's neighbour, the x region's offset) at byte 256 + 4 of
    // the memory part, which starts after the state.
    const view = new DataView(saved.buffer);
    const stateBytes = view.getUint32(12, true);
    view.setInt32(24 + stateBytes + 256 + 4, 1 << 30, true);
    view.setUint32(20, crc32(saved.subarray(24)), true);
    expect(refusal(() => world.restore(saved)).code).toBe("SNAPSHOT_CORRUPT");
    expect(world.snapshot()).toEqual(before);
    expect(world.selfPairs()).toBeGreaterThan(0);
  });
});

/** A small Tiled map: a row of platforms, a crate (rectangle object) and a ramp (polygon object). */
function tiledLevel(ramp: number[]): Record<string, unknown> {
  return {
    type: "map", orientation: "orthogonal", infinite: false, width: 4, height: 3, tilewidth: 16, tileheight: 16,
    tilesets: [{ firstgid: 1, name: "tiles", tilecount: 1, tiles: [{ id: 0, properties: [{ name: "platform", type: "bool", value: true }] }] }],
    layers: [
      { type: "tilelayer", name: "ground", width: 4, height: 3, data: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1] },
      { type: "objectgroup", name: "solids", objects: [
        { id: 7, name: "crate", x: 8, y: 4, width: 10, height: 6 },
        { id: 8, name: "ramp", x: 0, y: 32, polygon: ramp.reduce<{ x: number; y: number }[]>((out, v, k) => (k % 2 ? out : [...out, { x: v, y: ramp[k + 1] }]), []) },
      ] },
    ],
  };
}

describe("loadLevel", () => {
  it("loads a Tiled map's tiles, rectangles and polygons into one world in one call", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      const loaded = world.loadLevel({ tiled: tiledLevel([0, 0, 32, 0, 32, -16]) });
      expect(world.tileMap).toBe(loaded.tileMap);
      expect(world.rectLevel).toBe(loaded.rectLevel);
      expect(world.platforms).toBe(loaded.platforms);
      expect(loaded.tileMap.cols).toBe(4);
      expect(loaded.instances.length).toBe(1);
      expect(loaded.rectLevel.instanceCount).toBe(1);
      expect(loaded.polygonParts.length).toBe(1);
      expect(loaded.platforms.polyhedronCount).toBe(loaded.polygonParts[0].length);
      // A cast down the middle of the map meets the level's floor row (Tiled's last row, its top at y = 32).
      expect(world.castSegment(40, 0, 0, 100)).toBe(true);
      expect([world.hit.part, world.hit.shape, world.hit.y]).toEqual([Part.Tiles, 2 * 4 + 2, 32]);
      expect([loaded.tileMap.flagsAt(40, 40), loaded.tileMap.flagsAt(40, 31)]).toEqual([TileCell.Platform, 0]);
    }
  });

  it("leaves the world as it was when part of the level is refused", async () => {
    const world = await newWorld("wasm-scalar");
    world.addCircle(1, 1, 1);
    const before = world.snapshot();
    // A polygon whose outline crosses itself.
    expect(() => world.loadLevel({ tiled: tiledLevel([0, 0, 32, -16, 32, 0, 0, -16]) })).toThrow(HitcoreError);
    expect(world.tileMap).toBe(null);
    expect(world.rectLevel).toBe(null);
    expect(world.platforms).toBe(null);
    expect(world.snapshot()).toEqual(before);
    expect(world.loadLevel({ ascii: ["X  X", "XXXX"] }).tileMap.rows).toBe(2);
  });
});

describe("ids and disposal", () => {
  it("rejects another world's id with UNKNOWN_ID, naming it", async () => {
    const a = await newWorld("js"), b = await newWorld("js");
    const ia = a.addPoint(0, 0), ib = b.addPoint(0, 0);
    expect(a.has(ib)).toBe(false);
    expect(b.has(ia)).toBe(false);
    expect(() => a.remove(ib)).toThrow(/belongs to another world/);
    expect(refusal(() => a.setPosition(ib, 1, 1)).code).toBe("UNKNOWN_ID");
    expect(a.has(ia) && b.has(ib)).toBe(true);
  });

  it("refuses every call after dispose, and frees the world's tag", async () => {
    const world: World = await newWorld("wasm-scalar");
    const map = world.addTileMap({ cols: 4, rows: 4 });
    world.addCircle(0, 0, 1);
    world.dispose();
    expect(refusal(() => world.selfPairs()).code).toBe("DISPOSED");
    expect(refusal(() => world.x).code).toBe("DISPOSED");
    expect(refusal(() => map.collidePoints(0)).code).toBe("DISPOSED");
    expect(refusal(() => world.snapshot()).code).toBe("DISPOSED");
    expect(refusal(() => world.addRectLevel()).code).toBe("DISPOSED");
  });
});
