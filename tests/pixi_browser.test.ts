// The PixiJS example (examples/pixi) in Chromium: the arena with 8,000 bullets played for a few
// seconds on the engine's WebGL renderer (SwiftShader in headless Chromium), with no page errors,
// hits on enemies counted and drawn, and the drawn canvas checked against hitcore's views.
import type { Browser } from "playwright-core";
import { describe, it } from "vitest";
import { browserSuites, missingChromium } from "./browser_support.js";
import { EXAMPLE_BULLETS, playExample, serveExamples } from "./example_suite.js";

if (!browserSuites) console.warn(`pixi_browser.test.ts: skipped. ${missingChromium}`);

describe.skipIf(!browserSuites)("the PixiJS example in Chromium", () => {
  let browser: Browser | undefined;
  let origin = "";
  serveExamples((b, o) => { browser = b; origin = o; });

  it(`plays the arena with ${EXAMPLE_BULLETS.toLocaleString("en-US")} bullets, hits and drawing checked`, async () => {
    await playExample(browser!, origin, "pixi");
  }, 240_000);
});
