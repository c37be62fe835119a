// Tests run the compiled core: `npm test` builds it first (dist/hitcore.wasm).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Bundles the demo once for every browser suite.
    globalSetup: ["tests/global_setup.ts"],
    pool: "forks",
    // The allocation test collects garbage on demand to measure what a frame leaves behind.
    execArgv: ["--expose-gc"],
    testTimeout: 60000,
    hookTimeout: 120000,
  },
});
