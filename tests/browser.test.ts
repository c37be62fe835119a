// End-to-end check of the bullet-hell demo in a real browser: the demo bundle (built once by
// tests/global_setup.ts) served over HTTP (the wasm core must stream-compile from an
// application/wasm response), run in headless Chromium on both backends, read through what the
// page publishes on window.__hitcore.
//
// Needs a Chromium binary: $CHROMIUM_PATH or Debian's /usr/bin/chromium. Without one the suite is
// skipped locally but fails under CI, so a CI image that lost its browser cannot pass silently.
import { existsSync, readdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { DemoProbe } from "../demo/probe.js";
import {
  artifacts, browserSuites, missingChromium, repoRoot, requireDemoBundle, watchedPage,
} from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";

if (!browserSuites) console.warn(`browser.test.ts: skipped. ${missingChromium}`);

interface Run {
  page: Page;
  probe: DemoProbe;
  hud: string;
  /** Console errors and uncaught page errors, in order. */
  problems: string[];
}

describe.skipIf(!browserSuites)("bullet-hell demo in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  /** Opens the demo with `query`, lets it run for `ms` after its first frame, and reads the probe. */
  async function runDemo(query: string, ms: number): Promise<Run> {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/${query}`);
    // A failed start never becomes ready: fail with what the page said rather than a bare timeout.
    await page.waitForFunction(() => (window.__hitcore?.frames ?? 0) > 0 || (window.__hitcore?.errors.length ?? 0) > 0,
      undefined, { timeout: 30_000 });
    await page.waitForTimeout(ms);
    const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcore)) as DemoProbe);
    const hud = (await page.locator("#hud").textContent()) ?? "";
    console.log(`demo ${query}\n${hud}\n__hitcore = ${JSON.stringify(probe)}`);
    return { page, probe, hud, problems };
  }

  it("runs 20k bullets on the wasm core (the SIMD build)", async () => {
    const { page, probe, hud, problems } = await runDemo("?bullets=20000&backend=wasm", 4000);
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, "bullet-hell.png") });
    await page.close();

    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.ready).toBe(true);
    expect(probe.backend).toBe("wasm");
    expect(probe.core).toBe("hitcore-simd.wasm");
    expect(probe.bullets).toBeGreaterThanOrEqual(20000);
    // Headless Chromium without a GPU is slow; this only proves the loop keeps running.
    expect(probe.frames).toBeGreaterThan(20);
    expect(probe.hitsTotal).toBeGreaterThan(0);
    expect(Number.isFinite(probe.collisionMs)).toBe(true);
    expect(probe.collisionMs).toBeGreaterThan(0);
    expect(hud).toContain("collision");
    expect(hud).toContain("hits");
  }, 120_000);

  it("links every demo page to every other one, naming itself", async () => {
    const files = readdirSync(join(repoRoot, "demo")).filter((f) => f.endsWith(".html")).sort();
    for (const file of files) {
      const { page } = await watchedPage(browser!);
      await page.goto(`${origin}/${file}`, { waitUntil: "domcontentloaded" });
      await page.waitForFunction(() => (document.querySelector("nav.pages")?.childElementCount ?? 0) > 0, undefined, { timeout: 30_000 });
      const items = await page.$$eval("nav.pages > *", (els) => els.map((el) => [el.tagName, el.getAttribute("href") ?? ""]));
      await page.close();
      expect(items.filter(([tag]) => tag === "B"), file).toHaveLength(1);
      const links = items.filter(([tag]) => tag === "A").map(([, href]) => href.replace("./", "")).sort();
      expect(links, file).toEqual(files.filter((f) => f !== file));
    }
  }, 120_000);

  it("runs 20k bullets on the js baseline", async () => {
    const { page, probe, hud, problems } = await runDemo("?bullets=20000&backend=js", 2000);
    await page.close();

    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.ready).toBe(true);
    expect(probe.backend).toBe("js");
    expect(probe.bullets).toBeGreaterThanOrEqual(20000);
    expect(probe.frames).toBeGreaterThan(10);
    expect(probe.hitsTotal).toBeGreaterThan(0);
    expect(probe.collisionMs).toBeGreaterThan(0);
    expect(hud).toContain("collision");
  }, 120_000);
});

// "Run in worker": the same game stepped in a module worker through WorldWorker, its frames shared
// (the test server isolates the page cross-origin) or transferred (?shared=0). The main thread's
// ms per frame are reported both ways, not asserted: wall-clock figures on a shared machine.
describe.skipIf(!browserSuites)("bullet-hell demo with the game in a worker", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  it("runs, with hits and positions advancing, shared and transferred, and reports the main thread's ms per frame", async () => {
    const figures: string[] = [];
    for (const [query, mode] of [["", "page"], ["&worker=1", "worker-shared"], ["&worker=1&shared=0", "worker-transfer"]] as const) {
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${origin}/?bullets=50000&backend=wasm${query}`);
      await page.waitForFunction(() => (window.__hitcore?.steps ?? 0) > 0 || (window.__hitcore?.errors.length ?? 0) > 0, undefined, { timeout: 30_000 });
      const first = await page.evaluate(() => ({ ...window.__hitcore! }));
      await page.waitForTimeout(3000);
      const probe = await page.evaluate(() => ({ ...window.__hitcore! }));
      const hud = (await page.locator("#hud").textContent()) ?? "";
      await page.close();
      figures.push(`${mode}: main thread ${probe.mainMs.toFixed(2)} ms/frame (drawing ${probe.renderMs.toFixed(2)}; medians of the last second), ${probe.fps.toFixed(1)} fps, firstHits ${probe.collisionMs.toFixed(2)} ms, ${probe.steps} steps in ${probe.frames} frames`);
      expect(problems).toEqual([]);
      expect(probe.errors).toEqual([]);
      expect(probe.mode).toBe(mode);
      expect(probe.steps).toBeGreaterThan(first.steps + 10);
      expect(probe.hitsTotal).toBeGreaterThan(first.hitsTotal);
      expect(probe.mainMs).toBeGreaterThan(0);
      expect(hud).toContain("main ");
    }
    // Straight to stderr: the run's output shows it even when the test passes (console output does not).
    process.stderr.write(`browser.test.ts: main-thread ms per frame, 50,000 bullets, headless Chromium:\n  ${figures.join("\n  ")}\n`);
  }, 120_000);

  it("gives the same hits, touches and positions in a worker (shared and transferred) as on the page, for a scripted run", async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/?bullets=1000&backend=wasm`);
    await page.waitForFunction(() => window.__bulletScript !== undefined && (window.__hitcore?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
    const runs = await page.evaluate(async () => {
      const run = window.__bulletScript!;
      return [await run("page", 240, 5000), await run("worker", 240, 5000), await run("worker", 240, 5000, false), await run("worker", 1, 5000)];
    });
    await page.close();
    console.log(JSON.stringify(runs));
    expect(problems).toEqual([]);
    const [onPage, shared, transferred, oneStep] = runs;
    expect([onPage.mode, shared.mode, transferred.mode]).toEqual(["page", "worker-shared", "worker-transfer"]);
    expect(onPage.count).toBe(5000 + 64 + 1); // bullets, enemies, the ship
    expect(onPage.hits).toBeGreaterThan(0);
    expect(onPage.touches).toBeGreaterThan(0);
    for (const run of [shared, transferred]) {
      expect({ ...run, mode: "" }).toEqual({ ...onPage, mode: "" });
    }
    // The positions move: one step leaves them elsewhere than 240 do.
    expect(oneStep.count).toBe(onPage.count);
    expect(oneStep.hash).not.toBe(onPage.hash);
  }, 120_000);
});

// The published browser entry with no bundler at all: dist/bindings/browser.js straight from a static
// server (no import map: it has no dependencies), the core streamed from next to it, and the
// same entry inside a module worker.
describe.skipIf(!browserSuites)("the browser entry, unbundled, on a page and in a worker", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(() => {
    if (!existsSync(join(repoRoot, "dist", "bindings", "browser.js"))) throw new Error("dist/bindings/browser.js is missing; run `npm run build` first.");
    return repoRoot;
  }, (b, o) => { browser = b; origin = o; });

  it("stream-compiles the packaged core (SIMD where it validates) and answers on the page and in a worker", async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/fixtures/embed.html`);
    await page.waitForFunction(() => (window as { __embed?: { ready: boolean } }).__embed?.ready === true, undefined, { timeout: 30_000 });
    const report = await page.evaluate(() => (window as unknown as { __embed: Record<string, unknown> }).__embed);
    await page.close();
    expect(report.error).toBe("");
    expect(problems).toEqual([]);
    expect(report.main).toBe(1);
    expect(report.scalar).toBe(1);
    // Chromium has wasm SIMD: the entry picks hitcore-simd.wasm, and simd: false the scalar core.
    expect(report.simd).toBe(true);
    expect(report.cores).toEqual(["hitcore-simd.wasm", "hitcore.wasm"]);
    expect(report.streamed).toBe(2);
    expect(report.worker).toBe(3);
  }, 60_000);

  it("loads dist/hitcore.single.js alone from a plain page, both cores inlined, and runs queries", async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/fixtures/single.html`);
    await page.waitForFunction(() => (window as { __single?: { ready: boolean } }).__single?.ready === true, undefined, { timeout: 30_000 });
    const report = await page.evaluate(() => (window as unknown as { __single: Record<string, unknown> }).__single);
    await page.close();
    expect(report.error).toBe("");
    expect(problems).toEqual([]);
    expect(report.simd).toBe(true);
    // The SIMD core, then the scalar one (simd: false): the same answers.
    expect(report.pairs).toEqual([2, 2]); // the two circles; the rect and the circle inside it
    expect(report.hits).toEqual([1, 1]);
    expect(report.stopped).toEqual([true, true]);
    // Nothing fetched but the file itself: no .wasm, no other module.
    expect(report.requests).toEqual(["/dist/hitcore.single.js"]);
  }, 60_000);

  it("names a missing core (CORE_NOT_FOUND) and an HTML page where the core should be (CORE_NOT_WASM)", async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/fixtures/embed.html`);
    // A string, not a function: vitest would rewrite a function's import() for Node.
    const errors = await page.evaluate(`(async () => {
      const { createWorld } = await import("/dist/bindings/browser.js");
      const out = [];
      for (const wasm of ["/dist/nowhere.wasm", "/fixtures/embed.html"]) {
        try {
          await createWorld({ wasm });
          out.push({ code: "", name: "", message: "resolved" });
        } catch (e) {
          out.push({ code: e.code, name: e.name, message: e.message });
        }
      }
      return out;
    })()`) as Array<{ code: string; name: string; message: string }>;
    await page.close();
    expect(errors.map((e) => [e.name, e.code])).toEqual([["HitcoreError", "CORE_NOT_FOUND"], ["HitcoreError", "CORE_NOT_WASM"]]);
    expect(errors[0].message).toContain(`${origin}/dist/nowhere.wasm (HTTP 404`);
    expect(errors[0].message).toContain("options.wasm");
    expect(errors[1].message).toContain('the server sent "text/html; charset=utf-8"');
    expect(errors[1].message).toContain('starting "<!doctype html>');
    expect(errors[1].message).toContain("application/wasm");
    // The page's own 404 for the missing core is the console error expected here, and the only one.
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
  }, 60_000);
});
