// The peers comparison in headless Chromium (demo/peers.html from the demo bundle that
// tests/global_setup.ts builds): a small run (N up to 10k, short timings). It took 226 s alone on a
// shared 2-core machine, so it waits up to ten minutes. Every library that ran must agree with the
// reference; the table and the plot are saved, with the machine and the command, to tests/artifacts/
// (`npm run test:bench`), or to the committed bench/results/peers-browser.md and .svg when
// `npm run bench:peers-browser` runs it.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { machine } from "../../bench/harness.js";
import type { PeersProbe } from "../../demo/peers.js";
import {
  artifacts, browserSuites, missingChromium, repoRoot, requireDemoBundle, watchedPage,
} from "../browser_support.js";
import { serveAndLaunch } from "../browser_suite.js";

if (!browserSuites) console.warn(`peers_browser.test.ts: skipped. ${missingChromium}`);

// vitest.bench.config.ts runs the bench files one at a time, so no other test shares the two cores
// while this one times: 150 ms per library and scene in three rounds.
const QUERY = "?sizes=1000,10000&time=150&rounds=3&budget=120";
const PEERS = ["hitcore wasm", "hitcore wasm-simd", "hitcore js", "rapier2d-simd", "flatbush", "box-intersect", "rbush", "check2d"];

describe.skipIf(!browserSuites)("the peers comparison in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  it("runs every library on every scene, they agree, and the table is saved", async () => {
    const { page, problems } = await watchedPage(browser!);
    // An error before the page publishes anything (a module that fails to load) fails the test at once.
    const crashed = page.waitForEvent("pageerror", { timeout: 0 }).then((err) => { throw new Error(`peers.html failed: ${err.message}`); });
    crashed.catch(() => {}); // handled by the race below; and a page closed later rejects it too
    await page.goto(`${origin}/peers.html${QUERY}`);
    await Promise.race([page.waitForFunction(() => window.__peers?.done === true, undefined, { timeout: 590_000, polling: 500 }), crashed]);
    const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__peers)) as PeersProbe);
    await page.close();

    expect(probe.error).toBe("");
    expect(problems).toEqual([]);
    // npm names the script it runs: only the bench command rewrites the committed results.
    const script = process.env.npm_lifecycle_event;
    const out = script === "bench:peers-browser" ? join(repoRoot, "bench", "results") : artifacts;
    const header = [
      `Saved by ${script === "bench:peers-browser" || script === "test:bench" ? `\`npm run ${script}\`` : "vitest"} (tests/bench/peers_browser.test.ts, headless Chromium) on: ${machine()}`,
      "",
    ].join("\n");
    await mkdir(out, { recursive: true });
    await writeFile(join(out, "peers-browser.md"), `${header}\n${probe.markdown}`);
    await writeFile(join(out, "peers-browser.svg"), probe.svg);
    console.log(probe.log.join("\n"));

    // Every library on every scene and size: timed and agreeing, or skipped over the frame budget.
    const scenes = new Set(probe.results.map((r) => `${r.shape} ${r.mode}`));
    expect(scenes.size).toBe(6);
    for (const name of PEERS) {
      const mine = probe.results.filter((r) => r.peer === name);
      expect(mine.length, name).toBe(12);
      for (const r of mine) {
        expect(["ok", "skipped"], `${name} ${r.shape} ${r.mode} ${r.n}: ${r.status} ${r.note}`).toContain(r.status);
        if (r.status === "ok") {
          expect(r.frames).toBeGreaterThanOrEqual(5);
          expect(r.median).toBeGreaterThan(0);
        }
      }
    }
    // hitcore itself is never skipped at these sizes, and the table names every library.
    for (const r of probe.results.filter((c) => c.hitcore)) expect(r.status).toBe("ok");
    for (const name of PEERS) expect(probe.markdown).toContain(`| ${name} |`);
    expect(probe.svg.startsWith("<svg")).toBe(true);
  }, 600_000);
});
