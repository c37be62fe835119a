// npm run size: the bytes a user ships, raw and gzipped (level 9), for every entry of the package,
// each core, the js backend, and a page that uses every part; writes bench/results/size.md.
// tests/size.test.ts holds the page to its budget with the same measurement.
//
// A JavaScript entry is measured as a page ships it: bundled with everything it imports and
// minified (scripts/bundle.mjs, Vite); the js backend as the chunk the browser entry loads when
// asked for it; the single file and the cores as built. Needs dist/ (`npm run build`).
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { bundle, repoRoot } from "./bundle.mjs";

const dist = join(repoRoot, "dist");

/** Raw and gzipped byte counts of some bytes or text. */
function sized(data) {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** Every row of the table: { key, what, how it is counted, size: { raw, gzip } }. */
export async function measureSizes() {
  const browser = await bundle(join(dist, "bindings", "browser.js"));
  const entry = (file) => bundle(join(dist, "bindings", file)).then((b) => sized(b.code));
  const scalar = readFileSync(join(dist, "hitcore.wasm")), simd = readFileSync(join(dist, "hitcore-simd.wasm"));
  const page = sized((await bundle(join(repoRoot, "scripts", "size_page.mjs"))).code);
  const rows = [
    ["node", "`hitcore` (node entry)", "dist/bindings/node.js and its imports, minified", await entry("node.js")],
    ["browser", "`hitcore` (browser entry)", "dist/bindings/browser.js and its imports, minified", sized(browser.code)],
    ["page-script", "a page's script that uses every part", "scripts/size_page.mjs (a world with every part, stepped each frame) bundled with what it calls, minified", page],
    ["tiled", "`hitcore/tiled`", "dist/bindings/tiled_load.js and its imports (fflate, fzstd, fast-xml-parser), minified", await entry("tiled_load.js")],
    ["worker", "`hitcore/worker`", "dist/bindings/worker.js (serveWorld and the browser entry), minified", await entry("worker.js")],
    ["single", "`hitcore/single`", "dist/hitcore.single.js as built: the browser entry and both cores inlined", sized(readFileSync(join(dist, "hitcore.single.js")))],
    ["core", "hitcore.wasm", "the scalar core", sized(scalar)],
    ["core-simd", "hitcore-simd.wasm", "the SIMD core", sized(simd)],
    ["js", "js backend", "dist/hitcore.js as the browser entry's on-demand chunk, minified", sized(browser.lazy.join(""))],
  ];
  const pageWith = (core) => ({ raw: page.raw + core.length, gzip: page.gzip + sized(core).gzip });
  rows.push(
    ["page-simd", "a page that uses every part, SIMD core", "that script and hitcore-simd.wasm (what Chromium, Firefox and Safari load)", pageWith(simd)],
    ["page", "a page that uses every part, scalar core", "that script and hitcore.wasm", pageWith(scalar)],
  );
  return rows.map(([key, what, how, size]) => ({ key, what, how, size }));
}

const kb = (n) => (n / 1024).toFixed(1);

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await measureSizes();
  const lines = [
    "# hitcore sizes",
    "",
    `Machine: ${cpus()[0]?.model.trim() ?? "unknown"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
    "",
    "Command: `npm run size` (scripts/size.mjs). Bytes as shipped: JavaScript bundled with what it imports and minified by Vite, gzip level 9; a page's figure is its script's and its core's, gzipped apart as a server sends them.",
    "",
    "| what | counted | raw KiB | gzipped KiB |",
    "|---|---|---:|---:|",
    ...rows.map(({ what, how, size }) => `| ${what} | ${how} | ${kb(size.raw)} | ${kb(size.gzip)} |`),
    "",
  ];
  writeFileSync(join(repoRoot, "bench", "results", "size.md"), lines.join("\n"));
  console.log(lines.join("\n"));
}
