// Boxes in f32 (assembly/grid/boxes.ts): on random float scenes (not f32-exact) every backend and
// the brute-force reference agree pair for pair.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import type { World } from "../../bindings/node.js";
import { refSelfPairs } from "../reference.js";
import { BACKENDS, newWorld, pairKeys, selfPairsOf } from "../support.js";

describe("boxes in f32", () => {
  it("random float scenes (not f32-exact) still agree bit for bit", async () => {
    const rnd = mulberry32(77);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend));
    for (let k = 0; k < 1500; k++) {
      const kind = k % 3, x = rnd() * 300, y = rnd() * 300, a = rnd() * 6, b = rnd() * 6, g = 1 + (k & 1);
      for (const w of worlds) {
        if (kind === 0) w.addPoint(x, y, g);
        else if (kind === 1) w.addCircle(x, y, a, g);
        else w.addRect(x, y, a, b, g);
      }
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    expect(ref.length).toBeGreaterThan(100);
    for (const w of worlds) expect(pairKeys(...selfPairsOf(w))).toEqual(ref);
  });
});
