// The platformer pages in Chromium (demo bundle built once by tests/global_setup.ts): each seed's
// level is played with a scripted arrow-key sequence, and the player's ball must land and stay on
// the ground; rain mode runs thousands of balls with the HUD. Read through window.__platformer.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { PlatformerProbe } from "../demo/platformer.js";
import {
  artifacts, browserSuites, missingChromium, PAGE_BACKENDS, requireDemoBundle, watchedPage,
} from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`platforms_browser.test.ts: skipped. ${missingChromium}`);

// The lowest ground of each level (y down): egLevel's floor at y = 250; egData's ground polygons at y = 540.
const FLOOR = { surfaces: 250, polyhedra: 540 } as const;

describe.skipIf(!browserSuites)("platformer pages in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  async function open(page: string, query: string): Promise<{ page: Page; problems: string[] }> {
    const run = await watchedPage(browser!);
    await run.page.goto(`${origin}/${page}.html${query}`);
    await run.page.waitForFunction(() => (window.__platformer?.frames ?? 0) > 0 || (window.__platformer?.errors.length ?? 0) > 0,
      undefined, { timeout: 30_000 });
    return run;
  }

  const read = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__platformer)) as PlatformerProbe);

  for (const level of ["surfaces", "polyhedra"] as const) {
    for (const [label, backend] of PAGE_BACKENDS) {
      it(`${level} (${label}): a scripted run lands on the ground and stays there`, async () => {
        const { page, problems } = await open(level, `?backend=${backend}&overlay=1`);
        const kb = page.keyboard;
        // Conditions, not fixed waits: a loaded machine runs fewer frames (dt is capped at 1/30 s).
        const settled = () => page.waitForFunction(() => (window.__platformer?.groundFrames ?? 0) > 30, undefined, { timeout: 60_000 });
        await settled(); // fell from the seed's start point and came to rest
        const landed = await read(page);
        await kb.down("ArrowRight");
        await page.waitForTimeout(600);
        await kb.up("ArrowRight");
        await kb.down("ArrowLeft");
        await page.waitForTimeout(1200);
        await kb.up("ArrowLeft");
        await kb.press("ArrowUp"); // jump
        await page.waitForFunction(() => window.__platformer?.onGround === false, undefined, { timeout: 10_000 });
        const jumped = await read(page);
        await settled(); // came back down and stayed
        const probe = await read(page);
        const hud = (await page.locator("#hud").textContent()) ?? "";
        if (label === "wasm-scalar") {
          await mkdir(artifacts, { recursive: true });
          await page.screenshot({ path: join(artifacts, `${level}.png`) });
        }
        await page.close();
        console.log(`${level} ${label}: landed ${JSON.stringify(landed)}\nend ${JSON.stringify(probe)}\n${hud}`);

        expect(problems).toEqual([]);
        expect(probe.errors).toEqual([]);
        expect(probe.ready).toBe(true);
        expect(probe.backend).toBe(backend);
        expect(landed.onGround).toBe(true);
        expect(jumped.onGround).toBe(false); // the jump left the ground
        expect(probe.onGround).toBe(true);
        expect(probe.groundFrames).toBeGreaterThan(10);
        expect(probe.maxY).toBeLessThanOrEqual(FLOOR[level]); // never through the floor
        expect(Math.abs(probe.vy)).toBeLessThan(50);
        expect(hud).toContain("collision");
      }, 120_000);
    }
  }

  it("rain mode drops thousands of balls with the bullet-hell HUD", async () => {
    const { page, problems } = await open("polyhedra", "?backend=wasm&rain=5000");
    await page.waitForFunction(() => (window.__platformer?.frames ?? 0) > 30, undefined, { timeout: 60_000 });
    const probe = await read(page);
    const hud = (await page.locator("#hud").textContent()) ?? "";
    await page.close();
    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.balls).toBe(5001);
    expect(probe.frames).toBeGreaterThan(10);
    expect(probe.contacts).toBeGreaterThan(0);
    expect(probe.collisionMs).toBeGreaterThan(0);
    expect(hud).toContain("fps");
    expect(hud).toContain("collision");
  }, 120_000);
});
