// Size budgets, measured as `npm run size` measures them (scripts/size.mjs: bundled, minified,
// gzip level 9); sizes are deterministic, so these are exact checks, not timings. Writes nothing.
// Needs dist/ (`npm run build`, which `npm test` runs first).
import { describe, expect, it } from "vitest";
import { measureSizes, type SizeRow } from "../scripts/size.mjs";

const KB = 1024;
const rows = new Map((await measureSizes()).map((r): [SizeRow["key"], SizeRow] => [r.key, r]));
const gzip = (key: SizeRow["key"]) => rows.get(key)!.size.gzip;

describe("sizes", () => {
  it("measure every entry, each core, the js backend and the page", () => {
    expect([...rows.keys()].sort()).toEqual(["browser", "core", "core-simd", "js", "node", "page", "page-script", "page-simd", "single", "tiled", "worker"]);
    for (const { key, size } of rows.values()) {
      expect(size.gzip, key).toBeGreaterThan(1000);
      expect(size.gzip, key).toBeLessThan(size.raw);
    }
    expect(gzip("page-simd")).toBe(gzip("page-script") + gzip("core-simd"));
    // The page's script is tree-shaken: what it does not call (debugDraw, WorldWorker) stays out.
    expect(gzip("page-script")).toBeLessThan(gzip("browser"));
  });

  // A page that uses every part ships its script (scripts/size_page.mjs, bundled with what it
  // calls) and one core. The budget that issue 30 asks for, 40 KB, does not hold: that script is
  // 46.2 KB gzipped (bench/results/size.md): every part's class (a class ships all its methods,
  // called or not), the Tiled and polygon loaders, and the checks, whose string literals are about
  // 11 KB of it; the cores are 32.1 KB (scalar) and 38.1 KB (SIMD). These budgets keep today's
  // sizes from growing unnoticed, 0.1 to 0.9 KB above them. (The last 0.9 KB of the script is the
  // probe grid and world.pairs kept apart from the pair queries' scratch, so that a query refused
  // late changes nothing.)
  it("a page that uses every part stays under 84.5 KB gzipped with the SIMD core, 78.5 KB with the scalar one, its script under 46.5 KB", () => {
    expect(gzip("page-script")).toBeLessThan(46.5 * KB);
    expect(gzip("page-simd")).toBeLessThan(84.5 * KB);
    expect(gzip("page")).toBeLessThan(78.5 * KB);
  });

  // 127 KB: the sweeps' fast paths (castTiles' one-piece loop, the SIMD refusal check) add about
  // 1 KB to each core and 0.5 KB to this file, for a one-world frame 17% faster; moveBodies' stop
  // along the body's path and its moves aimed at f32 positions (no body left inside a shape it
  // started clear of) 0.2 KB to each core and 0.3 KB to this file.
  it("the single file, both cores inside, stays under 127 KB gzipped", () => {
    expect(gzip("single")).toBeLessThan(127 * KB);
    // Both cores travel gzipped inside it: about their gzipped sizes, not their raw ones.
    expect(gzip("single")).toBeLessThan(gzip("browser") + gzip("core") + gzip("core-simd") + 6 * KB);
  });
});
