// Runs once before all test files: bundles the demo (every page under demo/) into demo-dist/ for
// the browser suites, so parallel suites share one build. Skipped when no browser suite will run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { browserSuites, repoRoot } from "./browser_support.js";

export default async function setup(): Promise<void> {
  if (!browserSuites) return;
  // The demo imports the core that `npm run build` writes; the tests do not rebuild it.
  for (const core of ["hitcore.wasm", "hitcore-simd.wasm"]) {
    if (!existsSync(join(repoRoot, "dist", core))) throw new Error(`dist/${core} is missing; run \`npm run build\` first.`);
  }
  await build({ configFile: join(repoRoot, "demo", "vite.config.ts"), logLevel: "warn", mode: "production" });
}
