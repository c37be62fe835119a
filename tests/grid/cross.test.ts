// crossPairs and firstHits (assembly/grid/cross.ts): first hits on every fixture scene against the
// seed's loop, and the same winners on every backend; crossPairs against a few enemies on every
// scene, which side it indexes and what a repeated call keeps, with the same pairs, order and box
// tests on every backend. The reach grid itself (its cap, its widening, the home grid it gives way
// to): reach.test.ts.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { SCENE_SHAPES } from "../../fixtures/scenes.js";
import { Kind, type World } from "../../bindings/node.js";
import { refCrossPairs, refFirstHits, refQuery } from "../reference.js";
import { BACKENDS, newWorld, pairKeys, sortedResults } from "../support.js";
import { expectCrossOnEveryBackend, fewEnemies, SIZES, worldsFor } from "./support.js";

describe.each(SCENE_SHAPES)("scene %s", (shape) => {
  it.each(SIZES)("first hits match the seed's loop, exclusive or not (n = %i)", async (n) => {
    const worlds = await worldsFor(shape, n, 5);
    for (const exclusive of [true, false]) {
      const ref = refFirstHits(worlds[0], 1, 2, exclusive);
      for (const w of worlds) {
        const hits = w.firstHits(1, 2, exclusive);
        expect(Array.from(w.pairs.subarray(0, 2 * hits)), `${w.backend} exclusive=${exclusive}`).toEqual(ref.pairs);
        expect(Array.from(w.flags.subarray(0, w.count))).toEqual(ref.flags);
      }
    }
  });
});

describe("crossPairs and firstHits", () => {
  it("cross pairs index the smaller side and probe with the larger, in either order of the masks", async () => {
    const rnd = mulberry32(11);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 64 }));
    for (let k = 0; k < 900; k++) {
      const bullet = k % 10 !== 0; // 810 bullets (group 1), 90 enemies (group 2)
      const x = Math.floor(rnd() * 400), y = Math.floor(rnd() * 400), r = 1 + Math.floor(rnd() * 3);
      for (const w of worlds) (bullet ? w.addCircle(x, y, r, 1) : w.addRect(x, y, 8 + (k % 7), 8 + (k % 5), 2));
    }
    const ab = refCrossPairs(worlds[0], 1, 2), ba = refCrossPairs(worlds[0], 2, 1);
    expect(ab.length).toBeGreaterThan(20);
    for (const w of worlds) {
      const n = w.crossPairs(1, 2);
      expect(pairKeys(w.pairs, n, false)).toEqual(ab);
      expect(w.stats().selected).toBe(90); // the enemies were indexed
      // A pair query leaves the probe grid alone: with none built, a query scans; on the probe grid
      // buildGrid builds over the enemies, it visits cells. Both agree with the reference.
      const want = refQuery(w, { kind: Kind.Rect, x: 100, y: 100, a: 50, b: 50 }, 2);
      expect(sortedResults(w.queryRect(100, 100, 50, 50, 2), w)).toEqual(want);
      expect(w.stats().cellsVisited).toBe(0);
      w.buildGrid(2);
      expect(sortedResults(w.queryRect(100, 100, 50, 50, 2), w)).toEqual(want);
      expect(w.stats().cellsVisited).toBeGreaterThan(0);
      const m = w.crossPairs(2, 1);
      expect(pairKeys(w.pairs, m, false)).toEqual(ba);
      expect(w.stats().selected).toBe(90);
    }
  });

  it("cross pairs count the same box tests on every backend, entities in both masks included", async () => {
    const worlds = await worldsFor("clustered", 600, 1);
    const stats = worlds.map((w) => [[1, 2], [1, 3], [3, 1]].map(([a, b]) => {
      const n = w.crossPairs(a, b);
      const s = w.stats();
      return [n, s.aabbTests, s.narrowTests, s.cellsVisited];
    }));
    expect(stats[0][1][1]).toBeGreaterThan(0);
    for (const s of stats.slice(1)) expect(s).toEqual(stats[0]);
  });

  it.each(SCENE_SHAPES)("cross pairs against a few enemies match brute force, reach grid or not (%s)", async (shape) => {
    for (const seed of [1, 2, 3]) {
      const worlds = await fewEnemies(shape, 900, seed);
      for (const [a, b] of [[1, 2], [2, 1], [1, 3], [2, 3]]) {
        const ref = refCrossPairs(worlds[0], a, b);
        const runs = worlds.map((w) => {
          const n = w.crossPairs(a, b);
          expect(pairKeys(w.pairs, n, false), `${w.backend} ${a} x ${b} seed ${seed}`).toEqual(ref);
          const { cover, aabbTests, narrowTests, cellsVisited, entries } = w.stats();
          return [Array.from(w.pairs.subarray(0, 2 * n)), cover, aabbTests, narrowTests, cellsVisited, entries];
        });
        // The same path on every backend: the same pairs in the same order, the same work.
        for (const r of runs.slice(1)) expect(r).toEqual(runs[0]);
      }
    }
  });

  it("cross pairs index the smaller side in a reach grid, spread out or crowded, and every call agrees", async () => {
    for (const shape of ["uniform", "one-cell"] as const) {
      const worlds = await fewEnemies(shape, 900, 1);
      const ref = refCrossPairs(worlds[0], 1, 2);
      for (const w of worlds) {
        for (let t = 0; t < 3; t++) {
          const n = w.crossPairs(1, 2);
          expect(pairKeys(w.pairs, n, false), `${shape} ${w.backend} call ${t}`).toEqual(ref);
          const s = w.stats();
          expect(s.cover, w.backend).toBe(true);
          expect(s.selected, w.backend).toBe(36); // the enemies are indexed, the bullets probe
          expect(s.entries, w.backend).toBeGreaterThanOrEqual(s.selected);
          expect(s.large, w.backend).toBe(0);
        }
      }
    }
  });

  it("a repeated cross pairs call keeps the last call's indexed side only while it is still the smaller", async () => {
    // 300 bullets (group 1) and 30 enemies (group 2); then the enemies outnumber the bullets, the
    // two sides tie (B is indexed), and the bullets are the few: each call checked against a world
    // with no last call. Room for every grid's records, so only the side counts can catch a flip.
    const rnd = mulberry32(21);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 8192 }));
    const boxes: number[][] = [];
    for (let k = 0; k < 330; k++) boxes.push([Math.floor(rnd() * 300), Math.floor(rnd() * 300), 2 + Math.floor(rnd() * 12), 2 + Math.floor(rnd() * 12)]);
    for (const w of worlds) for (const [k, [x, y, bw, bh]] of boxes.entries()) w.addRect(x, y, bw, bh, k < 300 ? 1 : 2);
    const regroup = (enemies: number) => {
      for (const w of worlds) for (let k = 0; k < 330; k++) w.setGroups(w.idAt(k), k < 330 - enemies ? 1 : 2);
    };
    for (const [enemies, selected] of [[30, 30], [30, 30], [180, 150], [180, 150], [165, 165], [300, 30], [30, 30]]) {
      regroup(enemies);
      const ref = refCrossPairs(worlds[0], 1, 2);
      const fresh = await newWorld("js", { capacity: 8192 });
      for (let k = 0; k < 330; k++) fresh.addRect(worlds[0].x[k], worlds[0].y[k], worlds[0].a[k], worlds[0].b[k], worlds[0].groups[k]);
      const n = fresh.crossPairs(1, 2);
      expect(fresh.stats().selected).toBe(selected); // the smaller side is indexed (B on a tie)
      expectCrossOnEveryBackend(worlds, ref, true);
      expect(Array.from(worlds[0].pairs.subarray(0, 2 * n))).toEqual(Array.from(fresh.pairs.subarray(0, 2 * n)));
      expect(worlds[0].stats()).toEqual(fresh.stats());
    }
  });

  it("every backend picks the same winners for the same input, every time", async () => {
    const worlds = await worldsFor("clustered", 3000, 21);
    const runs = worlds.map((w) => {
      const n = w.firstHits(1, 2);
      return Array.from(w.pairs.subarray(0, 2 * n));
    });
    expect(runs[0].length).toBeGreaterThan(0);
    for (const run of runs) expect(run).toEqual(runs[0]);
    const again = worlds[0].firstHits(1, 2);
    expect(Array.from(worlds[0].pairs.subarray(0, 2 * again))).toEqual(runs[0]);
  });
});
