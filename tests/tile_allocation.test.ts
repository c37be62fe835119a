// "Nothing allocates per frame in the hot path" for the tile part: collidePoints, moveBoxes and
// stepControllers on both backends, measured on the JS heap over many calls after warm-up. Counts
// bytes, not time, so a noisy machine cannot fail it.
import { describe, expect, it } from "vitest";
import { randomAscii } from "../fixtures/tile_maps.js";
import { Input, seedCollisionPoints } from "../bindings/node.js";
import { BACKENDS, backendOptions, gc, leastHeapPerCall, newTileMap } from "./support.js";

describe("the tile frame loop", () => {
  it.runIf(gc !== undefined).each(BACKENDS)("allocates no JS heap per call on %s, and memory stays flat", async (backend) => {
    const T = 16;
    const m = await newTileMap({ ascii: randomAscii(64, 64, 3), tileSize: T, wrap: true, ...(await backendOptions(backend)), entityCapacity: 500, boxCapacity: 500, controllerCapacity: 200 });
    m.setPoints(seedCollisionPoints(T, 2 * T, T));
    for (let e = 0; e < 500; e++) {
      m.entityX[e] = (e * 37) % (64 * T);
      m.entityY[e] = (e * 53) % (64 * T);
      m.boxes.set([(e * 41) % (64 * T), (e * 29) % (64 * T), 10, 14, (e % 7) - 3, (e % 5) - 2], 6 * e);
    }
    const players: number[] = [];
    for (let k = 0; k < 200; k++) players.push(m.addController((k * 97) % (64 * T), ((k * 13) % 64) * T));
    const memory = m.cells.buffer.byteLength;
    const calls: Record<string, (f: number) => void> = {
      collidePoints: () => m.collidePoints(500),
      moveBoxes: () => m.moveBoxes(500),
      stepControllers: (f) => {
        m.setInput(players[f % 200], Input.Right | (f & 8 ? Input.Jump : 0));
        m.stepControllers(1 / 60);
      },
    };
    for (let f = 0; f < 2000; f++) for (const call of Object.values(calls)) call(f); // until V8 has tiered every path up
    for (const [name, call] of Object.entries(calls)) {
      // One object per entity would be 500 x 16 bytes per call; one boxed double per controller
      // step (a double the js backend keeps in a module variable) 200 x 12. Every path allocates nothing.
      expect(leastHeapPerCall(call, 400, 2), `${backend} ${name}`).toBeLessThan(2);
    }
    expect(m.cells.buffer.byteLength).toBe(memory);
  });
});
