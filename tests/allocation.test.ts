// "Nothing allocates per frame in the hot path": the wasm path's collision calls, measured on the
// JS heap over many calls after warm-up. Counts bytes, not time, so a noisy machine cannot fail it.
import { describe, expect, it } from "vitest";
import { BULLET, BulletHell, ENEMY } from "../fixtures/scenes.js";
import { gc, leastHeapPerCall, newWorld } from "./support.js";

describe("the wasm frame loop", () => {
  it.runIf(gc !== undefined)("allocates no JS heap per collision call, and wasm memory stays flat", async () => {
    const world = await newWorld("wasm-scalar", { capacity: 4200 });
    const hell = new BulletHell(world, { bullets: 4000, enemies: 120, width: 700, height: 700 });
    const ship = world.addRect(350, 600, 12, 12, 1 << 2);
    // A game's own f64 positions, written through setPositions every frame: copied from the
    // views while the hell steps, then the same ones during the windows (they count bytes).
    const xs = new Float64Array(world.count), ys = new Float64Array(world.count);
    const frame = () => {
      world.setPositions(xs, ys);
      world.firstHits(BULLET, ENEMY);
      world.selfPairs(ENEMY);
      world.crossPairs(ENEMY, BULLET);
      world.touching(ship, BULLET);
      world.queryRect(100, 100, 200, 200, BULLET);
    };
    const keep = () => { for (let k = 0; k < xs.length; k++) { xs[k] = world.x[k]; ys[k] = world.y[k]; } };
    for (let f = 0; f < 300; f++) { hell.step(1 / 60); keep(); frame(); hell.recycleHits(); }
    for (let f = 0; f < 2000; f++) frame(); // until V8 has tiered every path up
    const memory = world.memoryBytes;
    // One small object per call would be 16+ bytes; the facade and kernel allocate none.
    expect(leastHeapPerCall(frame, 4000, 2, 6)).toBeLessThan(2);
    expect(world.memoryBytes).toBe(memory);
  });
});
