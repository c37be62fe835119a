// The arena (fixtures/arena.ts, the scene of demo/arena.html) in Node: every core plays the same
// game from the same inputs; bullets ricochet off every part of the level (a Tiled map) and stop
// at enemies; the enemies walk it as tile controllers; the player stands on the map's floor; a save
// brings the whole game back; a frame allocates nothing on the JS heap.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IdKind, Input, Part } from "../bindings/node.js";
import { ARENA_HEIGHT, ARENA_TILE, ArenaGame, autopilotInput, BULLET_RADIUS, ENEMY_HEIGHT, ENEMY_SIZE } from "../fixtures/arena.js";
import { BACKENDS, gc, leastHeapPerCall, newWorld } from "./support.js";

const LEVEL = JSON.parse(readFileSync(new URL("../fixtures/tiled/arena_level.tmj", import.meta.url), "utf8"));

async function arena(backend: (typeof BACKENDS)[number], bullets = 3000): Promise<ArenaGame> {
  return new ArenaGame(await newWorld(backend, { capacity: bullets + 64 }), { bullets, level: LEVEL });
}

describe("arena", () => {
  it("plays the same game on every core: the same hash every 100 frames", async () => {
    const runs: number[][] = [];
    for (const backend of BACKENDS) {
      const game = await arena(backend);
      const hashes: number[] = [];
      for (let f = 0; f < 400; f++) {
        game.step(autopilotInput(f));
        if ((f + 1) % 100 === 0) hashes.push(game.hash());
      }
      runs.push(hashes);
    }
    expect(new Set(runs[0]).size).toBe(4);
    for (const r of runs) expect(r).toEqual(runs[0]);
  });

  it("ricochets bullets off every part of the level, stops them at enemies, and keeps them inside", async () => {
    const game = await arena("wasm-simd");
    const world = game.world;
    for (let f = 0; f < 300; f++) game.step(autopilotInput(f));
    for (const part of [Part.Tiles, Part.Rects, Part.Surfaces, Part.Polyhedra]) expect(game.partHits[part]).toBeGreaterThan(0);
    expect(game.enemyHitsTotal).toBeGreaterThan(0);
    const x = world.x, y = world.y, T = ARENA_TILE, r = BULLET_RADIUS;
    let outside = 0;
    for (let k = 0; k < game.bullets; k++) {
      if (!(x[k] >= T + r - 1e-3 && x[k] <= 960 - T - r + 1e-3 && y[k] >= T + r - 1e-3 && y[k] <= ARENA_HEIGHT - T - r + 1e-3)) outside++;
    }
    expect(outside).toBe(0);
    world.validate();
    game.level.validate();
  });

  it("walks the enemies on the level as tile controllers, their bodies following them", async () => {
    const game = await arena("wasm-scalar", 200);
    const world = game.world, map = game.map, n = game.bullets;
    const startX = Array.from({ length: game.enemies }, (_, e) => world.x[n + e]);
    for (let f = 0; f < 400; f++) game.step(autopilotInput(f));
    let standing = 0, walked = 0;
    for (let e = 0; e < game.enemies; e++) {
      const c = map.idAt(IdKind.Controller, game.enemyControllers[e]), s = map.controller(c);
      if (!s.falling) standing++;
      if (Math.abs(world.x[n + e] - startX[e]) > ARENA_TILE) walked++;
      // The body is the controller's box: its origin is the middle of the feet.
      expect(world.x[n + e]).toBe(Math.fround(s.x - ENEMY_SIZE / 2));
      expect(world.y[n + e]).toBe(Math.fround(s.y - ENEMY_HEIGHT));
      expect(world.y[n + e] + ENEMY_HEIGHT).toBeLessThanOrEqual(ARENA_HEIGHT - ARENA_TILE); // never through the floor
    }
    expect(standing).toBeGreaterThan(game.enemies / 2);
    expect(walked).toBeGreaterThan(game.enemies / 2);
  });

  it("lets the player stand on the floor and run along it", async () => {
    const game = await arena("js", 100);
    const level = game.level, p = game.player;
    for (let f = 0; f < 30; f++) game.step(0);
    expect(level.charY[p] + level.charH[p]).toBe(ARENA_HEIGHT - ARENA_TILE);
    const x0 = level.charX[p];
    for (let f = 0; f < 30; f++) game.step(Input.Right);
    expect(level.charX[p]).toBeGreaterThan(x0 + 30);
    expect(level.charY[p] + level.charH[p]).toBe(ARENA_HEIGHT - ARENA_TILE);
  });

  it("saves and loads the whole game: the round trip and a replay from the save give the same hashes", async () => {
    for (const backend of BACKENDS) {
      const game = await arena(backend);
      for (let f = 0; f < 60; f++) game.step(autopilotInput(f));
      expect(game.roundTrip(autopilotInput(60))).toBe(true);
      const saved = game.save();
      const ahead: number[] = [];
      for (let f = 61; f < 121; f++) { game.step(autopilotInput(f)); ahead.push(game.hash()); }
      game.load(saved);
      const again: number[] = [];
      for (let f = 61; f < 121; f++) { game.step(autopilotInput(f)); again.push(game.hash()); }
      expect(again).toEqual(ahead);
    }
  });

  it.runIf(gc !== undefined)("steps a frame without allocating on the JS heap", async () => {
    const game = await arena("wasm-scalar", 2000);
    let f = 0;
    const frame = () => { game.step(autopilotInput(f++)); };
    for (let k = 0; k < 1500; k++) frame(); // until V8 has tiered every path up
    // One small object per frame would be 16+ bytes.
    expect(leastHeapPerCall(frame, 500, 2, 1, 6)).toBeLessThan(2);
  });
});
