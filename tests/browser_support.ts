// What every browser suite shares: Chromium from Debian (or $CHROMIUM_PATH), a static server with
// the demo's cross-origin isolation headers, and the demo bundle that tests/global_setup.ts builds
// once per run (suites run in parallel forks and must not each rebuild demo-dist/).
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));
export const demoOut = join(repoRoot, "demo-dist");
export const artifacts = join(repoRoot, "tests", "artifacts");
export const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const haveChromium = existsSync(executablePath);
export const inCI = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";
export const missingChromium = `Chromium not found at ${executablePath}; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`;
/**
 * The cores the demo pages run, by test label and the page's `?backend=`: every page but the
 * bullet-hell one loads dist/hitcore.wasm, the scalar core, for `wasm`.
 */
export const PAGE_BACKENDS = [["wasm-scalar", "wasm"], ["js", "js"]] as const;
/** Browser suites run when there is a Chromium, and must run (and fail without one) under CI. */
export const browserSuites = haveChromium || inCI;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Serves `root` read-only on 127.0.0.1 at an ephemeral port. */
export async function serveStatic(root: string): Promise<{ server: Server; origin: string }> {
  root = resolve(root); // no trailing separator
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://local").pathname);
      let file = resolve(root, `.${path}`);
      if (file !== root && !file.startsWith(root + sep)) throw new Error("outside the root");
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
        // As demo/vite.config.ts: cross-origin isolation for finer performance.now() in the HUD.
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-embedder-policy": "require-corp",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Headless Chromium with the flags this closed network needs (no background connections), and
 * V8's gc() exposed: the peers page collects the last library's garbage before timing the next.
 */
export function launchChromium(): Promise<Browser> {
  if (!haveChromium) throw new Error(missingChromium);
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run", "--js-flags=--expose-gc"],
  });
}

export async function shutDown(browser: Browser | undefined, server: Server | undefined): Promise<void> {
  await browser?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
}

/** A page that records console errors and uncaught exceptions into `problems`. */
export async function watchedPage(browser: Browser, viewport = { width: 1000, height: 760 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  return { page, problems };
}

/** The demo bundle built by tests/global_setup.ts; throws with the reason when it is missing. */
export function requireDemoBundle(): string {
  if (!existsSync(join(demoOut, "index.html"))) throw new Error("demo-dist/ is missing: tests/global_setup.ts builds it when Chromium is present or CI is set.");
  return demoOut;
}
