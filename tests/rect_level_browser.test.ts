// End-to-end check of the rectangle-level demo (demo/rects.html) in headless Chromium on both
// backends: the level loads, the player runs when a key is held, the culling query draws only
// part of the level, and the fast ball never leaves its box of thin paddles.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RectsProbe } from "../demo/rects.js";
import {
  artifacts, browserSuites, missingChromium, PAGE_BACKENDS, requireDemoBundle, watchedPage,
} from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`rect_level_browser.test.ts: skipped. ${missingChromium}`);

describe.skipIf(!browserSuites)("rectangle-level demo in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  for (const [label, backend] of PAGE_BACKENDS) {
    it(`runs the level, the player and the ball on ${label}`, async () => {
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${origin}/rects.html?backend=${backend}`);
      await page.waitForFunction(() => (window.__hitcoreRects?.frames ?? 0) > 0 || (window.__hitcoreRects?.errors.length ?? 0) > 0,
        undefined, { timeout: 30_000 });
      await page.waitForTimeout(800);
      const read = async () => page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreRects)) as RectsProbe);
      const before = await read();
      await page.keyboard.down("ArrowRight");
      await page.waitForTimeout(1500);
      await page.keyboard.up("ArrowRight");
      await page.keyboard.press("Space");
      await page.waitForTimeout(500);
      const probe = await read();
      const hud = (await page.locator("#hud").textContent()) ?? "";
      console.log(`rects demo ${label}\n${hud}\n__hitcoreRects = ${JSON.stringify(probe)}`);
      if (label === "wasm-scalar") {
        await mkdir(artifacts, { recursive: true });
        await page.screenshot({ path: join(artifacts, "rects.png") });
      }
      await page.close();

      expect(problems).toEqual([]);
      expect(probe.errors).toEqual([]);
      expect(probe.ready).toBe(true);
      expect(probe.backend).toBe(backend);
      expect(probe.frames).toBeGreaterThan(20);
      expect(probe.playerX).toBeGreaterThan(before.playerX + 20); // the held key ran the character right
      expect(probe.visibleInstances).toBeGreaterThan(0);
      expect(probe.visibleInstances).toBeLessThan(probe.totalInstances); // culling drew part of the level
      expect(probe.cullInstanceTests).toBeLessThan(probe.totalInstances);
      expect(probe.ballBounces).toBeGreaterThan(5);
      expect(probe.ballEscapes).toBe(0);
      expect(Number.isFinite(probe.collisionMs)).toBe(true);
      expect(hud).toContain("culling");
      expect(hud).toContain("collision");
    }, 120_000);
  }
});
