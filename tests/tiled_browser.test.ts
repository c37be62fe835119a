// The Tiled demo page (demo/tiled.html) in headless Chromium: both fixture maps loaded by
// loadTiledMap in the browser (TMX through DOMParser, the external tileset and templates through
// an async resolver, zlib and gzip layers through DecompressionStream), their objects in a
// Platforms store with a rain of balls on them, on both backends, without a console error.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { TiledProbe } from "../demo/tiled.js";
import { artifacts, browserSuites, missingChromium, requireDemoBundle, watchedPage } from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`tiled_browser.test.ts: skipped. ${missingChromium}`);

describe.skipIf(!browserSuites)("Tiled demo in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  it.each([
    ["tower.tmx", "wasm", { cols: 20, rows: 12, rects: 2, polygons: 2, surfaces: 1, resolved: ["tiles.tsx", "block.tx"] }],
    ["arena.tmj", "wasm", { cols: 24, rows: 14, rects: 3, polygons: 2, surfaces: 0, resolved: ["tiles.tsj", "block.tj"] }],
    ["arena.tmj", "js", { cols: 24, rows: 14, rects: 3, polygons: 2, surfaces: 0, resolved: ["tiles.tsj", "block.tj"] }],
  ] as const)("loads %s and rains balls on it (%s)", async (map, backend, want) => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/tiled.html?map=${map}&backend=${backend}`);
    await page.waitForFunction(() => (window.__hitcoreTiled?.frames ?? 0) > 30 || (window.__hitcoreTiled?.errors.length ?? 0) > 0, undefined, { timeout: 30_000 });
    const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreTiled)) as TiledProbe);
    const hud = (await page.locator("#hud").textContent()) ?? "";
    console.log(`tiled ${map} ${backend}\n${hud}`);
    if (backend === "wasm") {
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, `tiled-${map.replace(".", "-")}.png`) });
    }
    await page.close();
    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.xml).toBe("dom");
    expect(probe).toMatchObject({ map, backend, cols: want.cols, rows: want.rows, rects: want.rects, polygons: want.polygons, surfaces: want.surfaces });
    expect(probe.resolved).toEqual(want.resolved);
    expect(probe.cellsSet).toBeGreaterThan(30);
    expect(probe.monsters).toBe(2);
    expect(probe.parts).toBeGreaterThanOrEqual(want.rects + want.polygons);
    expect(probe.balls).toBe(400);
    expect(probe.contacts).toBeGreaterThan(0);
    expect(Number.isFinite(probe.collisionMs)).toBe(true);
  }, 120_000);
});
