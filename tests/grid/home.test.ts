// Homes and their counts (assembly/grid/home.ts): a cell of more than 65,535 entities, past the
// u16 counts the cores keep until a cell fills, gives the same pairs and stats on every backend.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import type { World } from "../../bindings/node.js";
import { refOverlap, shapeAt } from "../reference.js";
import { BACKENDS, newWorld, pairKeys, selfPairsOf } from "../support.js";

describe("homes", () => {
  it("a cell of more than 65,535 entities (the cores count in 16 bits until a cell fills) gives the same pairs and stats", async () => {
    // 70,000 points at distinct positions (no two overlap) and 30 circles, in one cell of a user
    // cell size: the wasm cores' u16 counts fill up and they count again in 32 bits.
    // One rect at slot 65,538 is large (three cells wide): its group of four goes lane by lane,
    // with counts past 65,535 in it.
    const n = 70000, rnd = mulberry32(21), huge = 65538;
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: n + 64, cellSize: 1e6 }));
    for (let k = 0; k < n; k++) {
      const x = k * 0.01, y = ((k * 7919) % 1000) * 0.01;
      for (const w of worlds) {
        if (k === huge) w.addRect(-1e6, 0, 3e6, 5, 1);
        else w.addPoint(x, y, 1);
      }
    }
    for (let k = 0; k < 30; k++) {
      const x = rnd() * 700, y = rnd() * 10, r = 0.05 + rnd() * 0.5;
      for (const w of worlds) w.addCircle(x, y, r, 1);
    }
    // Only pairs with a circle or the rect in them can overlap: the reference tests those.
    const w0 = worlds[0], ref = new Set<number>();
    for (const c of [huge, ...Array.from({ length: 30 }, (_, k) => n + k)]) {
      for (let j = 0; j < n + 30; j++) {
        if (j !== c && refOverlap(shapeAt(w0, c), shapeAt(w0, j))) ref.add(Math.min(c, j) * 4194304 + Math.max(c, j));
      }
    }
    expect(ref.size).toBeGreaterThan(30);
    // Three calls: the SIMD core's third counts on the grid the first two made, in its select pass.
    for (let call = 0; call < 3; call++) {
      const stats = [];
      for (const w of worlds) {
        expect(pairKeys(...selfPairsOf(w)), `call ${call}`).toEqual([...ref].sort((a, b) => a - b));
        stats.push(w.stats());
      }
      expect([stats[0].large, stats[0].entries]).toEqual([1, n + 29]);
      for (const s of stats) expect(s).toEqual(stats[0]);
    }
  });
});
