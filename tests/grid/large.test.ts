// The large list (assembly/grid/large.ts): entities too large for one cell past home are swept
// against each other, not tested all against all, and pairs stay exact.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import type { World } from "../../bindings/node.js";
import { refSelfPairs } from "../reference.js";
import { BACKENDS, newWorld, pairKeys } from "../support.js";
import { worldsFor } from "./support.js";

describe("the large list", () => {
  it("many large entities are swept, not tested all against all (no cliff when the cells are small)", async () => {
    // Long thin rects (the peers' skewed scene) with cells far smaller than them: nearly all large.
    const rnd = mulberry32(7);
    const n = 3000;
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: n, cellSize: 4 }));
    for (let k = 0; k < n; k++) {
      const long = 20 + Math.floor(rnd() * 100), short = 1 + Math.floor(rnd() * 2);
      const x = Math.floor(rnd() * 2000), y = Math.floor(rnd() * 2000);
      for (const w of worlds) (k & 1 ? w.addRect(x, y, long, short) : w.addRect(x, y, short, long));
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      const found = w.selfPairs();
      expect(pairKeys(w.pairs, found, false)).toEqual(ref);
      const s = w.stats();
      expect(s.large).toBeGreaterThan(n / 2);
      // All against all would be n^2 / 2 = 4.5M box tests; the sweep on left edges needs a small fraction.
      expect(s.aabbTests).toBeLessThan((n * (n - 1)) / 2 / 10);
    }
  });

  it("huge entities among small ones go to the large list, and pairs stay exact", async () => {
    for (const w of await worldsFor("huge", 2000, 4)) {
      const n = w.selfPairs();
      expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, 0xffffffff));
      const s = w.stats();
      expect(s.entries + s.large).toBe(2000);
      expect(s.large).toBeGreaterThan(0);
      expect(s.large).toBeLessThanOrEqual(2000 / 10);
    }
  });
});
