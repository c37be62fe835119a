// The grid's shape (assembly/grid/shape.ts): any user cell size gives the same pairs; at most
// CELLS_PER_ENTITY cells per entity, so a uniform scene is pruned and a pile in one cell costs no
// more box tests than brute force.
import { describe, expect, it } from "vitest";
import { refSelfPairs } from "../reference.js";
import { BACKENDS, newWorld, pairKeys, refusal, selfPairsOf } from "../support.js";
import { worldsFor } from "./support.js";

describe("the grid's shape", () => {
  it.each([0.25, 3, 50, 100000])("any user cell size gives the same pairs (cellSize %f)", async (cellSize) => {
    const worlds = await worldsFor("huge", 400, 3, cellSize);
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) expect(pairKeys(...selfPairsOf(w))).toEqual(ref);
  });

  it("prunes: a uniform scene tests a small fraction of all pairs", async () => {
    for (const w of await worldsFor("uniform", 4000, 2)) {
      w.selfPairs();
      const s = w.stats();
      expect(s.selected).toBe(4000);
      expect(s.aabbTests).toBeLessThan((4000 * 3999) / 2 / 100);
      expect(s.cols * s.rows).toBeLessThanOrEqual(4 * 4000 + 64);
    }
  });

  it("a user cell size below 1e-30 is refused on every backend, naming the option and the fix; 1e-30 builds one grid everywhere", async () => {
    for (const backend of BACKENDS) {
      for (const tiny of [5e-324, 1e-40, 9.99e-31]) {
        await expect(newWorld(backend, { cellSize: tiny }), `${backend} ${tiny}`).rejects.toThrow(/cellSize must be 0 \(automatic\) or at least 1e-30, got .*: pass 0 for automatic cells/);
      }
    }
    const worlds = await worldsFor("uniform", 300, 4, 1e-30);
    const grids = worlds.map((w) => {
      const before = w.snapshot();
      const e = refusal(() => w.setCellSize(5e-324));
      expect(e.code).toBe("INVALID_OPTION");
      expect(e.message).toMatch(/cellSize .* got 5e-324/);
      expect(w.snapshot()).toEqual(before); // refused: nothing changed
      expect(pairKeys(...selfPairsOf(w))).toEqual(refSelfPairs(w, 0xffffffff));
      const s = w.stats();
      return [s.cols, s.rows, s.cellSize, s.originX, s.originY, s.aabbTests];
    });
    for (const g of grids) expect(g).toEqual(grids[0]);
  });

  it("everything in one cell degrades to brute force, not worse", async () => {
    for (const w of await worldsFor("one-cell", 500, 2)) {
      const n = w.selfPairs();
      expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, 0xffffffff));
      expect(w.stats().aabbTests).toBeLessThanOrEqual((500 * 499) / 2);
    }
  });
});
