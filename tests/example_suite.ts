// What the engine examples' browser tests share (tests/pixi_browser.test.ts,
// tests/phaser_browser.test.ts): the examples bundled into a temporary folder, served, and one
// example played in Chromium: the autopilot first, then the keys, with the page's own checks of its
// drawn canvas against hitcore's views (examples/shared/arena_page.ts).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, expect } from "vitest";
import { build } from "vite";
import type { ExampleProbe } from "../examples/shared/arena_page.js";
import { serveAndLaunch } from "./browser_suite.js";
import { artifacts, repoRoot, watchedPage } from "./browser_support.js";

export const EXAMPLE_BULLETS = 8000;

/** Bundles the examples (once per suite) into a folder under the OS's temp dir, serves it and launches Chromium. */
export function serveExamples(ready: (browser: Browser, origin: string) => void): void {
  let out = "";
  serveAndLaunch(() => out, ready, async () => {
    out = await mkdtemp(join(tmpdir(), "hitcore-examples-"));
    // The examples import the cores that `npm run build` writes to dist/.
    await build({ configFile: join(repoRoot, "examples", "vite.config.ts"), logLevel: "warn", mode: "production", build: { outDir: out, emptyOutDir: true } });
  });
  afterAll(() => (out ? rm(out, { recursive: true, force: true }) : undefined));
}

const readProbe = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreExample)) as ExampleProbe);

/** Plays an example for a few seconds and checks the hits and the drawing; returns the last probe. */
export async function playExample(browser: Browser, origin: string, engine: "pixi" | "phaser"): Promise<ExampleProbe> {
  const { page, problems } = await watchedPage(browser);
  await page.goto(`${origin}/${engine}/?bullets=${EXAMPLE_BULLETS}`);
  // Conditions, not fixed times: enough frames, hits, and checks of the drawn canvas with a hit enemy on it; or an error.
  const ok = () => {
    const p = window.__hitcoreExample;
    if (!p) return false;
    if (p.errors.length > 0) return true;
    return p.ready && p.frames > 120 && p.hits > 0 && p.checks >= 3 && p.flashingSampled > 0 && p.hitBulletsChecked > 0;
  };
  await page.waitForFunction(ok, undefined, { timeout: 120_000, polling: 100 });
  const first = await readProbe(page);

  // The keys take over from the autopilot: run towards the middle, away from the nearer wall.
  const dir = first.playerX > 480 ? -1 : 1, key = dir < 0 ? "ArrowLeft" : "ArrowRight";
  await page.keyboard.down(key);
  await page.waitForFunction(() => window.__hitcoreExample?.autopilot === false, undefined, { timeout: 10_000 });
  const x0 = (await readProbe(page)).playerX;
  await page.waitForFunction(([x, d]) => ((window.__hitcoreExample?.playerX ?? x) - x) * d > 30 || (window.__hitcoreExample?.errors.length ?? 0) > 0,
    [x0, dir], { timeout: 60_000, polling: 50 });
  await page.keyboard.up(key);
  // Another second of play: the hit counter must go on rising.
  await page.waitForFunction((f) => (window.__hitcoreExample?.frames ?? 0) > f + 60 || (window.__hitcoreExample?.errors.length ?? 0) > 0,
    first.frames + 60, { timeout: 60_000 });

  const probe = await readProbe(page);
  const hud = (await page.locator("#hud").textContent()) ?? "";
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `example-${engine}.png`) });
  await page.close();
  console.log(`${engine}\n${hud}\n__hitcoreExample = ${JSON.stringify(probe)}`);

  expect(problems).toEqual([]);
  expect(probe.errors).toEqual([]);
  expect(probe.ready).toBe(true);
  expect(probe.engine).toBe(engine);
  expect(probe.renderer).toMatch(/^webgl/);
  expect(probe.core).toBe("wasm-simd");
  expect(probe.bullets).toBe(EXAMPLE_BULLETS);
  expect(probe.frames).toBeGreaterThan(first.frames + 60);
  // Bullets ricochet off the level and stop at enemies, and the counter rises while playing.
  expect(first.levelHits).toBeGreaterThan(0);
  expect(first.hits).toBeGreaterThan(0);
  expect(probe.hits).toBeGreaterThan(first.hits);
  expect(probe.enemiesFlashingMax).toBeGreaterThan(0);
  expect(hud).toContain(`enemy hits`);
  // Bullets that hit an enemy are gone from it in the frame drawn.
  expect(probe.hitBulletsChecked).toBeGreaterThan(0);
  expect(probe.hitBulletsGone).toBe(probe.hitBulletsChecked);
  // The drawn canvas matches the views: bullets at their positions, enemies at theirs, hit enemies in the hit colour.
  expect(probe.bulletsSampled).toBeGreaterThan(probe.checks * 100);
  expect(probe.bulletsDrawn / probe.bulletsSampled).toBeGreaterThan(0.95);
  expect(probe.enemiesSampled).toBeGreaterThan(0);
  expect(probe.enemiesDrawn / probe.enemiesSampled).toBeGreaterThan(0.95);
  expect(probe.flashingSampled).toBeGreaterThan(0);
  expect(probe.flashingDrawn / probe.flashingSampled).toBeGreaterThan(0.95);
  expect(probe.paintedPixels).toBeGreaterThan(0.1 * 960 * 600);
  // The keys moved the player.
  expect(probe.autopilot).toBe(false);
  expect((probe.playerX - x0) * dir).toBeGreaterThan(30);
  return probe;
}
