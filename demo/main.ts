// The bullet-hell demo: BulletHell (fixtures/scenes.ts, shared with the benchmark and the tests) moves
// up to tens of thousands of bullets, one `firstHits` call per frame finds which ones hit an
// enemy, and the HUD reports what that call costs. Changing the bullet count or the backend
// builds a fresh world; everything inside the frame loop reuses preallocated state. "Run in worker"
// moves the world and the game's step (demo/bullet_game.ts) into a module worker
// (demo/bullet_worker.ts) through WorldWorker: the page then only sends the ship's position and
// draws the views each frame brings back, and the HUD shows the main thread's ms per frame both ways.
import wasmUrl from "../dist/hitcore.wasm?url";
import simdWasmUrl from "../dist/hitcore-simd.wasm?url";
import { createWorld, simdSupported, WorldWorker, type Backend, type FrameField } from "../bindings/browser.js";
import { BulletGame, Result, type GameInput, type GameSetup } from "./bullet_game.js";
import { ShipControl } from "./input.js";
import type { DemoProbe, ScriptedRun } from "./probe.js";
import { Renderer, type GridOverlay, type Ship } from "./render.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

const DEFAULT_BULLETS = 20000;
const MAX_BULLETS = 500000;
const ENEMIES = 64;
const MAX_DT = 1 / 20; // a stalled tab must not teleport every bullet off screen on resume
const HUD_INTERVAL_MS = 250; // the HUD text and stats() allocate: refresh them a few times a second
const MAX_ERRORS = 50;

/** The views the renderer reads, carried by every frame from the worker. */
const FIELDS: FrameField[] = ["x", "y", "a", "b", "kinds", "flags"];

/** One running configuration: the game on this page, or in a worker. */
type Sim =
  | { kind: "page"; game: BulletGame; results: Float64Array }
  | { kind: "worker"; host: WorldWorker<(typeof FIELDS)[number]>; bullets: number; enemies: number; seen: number };

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const bulletsInput = element("bullets", HTMLSelectElement);
const backendInput = element("backend", HTMLSelectElement);
const gridInput = element("grid", HTMLInputElement);
const workerInput = element("worker", HTMLInputElement);
const ctx = canvas.getContext("2d", { alpha: false });
if (!ctx) throw new Error("demo: this browser has no 2D canvas context");

const renderer = new Renderer(ctx);
const control = new ShipControl(canvas);
const ship: Ship = { x: 0, y: 0, w: 14, h: 18, hit: false };
const grid: GridOverlay = { visible: false, cols: 0, rows: 0, cellSize: 0 };
const collisionTimes = new SampleWindow();
const renderTimes = new SampleWindow();
const frameTimes = new SampleWindow();
const mainTimes = new SampleWindow();
const input: GameInput = { dt: 0, shipX: 0, shipY: 0, gridStats: false };

const probe: DemoProbe = {
  ready: false, frames: 0, hitsFrame: 0, hitsTotal: 0, collisionMs: NaN, renderMs: NaN, fps: 0,
  bullets: 0, backend: "", core: "", shipHits: 0, errors: [], mode: "", mainMs: NaN, steps: 0,
};
window.__hitcore = probe;

let sim: Sim | null = null;
let generation = 0; // guards against a slow createWorld finishing after a newer one started
let lastFrame = 0;
let nextHud = 0;
let shipTouches = 0; // bullets touching the ship this frame

window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

// ---- configuration: query string first, then the controls ------------------------------------

const params = new URLSearchParams(location.search);
const initialBullets = parseBullets(params.get("bullets"));
const initialBackend: Backend = params.get("backend") === "js" ? "js" : "wasm";
// The select lists the usual counts (index.html); a count from the URL outside them joins the list.
if (![...bulletsInput.options].some((o) => o.value === String(initialBullets))) {
  bulletsInput.add(new Option(initialBullets.toLocaleString("en-US"), String(initialBullets)));
}
bulletsInput.value = String(initialBullets);
backendInput.value = initialBackend;
gridInput.checked = params.get("grid") === "1";
workerInput.checked = params.get("worker") === "1";
// ?shared=0 transfers the frames even on a cross-origin isolated page (to try both ways).
const sharedFrames = params.get("shared") === "0" ? false : undefined;
grid.visible = gridInput.checked;

bulletsInput.addEventListener("change", restartFromControls);
backendInput.addEventListener("change", restartFromControls);
workerInput.addEventListener("change", restartFromControls);
gridInput.addEventListener("change", () => {
  grid.visible = gridInput.checked;
  nextHud = 0; // sample the grid on the next frame rather than in up to 250 ms
  syncQuery();
});

void start(initialBullets, initialBackend);
requestAnimationFrame(frame);

function parseBullets(text: string | null): number {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n >= 1 && n <= MAX_BULLETS ? n : DEFAULT_BULLETS;
}

function restartFromControls(): void {
  syncQuery();
  void start(parseBullets(bulletsInput.value), backendInput.value === "js" ? "js" : "wasm");
}

/** Keeps the address bar in step with the controls, so a reload keeps the configuration. */
function syncQuery(): void {
  const q = new URLSearchParams({ bullets: bulletsInput.value, backend: backendInput.value });
  if (gridInput.checked) q.set("grid", "1");
  if (workerInput.checked) q.set("worker", "1");
  history.replaceState(null, "", `?${q}`);
}

/** Builds a world for the configuration, on the page or in a worker, and swaps it in; the old one is left to the GC (or terminated). */
async function start(bullets: number, backend: Backend): Promise<void> {
  const mine = ++generation;
  const inWorker = workerInput.checked;
  probe.ready = false;
  hud.textContent = `creating a ${backend} world with ${bullets.toLocaleString("en-US")} bullets${inWorker ? " in a worker" : ""}…`;
  // The cores come through Vite's ?url, so the page picks one as the packaged entry would.
  const core = backend === "js" ? "" : simdSupported() ? "hitcore-simd.wasm" : "hitcore.wasm";
  const wasm = core === "hitcore-simd.wasm" ? simdWasmUrl : wasmUrl;
  control.update(ship, 0, renderer.width, renderer.height);
  const setup: GameSetup = { bullets, enemies: ENEMIES, width: renderer.width, height: renderer.height, ship: { x: ship.x, y: ship.y, w: ship.w, h: ship.h } };
  let next: Sim;
  try {
    // Exactly the entities below: no growth (which would replace the views) while loading.
    const world = { backend, capacity: bullets + ENEMIES + 1, wasm };
    if (inWorker) {
      const host = await WorldWorker.start(newGameWorker(), { world, setup, fields: FIELDS, shared: sharedFrames });
      next = { kind: "worker", host, bullets, enemies: ENEMIES, seen: 0 };
    } else {
      next = { kind: "page", game: new BulletGame(await createWorld(world), setup), results: new Float64Array(8) };
    }
  } catch (err) {
    if (mine === generation) stop();
    recordError(err);
    return;
  }
  if (mine !== generation) {
    if (next.kind === "worker") next.host.terminate();
    return;
  }
  stop();
  sim = next;
  for (const w of [collisionTimes, renderTimes, frameTimes, mainTimes]) w.clear();
  const mode = next.kind === "page" ? "page" : next.host.shared ? "worker-shared" : "worker-transfer";
  Object.assign(probe, { ready: true, frames: 0, hitsFrame: 0, hitsTotal: 0, shipHits: 0, steps: 0, bullets, backend, core, mode });
  lastFrame = 0;
  nextHud = 0;
}

function newGameWorker(): Worker {
  return new Worker(new URL("./bullet_worker.ts", import.meta.url), { type: "module" });
}

/** Drops the running configuration, terminating its worker. */
function stop(): void {
  if (sim?.kind === "worker") sim.host.terminate();
  sim = null;
}

// ---- the frame loop -------------------------------------------------------------------------

function frame(now: number): void {
  requestAnimationFrame(frame);
  const s = sim;
  if (s === null) return;
  const started = performance.now();
  const dt = lastFrame === 0 ? 1 / 60 : Math.min((now - lastFrame) / 1000, MAX_DT);
  lastFrame = now;
  try {
    const refreshHud = now >= nextHud;
    control.update(ship, dt, renderer.width, renderer.height);
    input.dt = dt;
    input.shipX = ship.x;
    input.shipY = ship.y;
    input.gridStats = refreshHud && grid.visible;
    let results: Float64Array | null = null;
    let r0 = 0, r1 = 0;
    if (s.kind === "page") {
      s.game.step(input, s.results);
      results = s.results;
      r0 = performance.now();
      renderer.draw(s.game.world, s.game.hell, ship, grid);
      r1 = performance.now();
    } else {
      // The latest frame the worker finished (one step behind the ship); a frame that is still
      // running is not waited for: the same frame is drawn again.
      const f = s.host.frame;
      if (f.step > s.seen) {
        s.seen = f.step;
        results = f.results;
      }
      r0 = performance.now();
      renderer.draw(f.views, s, ship, grid);
      r1 = performance.now();
      s.host.step(input);
    }
    if (results !== null) {
      const hits = results[Result.Hits];
      ship.hit = results[Result.ShipTouches] > 0;
      shipTouches = results[Result.ShipTouches];
      if (results[Result.GridCols] > 0) { // a step asked for the grid's shape (input.gridStats)
        grid.cols = results[Result.GridCols];
        grid.rows = results[Result.GridRows];
        grid.cellSize = results[Result.CellSize];
      }
      collisionTimes.push(now, results[Result.CollisionMs]);
      probe.steps++;
      probe.hitsFrame = hits;
      probe.hitsTotal += hits;
      if (ship.hit) probe.shipHits++;
    }
    renderTimes.push(now, r1 - r0);
    frameTimes.push(now, 0);
    mainTimes.push(now, performance.now() - started);
    probe.frames++;
    probe.collisionMs = collisionTimes.median();
    probe.renderMs = renderTimes.median();
    probe.mainMs = mainTimes.median();
    probe.fps = frameTimes.rate();
    if (refreshHud) {
      nextHud = now + HUD_INTERVAL_MS;
      showHud();
    }
  } catch (err) {
    // A broken frame would throw again 60 times a second: stop this world and say why.
    stop();
    probe.ready = false;
    recordError(err);
  }
}

function showHud(): void {
  const p = probe;
  const lines = [
    `fps        ${p.fps.toFixed(1)}`,
    `collision  ${p.collisionMs.toFixed(2)} ms  firstHits, median 1 s${p.mode === "page" ? "" : ", in the worker"}`,
    `render     ${p.renderMs.toFixed(2)} ms`,
    `main       ${p.mainMs.toFixed(2)} ms a frame on the page's thread (${p.mode === "page" ? "game on the page" : `game in a worker, frames ${p.mode === "worker-shared" ? "shared" : "transferred"}`})`,
    `hits       ${p.hitsFrame} now, ${p.hitsTotal.toLocaleString("en-US")} total`,
    `bullets    ${p.bullets.toLocaleString("en-US")} vs ${ENEMIES} enemies`,
    `backend    ${p.backend}${p.backend === "wasm" ? ` (${p.core})` : " (TS baseline)"}`,
    `ship       ${shipTouches} touching, hit ${p.shipHits.toLocaleString("en-US")} frames`,
  ];
  if (grid.visible) lines.push(`grid       ${grid.cols} x ${grid.rows} cells of ${grid.cellSize.toFixed(0)}`);
  // Without cross-origin isolation timers are coarse (see demo/vite.config.ts): say so.
  if (!crossOriginIsolated) lines.push("timers     coarse (page not cross-origin isolated)");
  hud.textContent = lines.join("\n");
}

// ---- a scripted run, for the browser test: the same answers on the page and in a worker -------

/**
 * `steps` steps of 1/60 s with the ship on a fixed path, on the page or in a worker (frames shared
 * or transferred), in a world of its own beside the running one: the hits, the ship's touches, and
 * an FNV-1a hash of every body's x and y bits after the last step.
 */
async function scriptedRun(where: "page" | "worker", steps: number, bullets: number, shared?: boolean): Promise<ScriptedRun> {
  const setup: GameSetup = { bullets, enemies: ENEMIES, width: renderer.width, height: renderer.height, ship: { x: 400, y: 500, w: 14, h: 18 } };
  const world = { capacity: bullets + ENEMIES + 1, wasm: simdSupported() ? simdWasmUrl : wasmUrl };
  const step: GameInput = { dt: 1 / 60, shipX: 0, shipY: 0, gridStats: false };
  let hits = 0, touches = 0, mode: string = where;
  let x: Float32Array = new Float32Array(0), y: Float32Array = new Float32Array(0);
  const host = where === "worker" ? await WorldWorker.start(newGameWorker(), { world, setup, fields: ["x", "y"], shared }) : null;
  const game = host ? null : new BulletGame(await createWorld(world), setup);
  const results = new Float64Array(8);
  for (let k = 0; k < steps; k++) {
    step.shipX = 100 + ((k * 7) % 700);
    step.shipY = 420 + ((k * 3) % 120);
    if (host) {
      host.step(step);
      const f = await host.next();
      results.set(f.results);
      x = f.views.x;
      y = f.views.y;
    } else {
      game!.step(step, results);
      // A World's views span its capacity (and one slot more); a frame's, the bodies.
      x = game!.world.x.subarray(0, game!.world.count);
      y = game!.world.y.subarray(0, game!.world.count);
    }
    hits += results[Result.Hits];
    touches += results[Result.ShipTouches];
  }
  if (host) mode = host.shared ? "worker-shared" : "worker-transfer";
  let hash = 0x811c9dc5;
  for (const v of [x, y]) for (const word of new Uint32Array(v.slice().buffer)) hash = Math.imul(hash ^ word, 0x01000193) >>> 0;
  host?.terminate();
  return { mode, steps, count: x.length, hits, touches, hash };
}
window.__bulletScript = scriptedRun;

// ---- errors: kept on the probe for the browser test, and on the console for people --------

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

