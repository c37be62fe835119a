// End-to-end check of the bullet-hell demo in a real browser: bundle demo/ with Vite, serve the
// bundle over HTTP (the wasm core must stream-compile from an application/wasm response), run it
// in headless Chromium on both backends and read what the page publishes on window.__hitcore.
//
// Needs a Chromium binary: $CHROMIUM_PATH or Debian's /usr/bin/chromium. Without one the suite is
// skipped locally but fails under CI, so a CI image that lost its browser cannot pass silently.
import { existsSync } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoProbe } from "../demo/probe.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(repoRoot, "demo-dist");
const artifacts = join(repoRoot, "tests", "artifacts");
const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const haveChromium = existsSync(executablePath);
const inCI = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";
const missingChromium = `Chromium not found at ${executablePath}; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`;

if (!haveChromium && !inCI) console.warn(`browser.test.ts: skipped. ${missingChromium}`);

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
async function serveStatic(root: string): Promise<{ server: Server; origin: string }> {
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

/** Headless Chromium with the flags this closed network needs (no background connections). */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run"],
  });
}

async function shutDown(browser: Browser | undefined, server: Server | undefined): Promise<void> {
  await browser?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
}

interface Run {
  page: Page;
  probe: DemoProbe;
  hud: string;
  /** Console errors and uncaught page errors, in order. */
  problems: string[];
}

describe.skipIf(!haveChromium && !inCI)("bullet-hell demo in Chromium", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = "";

  beforeAll(async () => {
    if (!haveChromium) throw new Error(missingChromium);
    // The demo imports the core that `npm run build` writes; this test does not rebuild it.
    if (!existsSync(join(repoRoot, "dist", "hitcore.wasm"))) throw new Error("dist/hitcore.wasm is missing; run `npm run build` first.");
    await build({ configFile: join(repoRoot, "demo", "vite.config.ts"), logLevel: "warn", mode: "production" });
    ({ server, origin } = await serveStatic(outDir));
    browser = await launchChromium();
  }, 120_000);

  afterAll(() => shutDown(browser, server));

  /** Opens the demo with `query`, lets it run for `ms` after its first frame, and reads the probe. */
  async function runDemo(query: string, ms: number): Promise<Run> {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 760 } });
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
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

  it("runs 20k bullets on the wasm core", async () => {
    const { page, probe, hud, problems } = await runDemo("?bullets=20000&backend=wasm", 4000);
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, "bullet-hell.png") });
    await page.close();

    expect(problems).toEqual([]);
    expect(probe.errors).toEqual([]);
    expect(probe.ready).toBe(true);
    expect(probe.backend).toBe("wasm");
    expect(probe.bullets).toBeGreaterThanOrEqual(20000);
    // Headless Chromium without a GPU is slow; this only proves the loop keeps running.
    expect(probe.frames).toBeGreaterThan(20);
    expect(probe.hitsTotal).toBeGreaterThan(0);
    expect(Number.isFinite(probe.collisionMs)).toBe(true);
    expect(probe.collisionMs).toBeGreaterThan(0);
    expect(hud).toContain("collision");
    expect(hud).toContain("hits");
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

// The published browser entry with no bundler at all: dist/browser.js straight from a static
// server (no import map: it has no dependencies), the core streamed from next to it, and the
// same entry inside a module worker.
describe.skipIf(!haveChromium && !inCI)("the browser entry, unbundled, on a page and in a worker", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = "";

  beforeAll(async () => {
    if (!haveChromium) throw new Error(missingChromium);
    if (!existsSync(join(repoRoot, "dist", "browser.js"))) throw new Error("dist/browser.js is missing; run `npm run build` first.");
    ({ server, origin } = await serveStatic(resolve(repoRoot))); // resolve(): no trailing separator
    browser = await launchChromium();
  }, 120_000);

  afterAll(() => shutDown(browser, server));

  it("stream-compiles the packaged core and answers on the page and in a worker", async () => {
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
    await page.goto(`${origin}/tests/fixtures/embed.html`);
    await page.waitForFunction(() => (window as { __embed?: { ready: boolean } }).__embed?.ready === true, undefined, { timeout: 30_000 });
    const report = await page.evaluate(() => (window as unknown as { __embed: Record<string, unknown> }).__embed);
    await page.close();
    expect(report.error).toBe("");
    expect(problems).toEqual([]);
    expect(report.main).toBe(1);
    expect(report.streamed).toBe(1);
    expect(report.worker).toBe(3);
  }, 60_000);
});
