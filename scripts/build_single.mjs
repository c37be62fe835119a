// npm run build:single: dist/hitcore.single.js, the facade and both cores in one ES module for
// pages without a bundler (bindings/single.ts says how it loads). Runs after the cores and the
// facade are built. Writes dist/hitcore-cores.js (each core gzipped, as base64 text: the single
// file's import #inlined-cores), then bundles dist/bindings/single.js with everything it imports.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { bundle, repoRoot } from "./bundle.mjs";

const dist = join(repoRoot, "dist");
const inlined = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).toString("base64");
writeFileSync(join(dist, "hitcore-cores.js"), `// Written by npm run build:single: each core's gzip stream as base64.
export const simd = "${inlined("hitcore-simd.wasm")}";
export const scalar = "${inlined("hitcore.wasm")}";
`);

// The js backend (dist/hitcore.js, 95 KB minified) stays out of the single file: asking for it
// there says where it is.
const NO_JS_CORE = "\0hitcore:no-js-core";
const noJsBackend = {
  name: "hitcore:no-js-backend",
  enforce: "pre",
  resolveId: (id) => (id === "#js-core" ? NO_JS_CORE : null),
  load: (id) => id !== NO_JS_CORE ? null : `import { HitcoreError } from ${JSON.stringify(join(dist, "bindings", "validate.js"))};
export function createCore() {
  throw new HitcoreError("INVALID_OPTION", 'hitcore.single.js holds the wasm cores only: for backend "js", import the package\\'s browser entry (dist/bindings/browser.js, which loads dist/hitcore.js), or leave backend out.');
}
`,
};

const { code } = await bundle(join(dist, "bindings", "single.js"), { plugins: [noJsBackend], oneFile: true });
writeFileSync(join(dist, "hitcore.single.js"), code);
