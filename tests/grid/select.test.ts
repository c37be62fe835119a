// The select pass (assembly/grid/select.ts): holes left by removals are skipped and reused slots
// selected anew; the bounds leave with +0 for -0 on every backend, whichever zero comes first.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { makeScene, loadScene } from "../../fixtures/scenes.js";
import { refCrossPairs, refSelfPairs } from "../reference.js";
import { BACKENDS, crossPairsOf, newWorld, pairKeys, selfPairsOf } from "../support.js";

describe("the select pass", () => {
  it("holes left by removals are skipped, and reused slots report the new entity", async () => {
    for (const backend of BACKENDS) {
      const w = await newWorld(backend);
      const ids = loadScene(w, makeScene("uniform", 500, 11));
      const rnd = mulberry32(12);
      for (const id of ids) if (rnd() < 0.3) w.remove(id);
      for (let k = 0; k < 50; k++) w.addCircle(Math.floor(rnd() * 200), Math.floor(rnd() * 200), 5, 1);
      w.validate();
      expect(pairKeys(...selfPairsOf(w))).toEqual(refSelfPairs(w, 0xffffffff));
      expect(pairKeys(...crossPairsOf(w))).toEqual(refCrossPairs(w, 1, 2));
    }
  });

  it("a -0 coordinate gives every backend the grid origin +0, whichever zero comes first", async () => {
    for (const first of [-0, 0]) {
      const stats = [];
      for (const backend of BACKENDS) {
        const w = await newWorld(backend);
        for (let k = 0; k < 11; k++) w.addRect(k % 3 === 0 ? first : -first, k % 2 === 0 ? -first : first, 4, 4);
        w.selfPairs();
        stats.push(w.stats());
      }
      for (const s of stats) {
        expect(Object.is(s.originX, 0) && Object.is(s.originY, 0), `first zero ${Object.is(first, -0) ? "-0" : "+0"}`).toBe(true);
        expect(s).toEqual(stats[0]);
      }
    }
  });
});
