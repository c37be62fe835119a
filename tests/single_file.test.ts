// dist/hitcore.single.js (npm run build:single): the browser entry with both cores inlined. Here
// in Node, which has the same atob, Blob and DecompressionStream a page has; tests/browser.test.ts
// loads it from a plain page. Needs dist/ (`npm run build`, which `npm test` runs first).
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import * as browser from "../dist/bindings/browser.js";

// Built files without declarations of their own: typed as the modules they are built from.
const single = (await import("../dist/hitcore.single.js" as string)) as typeof import("../dist/bindings/single.js");
const { scalar, simd } = (await import("../dist/hitcore-cores.js" as string)) as { scalar: string; simd: string };

const scalarBytes = await readFile(new URL("../dist/hitcore.wasm", import.meta.url));
const simdBytes = await readFile(new URL("../dist/hitcore-simd.wasm", import.meta.url));

describe("the single-file build", () => {
  it("exports what the browser entry exports", () => {
    expect(Object.keys(single).sort()).toEqual(Object.keys(browser).sort());
  });

  it("inlines both packaged cores, byte for byte", () => {
    expect(gunzipSync(Buffer.from(simd, "base64")).equals(simdBytes)).toBe(true);
    expect(gunzipSync(Buffer.from(scalar, "base64")).equals(scalarBytes)).toBe(true);
  });

  it("compiles the SIMD core where it validates, the scalar one with simd: false, each once, and both answer alike", async () => {
    const compile = vi.spyOn(WebAssembly, "compile");
    const answers: number[][] = [];
    for (const options of [{}, { simd: false }, {}, { simd: false }]) {
      const world = await single.createWorld({ capacity: 8, ...options });
      world.addCircle(0, 0, 2, 1);
      world.addCircle(3, 0, 2, 1);
      world.addRect(10, 0, 4, 4, 2);
      world.addCircle(12, 2, 1, 1);
      answers.push([world.selfPairs(), world.firstHits(1, 2), world.flags[3] & single.BodyFlag.Stopped]);
    }
    const compiled = compile.mock.calls.map(([b]) => Buffer.from(b as Uint8Array));
    compile.mockRestore();
    // Node's own Response compiles its HTTP parser's wasm on first use: only the cores count here.
    expect(compiled.filter((b) => b.equals(simdBytes)).length).toBe(1);
    expect(compiled.filter((b) => b.equals(scalarBytes)).length).toBe(1);
    expect(compiled.findIndex((b) => b.equals(simdBytes))).toBeLessThan(compiled.findIndex((b) => b.equals(scalarBytes)));
    expect(answers).toEqual(Array(4).fill([2, 1, single.BodyFlag.Stopped]));
  });

  it("refuses backend js, naming the browser entry", async () => {
    await expect(single.createWorld({ backend: "js" })).rejects.toMatchObject({ name: "HitcoreError", code: "INVALID_OPTION" });
    await expect(single.createWorld({ backend: "js" })).rejects.toThrow(/dist\/bindings\/browser\.js/);
  });
});
