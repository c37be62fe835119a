// End-to-end check of the tower demo (demo/tower.html) in headless Chromium on both backends: the
// page from the demo bundle (built once by tests/global_setup.ts), read through what it publishes
// on window.__hitcoreTower. Left alone, the player runs right along the bottom row: it must collect
// coins, cross the wrap seam and keep the frame loop running without a console error.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { TowerProbe } from "../demo/tower.js";
import {
  artifacts, browserSuites, missingChromium, PAGE_BACKENDS, requireDemoBundle, watchedPage,
} from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`tile_map_browser.test.ts: skipped. ${missingChromium}`);

describe.skipIf(!browserSuites)("tower demo in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  const [scalar, js] = PAGE_BACKENDS;
  it.each([[...scalar, ""], [...js, ""], [...scalar, "&view=tower"]])("plays the tower level on %s (?backend=%s%s)", async (label, backend, view) => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/tower.html?backend=${backend}${view}`);
    await page.waitForFunction(() => (window.__hitcoreTower?.frames ?? 0) > 0 || (window.__hitcoreTower?.errors.length ?? 0) > 0,
      undefined, { timeout: 30_000 });
    // Running right at 8 tiles a second, the 20-column tower wraps in under 3 seconds.
    await page.waitForFunction(() => (window.__hitcoreTower?.seams ?? 0) > 0 || (window.__hitcoreTower?.errors.length ?? 0) > 0,
      undefined, { timeout: 30_000 });
    await page.waitForTimeout(500);
    const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreTower)) as TowerProbe);
    const hud = (await page.locator("#hud").textContent()) ?? "";
    console.log(`tower ${label}\n${hud}\n__hitcoreTower = ${JSON.stringify(probe)}`);
    if (label === "wasm-scalar") {
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, view ? "tower-rotating.png" : "tower.png") });
    }
    await page.close();

    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.ready).toBe(true);
    expect(probe.backend).toBe(backend);
    expect(probe.frames).toBeGreaterThan(20);
    expect(probe.seams).toBeGreaterThan(0);
    expect(probe.score).toBeGreaterThan(0); // the bottom row's coins
    expect(probe.score % 50).toBe(0);
    expect(probe.pointsDrawn).toBe(10);
    expect(Number.isFinite(probe.collisionMs)).toBe(true);
    expect(hud).toContain("score");
    expect(hud).toContain("collision");
  }, 120_000);
});
