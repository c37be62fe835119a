// `npm test`: the library's tests over the compiled core (`npm test` builds it first). The
// benchmark harness's own tests (tests/bench/) run with `npm run test:bench` (vitest.bench.config.ts).
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/bench/**", "**/node_modules/**"],
    // Bundles the demo once for every browser suite.
    globalSetup: ["tests/global_setup.ts"],
    pool: "forks",
    // At least two test files at a time, where vitest would run one on two cores: the browser
    // suites mostly wait for Chromium's frames, and another file computes meanwhile.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The allocation test collects garbage on demand to measure what a frame leaves behind.
    execArgv: ["--expose-gc"],
    testTimeout: 60000,
    hookTimeout: 120000,
    // What the browser suites log (HUD text, probes) shows only for a test that failed.
    silent: "passed-only",
  },
});
