// selfPairs (assembly/grid/self_pairs.ts): on every fixture scene and size, the pairs of all groups
// and of one group match brute force (crossPairs on the same worlds too); and the split of nearly
// all thin boxes into a grid of wide cells and one of tall cells, call after call, against brute
// force and the other backends, the cases that stay on one grid, and queries after a split.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { SCENE_SHAPES } from "../../fixtures/scenes.js";
import { Kind, type World } from "../../bindings/node.js";
import { refCrossPairs, refQuery, refSelfPairs } from "../reference.js";
import { BACKENDS, newWorld, pairKeys, selfPairsOf, sortedResults } from "../support.js";
import { SIZES, worldsFor } from "./support.js";

describe.each(SCENE_SHAPES)("scene %s", (shape) => {
  it.each(SIZES)("self and cross pairs match brute force (n = %i)", async (n) => {
    for (const seed of [1, 2]) {
      const worlds = await worldsFor(shape, n, seed);
      const refAll = refSelfPairs(worlds[0], 0xffffffff);
      const refOne = refSelfPairs(worlds[0], 1);
      const refCross = refCrossPairs(worlds[0], 1, 2);
      for (const w of worlds) {
        const all = w.selfPairs();
        expect(pairKeys(w.pairs, all, false), `${w.backend} self, all groups`).toEqual(refAll);
        const one = w.selfPairs(1);
        expect(pairKeys(w.pairs, one, false), `${w.backend} self, group 1`).toEqual(refOne);
        const cross = w.crossPairs(1, 2);
        expect(pairKeys(w.pairs, cross, false), `${w.backend} cross 1 x 2`).toEqual(refCross);
      }
    }
  });
});

describe("selfPairs on thin boxes (split grids)", () => {
  // Walls and lasers: nearly every box at least four times longer than wide, both orientations.
  // Integer corners and sizes, so many boxes touch exactly; a few zero-height lines, copies at
  // the same place, and (at odd slots, which the split's sample of every second slot skips)
  // `giants` boxes far longer than the rest.
  function thinScene(w: World, n: number, seed: number, giants: number, group = 1): void {
    const rnd = mulberry32(seed);
    for (let k = 0; k < n; k++) {
      const long = 8 + Math.floor(rnd() * 60), short = k % 97 === 5 ? 0 : 1 + Math.floor(rnd() * 2);
      const x = Math.floor(rnd() * 600), y = Math.floor(rnd() * 600);
      const giant = k % 2 === 1 && k < 2 * giants;
      const g = k % 3 === 0 ? group | 2 : group;
      if (giant) w.addRect(x, y, 2, 900, g);
      else if (k % 11 === 7 && k > 2 * giants) w.addRect(w.x[k - 1], w.y[k - 1], w.a[k - 1], w.b[k - 1], g); // a copy
      else if (rnd() < 0.5) w.addRect(x, y, long, short, g);
      else w.addRect(x, y, short, long, g);
    }
  }

  async function thinWorlds(n: number, seed: number, giants: number, capacity = 16): Promise<World[]> {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity });
      thinScene(w, n, seed, giants);
      worlds.push(w);
    }
    return worlds;
  }

  // The last case fills its store (4,096 slots, all selected): the SIMD select pass writes four
  // lanes at a time past its list's end, and must stop short of the wide grid's lists, which the
  // tall grid's build keeps at the end of the same scratch.
  it.each([[2000, 1, 16], [2000, 2, 16], [5003, 3, 16], [4096, 5, 4096]])("match brute force on every call, split from the second (n = %i, seed %i, capacity %i)", async (n, seed, capacity) => {
    const worlds = await thinWorlds(n, seed, 3, capacity);
    if (capacity === n) for (const w of worlds) expect(w.count, w.backend).toBe(w.capacity);
    const ref = refSelfPairs(worlds[0], 0xffffffff), refTwo = refSelfPairs(worlds[0], 2);
    expect(ref.length).toBeGreaterThan(n / 4);
    for (let call = 0; call < 4; call++) {
      const runs: unknown[] = [];
      for (const w of worlds) {
        const mask = call === 3 ? 2 : 0xffffffff;
        const found = w.selfPairs(mask);
        expect(pairKeys(w.pairs, found, false), `${w.backend} call ${call}`).toEqual(call === 3 ? refTwo : ref);
        const s = w.stats();
        // The first grid is crowded (cells as long as the longest box); the calls after it split.
        // (The facade's first call may already run the kernel twice: the pair buffer grows.)
        if (call > 0) expect(s.split, `${w.backend} call ${call}`).toBe(true);
        if (s.split) expect(s.selected).toBe(call === 3 ? liveCount(w, 2) : w.count);
        runs.push([Array.from(w.pairs.subarray(0, 2 * found)), s]);
      }
      // Same pairs in the same order and the same stats on every backend.
      expect(runs[1], `call ${call}`).toEqual(runs[0]);
      expect(runs[2], `call ${call}`).toEqual(runs[0]);
    }
  });

  it("a tall grid with more large boxes than SPLIT_LARGE starts over on one grid, with the same pairs", async () => {
    const worlds = await thinWorlds(3000, 4, 40);
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) {
        expect(pairKeys(...selfPairsOf(w)), `${w.backend} call ${call}`).toEqual(ref);
        expect(w.stats().split).toBe(false);
      }
    }
  });

  it("queries after a split read no stale grid", async () => {
    for (const w of await thinWorlds(2000, 5, 0)) {
      w.selfPairs();
      w.selfPairs();
      expect(w.stats().split).toBe(true);
      const rnd = mulberry32(6);
      for (let t = 0; t < 20; t++) {
        const x = Math.floor(rnd() * 600), y = Math.floor(rnd() * 600), s = 1 + Math.floor(rnd() * 80);
        expect(sortedResults(w.queryRect(x, y, s, s / 4), w), w.backend).toEqual(refQuery(w, { kind: Kind.Rect, x, y, a: s, b: s / 4 }, 0xffffffff));
      }
    }
  });

  it.each(["wide", "tall"])("only %s boxes: one of the two grids is empty", async (kind) => {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity: 16 });
      const rnd = mulberry32(kind === "wide" ? 9 : 10);
      for (let k = 0; k < 1500; k++) {
        const long = 8 + Math.floor(rnd() * 60), short = 1 + Math.floor(rnd() * 2), x = Math.floor(rnd() * 400), y = Math.floor(rnd() * 400);
        if (kind === "wide") w.addRect(x, y, long, short);
        else w.addRect(x, y, short, long);
      }
      worlds.push(w);
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    expect(ref.length).toBeGreaterThan(100);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) expect(pairKeys(...selfPairsOf(w)), `${w.backend} call ${call}`).toEqual(ref);
      expect(w.stats().split, w.backend).toBe(true);
    }
  });

  it("boxes that are not nearly all thin stay on one grid", async () => {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity: 16 });
      thinScene(w, 2000, 7, 0);
      const rnd = mulberry32(8);
      for (let k = 0; k < 200; k++) w.addRect(Math.floor(rnd() * 600), Math.floor(rnd() * 600), 30, 30);
      worlds.push(w);
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) {
        expect(pairKeys(...selfPairsOf(w)), w.backend).toEqual(ref);
        expect(w.stats().split, w.backend).toBe(false);
      }
    }
  });
});

function liveCount(w: World, mask: number): number {
  let n = 0;
  for (let s = 0; s < w.count; s++) if (w.kinds[s] !== 0 && (w.groups[s] & mask) !== 0) n++;
  return n;
}
