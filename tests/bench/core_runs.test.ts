// The interleaved timing behind `npm run bench:simd` and `npm run bench:ab` (bench/core_runs.ts):
// every world of every core runs the same frames, the core that goes first rotates, and the scene
// runs give both packaged cores the same worlds.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { interleave, paired, sceneRun, type Run } from "../../bench/core_runs.js";

describe("interleave", () => {
  it("runs every world of every core for rounds x frames, rotating which core goes first", () => {
    const firsts: number[] = [];
    const calls: number[][] = [[0, 0], [0, 0], [0, 0]];
    let last = -1;
    const fake = (core: number, world: number): Run => ({
      world: undefined as never,
      step() { calls[core][world]++; },
      frame() {
        if (last !== core) firsts.push(core);
        last = core;
        return 0;
      },
    });
    const runs = [0, 1, 2].map((c) => [fake(c, 0), fake(c, 1)]);
    const best = interleave(runs, 4, 5);
    expect(calls.every((worlds) => worlds.every((n) => n === 4 * 5))).toBe(true);
    // Each (round, world) visits the three cores once, starting one core later every time.
    const starts = [];
    for (let k = 0; k < firsts.length; k += 3) starts.push(firsts[k]);
    expect(starts.slice(0, 4)).toEqual([0, 1, 1, 2]);
    for (let k = 0; k < firsts.length; k += 3) expect(new Set(firsts.slice(k, k + 3)).size).toBe(3);
    expect(best.length).toBe(3);
    for (const ms of best) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it("paired alternates the first run with each other one, frame by frame, each going first in turn", () => {
    const order: string[] = [];
    const fake = (name: string): Run => ({
      world: undefined as never,
      step() { order.push(`step ${name}`); },
      frame() { order.push(name); return 0; },
    });
    const ratios = paired([fake("a"), fake("b"), fake("c")], 4);
    const frames = order.filter((e) => !e.startsWith("step"));
    expect(frames).toEqual(["b", "a", "a", "b", "b", "a", "a", "b", "c", "a", "a", "c", "c", "a", "a", "c"]);
    expect(order.filter((e) => e.startsWith("step")).length).toBe(frames.length);
    expect(ratios.length).toBe(3);
    expect(ratios[0]).toBe(1);
  });

  it("scene runs give the scalar and SIMD cores the same pairs, in order, with the same stats", async () => {
    const scalar = await readFile(new URL("../../dist/hitcore.wasm", import.meta.url));
    const simd = await readFile(new URL("../../dist/hitcore-simd.wasm", import.meta.url));
    for (const name of ["circles self", "skewed complete", "clustered bipartite"]) {
      const a = await sceneRun(name, 1500, scalar), b = await sceneRun(name, 1500, simd);
      for (let f = 0; f < 3; f++) {
        a.step(); b.step();
        const na = a.frame(), nb = b.frame();
        expect(na, name).toBeGreaterThan(0);
        expect(nb, name).toBe(na);
        expect(b.world.stats(), name).toEqual(a.world.stats());
        expect(Array.from(b.world.pairs.subarray(0, 2 * nb)), name).toEqual(Array.from(a.world.pairs.subarray(0, 2 * na)));
      }
    }
  });
});
