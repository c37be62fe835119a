// The two packaged cores: hitcore-simd.wasm must hold real SIMD code (a "SIMD build" without v128
// instructions would be no faster, as rapier's once was), both must stay small, and the node entry
// must load the SIMD one exactly when the engine validates SIMD and the caller did not opt out.
// That both give identical answers is every differential test's business (BACKENDS in support.ts).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";

const scalarBytes = await readFile(new URL("../dist/hitcore.wasm", import.meta.url));
const simdBytes = await readFile(new URL("../dist/hitcore-simd.wasm", import.meta.url));

/** Per function of the code section, how many of its locals are v128 (type 0x7b). */
function v128Locals(bytes: Uint8Array): number[] {
  let p = 8;
  const leb = (): number => {
    let v = 0, shift = 0, b = 0;
    do { b = bytes[p++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    return v;
  };
  while (p < bytes.length) {
    const id = bytes[p++], size = leb(), end = p + size;
    if (id !== 10) { p = end; continue; }
    const out: number[] = [];
    for (let f = leb(); f > 0; f--) {
      const bodyEnd = leb() + p;
      let v128 = 0;
      for (let groups = leb(); groups > 0; groups--) {
        const n = leb();
        if (bytes[p++] === 0x7b) v128 += n;
      }
      out.push(v128);
      p = bodyEnd;
    }
    return out;
  }
  throw new Error("no code section");
}

describe("the packaged cores", () => {
  it("hitcore-simd.wasm computes in v128 in the grid's passes; hitcore.wasm has no v128 at all", () => {
    const simd = v128Locals(simdBytes), scalar = v128Locals(scalarBytes);
    expect(scalar.length).toBeGreaterThan(20);
    expect(scalar.every((n) => n === 0)).toBe(true);
    // select, home and scatter passes, and the cross-pairs count, each keep vectors in locals.
    expect(simd.filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);
    expect(simd.reduce((a, b) => a + b, 0)).toBeGreaterThan(30);
  });

  // Every part in one core: the level grid, the moves across parts, the controllers against every
  // part and their contacts. 40 KB gzipped is the budget of a page that uses every part.
  it("both stay under 40 KB gzipped", () => {
    for (const bytes of [scalarBytes, simdBytes]) expect(gzipSync(bytes, { level: 9 }).length).toBeLessThan(40 * 1024);
  });
});

describe("the node entry's choice of core", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Which packaged file a fresh copy of dist/node.js compiles for createWorld(options). */
  async function coreLoadedFor(options: { simd?: boolean; wasm?: Uint8Array }): Promise<string> {
    vi.resetModules(); // fresh module state: no core compiled yet, SIMD not yet probed
    const compile = vi.spyOn(WebAssembly, "compile");
    compile.mockClear();
    const { createWorld } = await import("../dist/bindings/node.js");
    const w = await createWorld({ capacity: 4, ...options });
    w.addCircle(0, 0, 2);
    w.addCircle(3, 0, 2);
    expect(w.selfPairs()).toBe(1);
    const bytes = compile.mock.calls.map(([b]) => Buffer.from(b as Uint8Array));
    expect(bytes.length).toBe(1);
    if (bytes[0].equals(simdBytes)) return "hitcore-simd.wasm";
    if (bytes[0].equals(scalarBytes)) return "hitcore.wasm";
    return "other";
  }

  it("loads hitcore-simd.wasm when the engine validates SIMD", async () => {
    const validate = vi.spyOn(WebAssembly, "validate");
    expect(await coreLoadedFor({})).toBe("hitcore-simd.wasm");
    expect(validate).toHaveBeenCalledTimes(1); // the probe module
  });

  it("loads hitcore.wasm when SIMD does not validate, or with simd: false", async () => {
    vi.spyOn(WebAssembly, "validate").mockReturnValue(false);
    expect(await coreLoadedFor({})).toBe("hitcore.wasm");
    vi.restoreAllMocks();
    expect(await coreLoadedFor({ simd: false })).toBe("hitcore.wasm");
  });

  it("compiles the caller's core, whatever the engine supports", async () => {
    expect(await coreLoadedFor({ wasm: scalarBytes })).toBe("hitcore.wasm");
    expect(await coreLoadedFor({ wasm: simdBytes, simd: false })).toBe("hitcore-simd.wasm");
  });

  it("compiles a core file once however many worlds it makes, and reads a file that failed again", async () => {
    vi.resetModules();
    const dir = await mkdtemp(join(tmpdir(), "hitcore-"));
    const file = pathToFileURL(join(dir, "core.wasm"));
    const { createWorld } = await import("../dist/bindings/node.js");
    await expect(createWorld({ wasm: file })).rejects.toThrow(/could not read the core from .*core\.wasm \(ENOENT\)\. Pass options\.wasm/);
    await writeFile(file, simdBytes);
    const compile = vi.spyOn(WebAssembly, "compile");
    const worlds = [await createWorld({ wasm: file, capacity: 4 }), await createWorld({ wasm: file.href, capacity: 4 })];
    expect(compile).toHaveBeenCalledTimes(1);
    for (const w of worlds) {
      w.addCircle(0, 0, 2);
      w.addCircle(3, 0, 2);
      expect(w.selfPairs()).toBe(1);
    }
    await rm(dir, { recursive: true });
  });

  it("rejects a simd option that is not a boolean, naming it", async () => {
    const { createWorld } = await import("../dist/bindings/node.js");
    await expect(createWorld({ simd: "no" as never })).rejects.toThrow(/simd must be true or false, got string no/);
    await expect(createWorld({ simd: 0 as never })).rejects.toThrow(/simd must be true or false/);
  });
});
