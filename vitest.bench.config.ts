// `npm run test:bench`: the benchmark harness's own tests (tests/bench/: the peers adapters and
// runner, the interleaved core runs, the peers page in Chromium), one file at a time so that the
// browser suite's timings share the machine with no other test. `npm run bench:peers-browser`
// runs the browser suite through this config too, to write bench/results/peers-browser.*.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// npm test's options, without its projects (the grid's and the library's tests).
const { projects: _, ...shared } = base.test!;

export default defineConfig({
  test: {
    ...shared,
    include: ["tests/bench/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    // Bundles the demo for the peers page.
    globalSetup: ["tests/global_setup.ts"],
    fileParallelism: false,
    // check2d's ESM build has no "type": "module"; Node 20.19 detects its syntax and loads it as it
    // does for `npm run bench:peers`, where Vite's transform would look for a source map it lacks.
    server: { deps: { external: [/node_modules\/check2d\//] } },
  },
});
