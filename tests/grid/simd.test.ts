// The SIMD build (assembly/grid/simd.ts and the *Simd passes): the same grids, pairs, order and
// stats as the scalar build, call by call and frame after frame on moving entities.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { makeScene, loadScene, type SceneShape } from "../../fixtures/scenes.js";
import { Kind, type World } from "../../bindings/node.js";
import { refSelfPairs } from "../reference.js";
import { BACKENDS, newWorld, pairKeys } from "../support.js";

describe("the SIMD core", () => {
  it("builds the scalar core's grids and emits the same pairs in the same order, with the same stats", async () => {
    // Past 4,096 slots (the histogram samples), with holes left by removals and masks that take
    // every other slot (selections that are not runs of four slots), large entities, and counts
    // that are not multiples of four: every path of the SIMD passes, against the scalar ones.
    // (The other tests compare pair sets with the js backend and the reference.)
    const cases: [SceneShape, number][] = [["mixed-groups", 5003], ["huge", 4801], ["skewed", 2002], ["clustered", 6001], ["uniform", 37]];
    for (const [shape, n] of cases) {
      const scene = makeScene(shape, n, 13);
      const runs: unknown[][] = [];
      for (const backend of ["wasm-scalar", "wasm-simd"] as const) {
        const w = await newWorld(backend, { capacity: 16 });
        loadScene(w, scene).forEach((id, k) => { if (k % 7 === 3) w.remove(id); });
        const out: unknown[] = [];
        const record = (found: number) => out.push(Array.from(w.pairs.subarray(0, 2 * found)), w.stats());
        record(w.selfPairs());
        record(w.selfPairs(1));
        record(w.crossPairs(1, 2));
        record(w.crossPairs(2, 1));
        record(w.firstHits(1, 2));
        out.push(Array.from(w.flags.subarray(0, w.count)));
        record(w.queryRect(100, 100, 300, 200, 1));
        out.push(Array.from(w.results.subarray(0, w.stats().found)));
        runs.push(out);
      }
      expect(runs[0][0]).not.toEqual([]);
      for (let r = 0; r < runs[0].length; r++) expect(runs[1][r], `${shape} ${n}: record ${r}`).toEqual(runs[0][r]);
    }
  });

  it("selfPairs frame after frame on moving entities: the same pairs, order and stats as the scalar core and the js backend, grid kept or changed", async () => {
    // The SIMD core finds homes in its select pass on the last grid while the grid stays the same
    // (the cell size and the snapped origin), and builds again when it changes: here a jitter
    // every frame keeps it, and frames 4, 5 and 7 change it. Holes left by
    // removals and a mask that takes some slots make partial groups of four; "huge" has large
    // entities; a NaN written through a view on frame 3 must be reported as on any other call.
    const cases: [SceneShape, number, number][] = [["mixed-groups", 4403, 0xffffffff], ["mixed-groups", 2003, 1], ["huge", 1202, 0xffffffff], ["uniform", 37, 0xffffffff]];
    for (const [shape, n, mask] of cases) {
      const scene = makeScene(shape, n, 17);
      const worlds: World[] = [];
      for (const backend of BACKENDS) {
        const w = await newWorld(backend, { capacity: 16 });
        loadScene(w, scene).forEach((id, k) => { if (k % 7 === 3) w.remove(id); });
        worlds.push(w);
      }
      const rnd = mulberry32(n);
      const bad = worlds[0].kinds.findIndex((k, s) => k === Kind.Circle && s >= 8 && s < n - 8 && (worlds[0].groups[s] & mask) !== 0);
      for (let frame = 0; frame < 9; frame++) {
        const dx = new Float32Array(n).map(() => rnd() - 0.5), dy = new Float32Array(n).map(() => rnd() - 0.5);
        if (frame === 4) dx.fill(20.5); // the origin moves two or three cells, the shape stays
        if (frame === 5) dx[worlds[0].x.indexOf(Math.max(...worlds[0].x.subarray(0, n)))] = 16; // two more columns
        if (frame === 7) dx[n >> 1] = 5000; // a bigger grid of bigger cells
        const runs: unknown[][] = [];
        for (const w of worlds) {
          for (let s = 0; s < w.count; s++) { w.x[s] += dx[s]; w.y[s] += dy[s]; }
          if (frame === 3) {
            const keep = w.x[bad];
            w.x[bad] = NaN;
            expect(() => w.selfPairs(mask), `${shape} ${n}, frame ${frame}`).toThrow(new RegExp(`slot ${bad} .* x = NaN`));
            w.x[bad] = keep;
          }
          const found = w.selfPairs(mask);
          runs.push([pairKeys(w.pairs, found, false), Array.from(w.pairs.subarray(0, 2 * found)), w.stats()]);
        }
        expect(runs[0][0], `${shape} ${n}, frame ${frame}`).toEqual(refSelfPairs(worlds[0], mask));
        for (const r of runs) expect(r, `${shape} ${n}, frame ${frame}`).toEqual(runs[0]);
      }
    }
  });
});
