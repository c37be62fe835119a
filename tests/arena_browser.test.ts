// The arena and the replay pages in Chromium (demo bundle built once by tests/global_setup.ts).
// The arena (demo/arena.html, 20,000 bullets) plays on the wasm SIMD core, the wasm scalar core
// and the js backend: frames advance with no page errors, bullets hit every part of the level and
// stop at enemies, the player runs on the keys, and the automatic save / load round trip keeps the
// hashes. The replay page (demo/replay.html) plays the scripted one-world game for 10,000 frames on
// all three cores in the browser; its hashes must equal the ones this Node process computes.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ArenaProbe } from "../demo/arena.js";
import type { ReplayProbe } from "../demo/replay.js";
import { scriptedGame } from "../fixtures/one_world.js";
import { artifacts, browserSuites, missingChromium, requireDemoBundle, watchedPage } from "./browser_support.js";
import { serveAndLaunch } from "./browser_suite.js";
import { newWorld } from "./support.js";

if (!browserSuites) console.warn(`arena_browser.test.ts: skipped. ${missingChromium}`);

/** The cores, by test label: the page's query and the name it reports. */
const CORES = [
  ["wasm-simd", "?backend=wasm&core=simd"],
  ["wasm-scalar", "?backend=wasm&core=scalar"],
  ["js", "?backend=js"],
] as const;
const BULLETS = 20000;
// As demo/replay.ts (REPLAY_EVERY, REPLAY_CAPACITY): the hashes of the same game played alike.
const REPLAY_FRAMES = 10000;
const REPLAY_EVERY = 1000;
const REPLAY_CAPACITY = 64;

describe.skipIf(!browserSuites)("arena and replay pages in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveAndLaunch(requireDemoBundle, (b, o) => { browser = b; origin = o; });

  const readArena = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreArena)) as ArenaProbe);

  for (const [core, query] of CORES) {
    it(`plays the arena with ${BULLETS.toLocaleString("en-US")} bullets on ${core}`, async () => {
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${origin}/arena.html${query}&bullets=${BULLETS}`);
      // Conditions, not fixed times: the round trip done, hits on every part and on enemies, or an error.
      await page.waitForFunction(() => {
        const p = window.__hitcoreArena;
        if (!p) return false;
        if (p.errors.length > 0) return true;
        const l = p.levelHits;
        return p.ready && p.saveLoadOk !== null && p.frames > 120 && p.hits > 0 && p.enemiesFlashingMax > 0 &&
          l.tiles > 0 && l.rects > 0 && l.surfaces > 0 && l.polyhedra > 0;
      }, undefined, { timeout: 120_000, polling: 100 });
      const played = await readArena(page);

      // The keys take over from the autopilot: run towards the middle, away from the nearer wall.
      const dir = played.playerX > 480 ? -1 : 1, key = dir < 0 ? "ArrowLeft" : "ArrowRight";
      await page.keyboard.down(key);
      await page.waitForFunction(() => window.__hitcoreArena?.autopilot === false, undefined, { timeout: 10_000 });
      const x0 = (await readArena(page)).playerX;
      await page.waitForFunction(([x, d]) => ((window.__hitcoreArena?.playerX ?? x) - x) * d > 30 || (window.__hitcoreArena?.errors.length ?? 0) > 0,
        [x0, dir], { timeout: 60_000, polling: 50 });
      await page.keyboard.up(key);

      // Save and Load through the buttons: the snapshot's size is shown, and loading keeps the page running.
      await page.click("#save");
      await page.waitForFunction(() => (window.__hitcoreArena?.saves ?? 0) > 0, undefined, { timeout: 10_000 });
      const savedAt = (await readArena(page)).savedFrame;
      await page.waitForFunction((f) => (window.__hitcoreArena?.frames ?? 0) > f + 10, savedAt, { timeout: 60_000 });
      await page.click("#load");
      await page.waitForFunction(() => (window.__hitcoreArena?.loads ?? 0) > 0, undefined, { timeout: 10_000 });
      const loaded = await readArena(page);
      // A second more for the HUD's medians (over the last second) to settle.
      await page.waitForFunction((f) => (window.__hitcoreArena?.frames ?? 0) > f + 60, loaded.frames, { timeout: 60_000 });

      const probe = await readArena(page);
      const hud = (await page.locator("#hud").textContent()) ?? "";
      if (core === "wasm-simd") {
        await mkdir(artifacts, { recursive: true });
        await page.screenshot({ path: join(artifacts, "arena.png") });
      }
      await page.close();
      console.log(`arena ${core}\n${hud}\n__hitcoreArena = ${JSON.stringify(probe)}`);

      expect(problems).toEqual([]);
      expect(probe.errors).toEqual([]);
      expect(probe.ready).toBe(true);
      expect(probe.core).toBe(core);
      expect(probe.backend).toBe(core === "js" ? "js" : "wasm");
      expect(probe.bullets).toBe(BULLETS);
      expect(played.frames).toBeGreaterThan(120);
      expect(probe.frames).toBeGreaterThan(played.frames);
      expect(played.saveLoadOk).toBe(true);
      for (const part of ["tiles", "rects", "surfaces", "polyhedra"] as const) expect(played.levelHits[part]).toBeGreaterThan(0);
      expect(played.hits).toBeGreaterThan(0);
      expect(played.enemiesFlashingMax).toBeGreaterThan(0);
      expect((probe.playerX - x0) * dir).toBeGreaterThan(30);
      expect(probe.autopilot).toBe(false);
      expect(probe.snapshotBytes).toBeGreaterThan(BULLETS * 16);
      // The load went back to the saved frame, and the game went on from there.
      expect(savedAt).toBeGreaterThan(0);
      expect(loaded.loadedFrame).toBe(savedAt);
      for (const ms of [probe.moveBulletsMs, probe.moveEnemiesMs, probe.firstHitsMs, probe.stepCharactersMs]) expect(Number.isFinite(ms)).toBe(true);
      for (const call of ["moveBodies", "firstHits", "stepCharacters"]) expect(hud).toContain(call);
      expect(hud).toContain("the hash held");
    }, 240_000);
  }

  it(`replays the scripted one-world game for ${REPLAY_FRAMES.toLocaleString("en-US")} frames on every core with the hashes Node gives`, async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${origin}/replay.html?replay=${REPLAY_FRAMES}`);
    // The same game in this process meanwhile, on the node entry.
    const expected: Record<string, number[]> = {};
    for (const core of ["wasm-simd", "wasm-scalar", "js"] as const) {
      const game = scriptedGame(await newWorld(core, { capacity: REPLAY_CAPACITY }));
      const hashes: number[] = [];
      for (let f = 0; f < REPLAY_FRAMES; f++) {
        game.step(f);
        if ((f + 1) % REPLAY_EVERY === 0) hashes.push(game.hash());
      }
      expected[core] = hashes;
    }
    await page.waitForFunction(() => window.__hitcoreReplay?.done === true, undefined, { timeout: 300_000, polling: 250 });
    const probe = await page.evaluate(() => JSON.parse(JSON.stringify(window.__hitcoreReplay)) as ReplayProbe);
    const text = (await page.locator("#out").textContent()) ?? "";
    await page.close();
    console.log(`replay\n${text}\nnode: ${JSON.stringify(expected)}`);

    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.frames).toBe(REPLAY_FRAMES);
    expect(probe.every).toBe(REPLAY_EVERY);
    expect(expected["wasm-simd"].length).toBe(REPLAY_FRAMES / REPLAY_EVERY);
    expect(new Set(expected["wasm-simd"]).size).toBeGreaterThan(1);
    for (const core of ["wasm-simd", "wasm-scalar", "js"] as const) {
      expect(probe.played[core]).toBe(REPLAY_FRAMES);
      expect(probe.hashes[core]).toEqual(expected[core]);
    }
  }, 420_000);
});
