// "Nothing allocates per frame in the hot path" for the tile part: collidePoints, moveBoxes and
// stepControllers on both backends, measured on the JS heap over many calls after warm-up. Counts
// bytes, not time, so a noisy machine cannot fail it.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { randomAscii } from "../bench/tiles_scene.js";
import { createTileMap, Input, seedCollisionPoints } from "../bindings/node.js";
import { BACKENDS } from "./support.js";

const gc = (globalThis as { gc?: () => void }).gc;
const core = WebAssembly.compile(await readFile(new URL("../dist/hitcore.wasm", import.meta.url)));

describe("the tile frame loop", () => {
  it.runIf(gc !== undefined).each(BACKENDS)("allocates no JS heap per call on %s, and memory stays flat", async (backend) => {
    const T = 16;
    const m = await createTileMap({ ascii: randomAscii(64, 64, 3), tileSize: T, wrap: true, backend, wasm: await core, entityCapacity: 500, boxCapacity: 500, controllerCapacity: 200 });
    m.setPoints(seedCollisionPoints(T, 2 * T, T));
    for (let e = 0; e < 500; e++) {
      m.entityX[e] = (e * 37) % (64 * T);
      m.entityY[e] = (e * 53) % (64 * T);
      m.boxes.set([(e * 41) % (64 * T), (e * 29) % (64 * T), 10, 14, (e % 7) - 3, (e % 5) - 2], 6 * e);
    }
    for (let k = 0; k < 200; k++) m.addController((k * 97) % (64 * T), ((k * 13) % 64) * T);
    const memory = m.cells.buffer.byteLength;
    const frame = (f: number) => {
      m.collidePoints(500);
      m.moveBoxes(500);
      m.setInput(f % 200, Input.Right | (f & 8 ? Input.Jump : 0));
      m.stepControllers(1 / 60);
    };
    for (let f = 0; f < 800; f++) frame(f); // until V8 has tiered every path up
    gc!();
    const perCall = [0, 1, 2].map(() => {
      const before = process.memoryUsage().heapUsed;
      const frames = 400;
      for (let f = 0; f < frames; f++) frame(f);
      return (process.memoryUsage().heapUsed - before) / (frames * 4);
    });
    // One small object per call would be 16+ bytes.
    expect(Math.min(...perCall)).toBeLessThan(2);
    expect(m.cells.buffer.byteLength).toBe(memory);
  });
});
