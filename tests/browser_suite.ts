// The setup every browser suite shares: before its tests, serve a folder (the demo bundle, or the
// repository) and launch Chromium; after them, close both. Kept apart from browser_support.ts,
// which the global setup imports outside any suite.
import type { Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { haveChromium, launchChromium, missingChromium, serveStatic, shutDown } from "./browser_support.js";

/**
 * Registers the suite's beforeAll / afterAll; `prepare` (optional) runs first, for a suite that
 * builds the folder it serves; `ready` receives the browser and the server's origin.
 */
export function serveAndLaunch(root: () => string, ready: (browser: Browser, origin: string) => void, prepare?: () => Promise<void>): void {
  let browser: Browser | undefined;
  let server: Server | undefined;
  beforeAll(async () => {
    if (!haveChromium) throw new Error(missingChromium);
    await prepare?.();
    const served = await serveStatic(root());
    server = served.server;
    browser = await launchChromium();
    ready(browser, served.origin);
  }, 120_000);
  afterAll(() => shutDown(browser, server));
}
