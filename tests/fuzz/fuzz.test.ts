// The fuzz suite's fixed-seed slice (tests/fuzz/harness.ts has what it calls and counts), on both
// backends: no trap, no exception but a HitcoreError, no refused call that changed the world, no
// answer that disagrees with the references. `npm run fuzz` runs the long one.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fuzz, OP_NAMES, type FuzzCounts } from "./harness.js";
import { newWorld } from "../support.js";

const tiled = JSON.parse(readFileSync(new URL("../../fixtures/tiled/arena_level.tmj", import.meta.url), "utf8"));

describe.each(["wasm-simd", "js"] as const)("fuzz slice on %s", (backend) => {
  it("every refused call is a HitcoreError that changed nothing; every sampled answer matches the references", async () => {
    const counts: FuzzCounts = await fuzz({ create: (o) => newWorld(backend, o), seed: 28, calls: 6_000, checkRate: 0.5 }, { tiled });
    console.log(`fuzz ${backend}: ${JSON.stringify({ ...counts, examples: undefined })}`);
    expect(counts.examples).toEqual([]);
    expect({ traps: counts.traps, foreign: counts.foreign, changed: counts.changed, wrong: counts.wrong }).toEqual({ traps: 0, foreign: 0, changed: 0, wrong: 0 });
    // The slice exercises both sides: calls refused and calls answered, answers compared.
    expect(counts.refused).toBeGreaterThan(counts.calls / 5);
    expect(counts.returned).toBeGreaterThan(counts.calls / 5);
    expect(counts.checked).toBeGreaterThan(50);
    expect(OP_NAMES.length).toBeGreaterThan(100);
  }, 180_000);
});
