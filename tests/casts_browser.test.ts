// End-to-end check of the casts demo (demo/casts.html) in headless Chromium on both backends: the
// world loads, a fan of box casts per frame (one world.castMany) reaches both the rect level and the
// platforms (the closest hit of any part), no stopping point lies inside a polyhedron, and the HUD
// reports the cast time.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CastsProbe } from "../demo/casts.js";
import {
  artifacts, browserSuites, missingChromium, PAGE_BACKENDS, requireDemoBundle, watchedPage,
} from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`casts_browser.test.ts: skipped. ${missingChromium}`);

describe.skipIf(!browserSuites)("casts demo in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  for (const [label, backend] of PAGE_BACKENDS) {
    it(`casts boxes against rects and platforms on ${label}`, async () => {
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${origin}/casts.html?backend=${backend}`);
      // Conditions, not fixed times: enough frames with hits on each part, or an error.
      await page.waitForFunction(() => {
        const p = window.__hitcoreCasts;
        return (p?.errors.length ?? 0) > 0 || ((p?.frames ?? 0) > 30 && (p?.framesWithRectHits ?? 0) > 10 && (p?.framesWithPlatformHits ?? 0) > 10);
      }, undefined, { timeout: 60_000 });
      const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreCasts)) as CastsProbe);
      const hud = (await page.locator("#hud").textContent()) ?? "";
      console.log(`casts demo ${label}\n${hud}\n__hitcoreCasts = ${JSON.stringify(probe)}`);
      if (label === "wasm-scalar") {
        await mkdir(artifacts, { recursive: true });
        await page.screenshot({ path: join(artifacts, "casts.png") });
      }
      await page.close();

      expect(problems).toEqual([]);
      expect(probe.errors).toEqual([]);
      expect(probe.ready).toBe(true);
      expect(probe.backend).toBe(backend);
      expect(probe.shape).toBe("box");
      expect(probe.framesWithRectHits).toBeGreaterThan(10);
      expect(probe.framesWithPlatformHits).toBeGreaterThan(10);
      expect(probe.endedInside).toBe(0);
      expect(Number.isFinite(probe.collisionMs)).toBe(true);
      expect(hud).toContain("collision");
    }, 120_000);
  }
});
