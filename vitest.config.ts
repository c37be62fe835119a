// `npm test`: the library's tests over the compiled core (`npm test` builds it first). The
// benchmark harness's own tests (tests/bench/) run with `npm run test:bench` (vitest.bench.config.ts).
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        test: {
          name: "grid",
          // The grid's tests, one file per concept of assembly/grid/, share a worker's module graph:
          // they keep no state between files, and a fresh fork and facade per file would cost more
          // CPU than half of these files spend in their tests.
          include: ["tests/grid/**/*.test.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "library",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/grid/**", "tests/bench/**", "**/node_modules/**"],
          // Bundles the demo once for every browser suite.
          globalSetup: ["tests/global_setup.ts"],
        },
      },
    ],
  },
});
