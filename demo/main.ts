// The bullet-hell demo: BulletHell (fixtures/scenes.ts, shared with the benchmark and the tests) moves
// up to tens of thousands of bullets, one `firstHits` call per frame finds which ones hit an
// enemy, and the HUD reports what that call costs. Changing the bullet count or the backend
// builds a fresh world; everything inside the frame loop reuses preallocated state.
import wasmUrl from "../dist/hitcore.wasm?url";
import simdWasmUrl from "../dist/hitcore-simd.wasm?url";
import { BULLET, BulletHell, ENEMY, PLAYER } from "../fixtures/scenes.js";
import { createWorld, simdSupported, type Backend, type World } from "../bindings/browser.js";
import { ShipControl } from "./input.js";
import type { DemoProbe } from "./probe.js";
import { Renderer, type GridOverlay, type Ship } from "./render.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

const DEFAULT_BULLETS = 20000;
const MAX_BULLETS = 500000;
const ENEMIES = 64;
const MAX_DT = 1 / 20; // a stalled tab must not teleport every bullet off screen on resume
const HUD_INTERVAL_MS = 250; // the HUD text and stats() allocate: refresh them a few times a second
const MAX_ERRORS = 50;

/** One running configuration: a world, its scene and the player's entity. */
interface Sim {
  world: World;
  hell: BulletHell;
  shipId: number;
}

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const bulletsInput = element("bullets", HTMLSelectElement);
const backendInput = element("backend", HTMLSelectElement);
const gridInput = element("grid", HTMLInputElement);
const ctx = canvas.getContext("2d", { alpha: false });
if (!ctx) throw new Error("demo: this browser has no 2D canvas context");

const renderer = new Renderer(ctx);
const control = new ShipControl(canvas);
const ship: Ship = { x: 0, y: 0, w: 14, h: 18, hit: false };
const grid: GridOverlay = { visible: false, cols: 0, rows: 0, cellSize: 0 };
const collisionTimes = new SampleWindow();
const renderTimes = new SampleWindow();
const frameTimes = new SampleWindow();

const probe: DemoProbe = {
  ready: false, frames: 0, hitsFrame: 0, hitsTotal: 0, collisionMs: NaN, renderMs: NaN, fps: 0,
  bullets: 0, backend: "", core: "", shipHits: 0, errors: [],
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
grid.visible = gridInput.checked;

bulletsInput.addEventListener("change", restartFromControls);
backendInput.addEventListener("change", restartFromControls);
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
  history.replaceState(null, "", `?${q}`);
}

/** Builds a world for the configuration and swaps it in; the old one is left to the GC. */
async function start(bullets: number, backend: Backend): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  hud.textContent = `creating a ${backend} world with ${bullets.toLocaleString("en-US")} bullets…`;
  // The cores come through Vite's ?url, so the page picks one as the packaged entry would.
  const core = backend === "js" ? "" : simdSupported() ? "hitcore-simd.wasm" : "hitcore.wasm";
  try {
    // Exactly the entities below: no growth (which would replace the views) while loading.
    const world = await createWorld({ backend, capacity: bullets + ENEMIES + 1, wasm: core === "hitcore-simd.wasm" ? simdWasmUrl : wasmUrl });
    if (mine !== generation) return;
    const hell = new BulletHell(world, { bullets, enemies: ENEMIES, width: renderer.width, height: renderer.height });
    control.update(ship, 0, renderer.width, renderer.height);
    const shipId = world.addRect(ship.x, ship.y, ship.w, ship.h, PLAYER);
    sim = { world, hell, shipId };
  } catch (err) {
    if (mine === generation) sim = null;
    recordError(err);
    return;
  }
  collisionTimes.clear();
  renderTimes.clear();
  frameTimes.clear();
  Object.assign(probe, { ready: true, frames: 0, hitsFrame: 0, hitsTotal: 0, shipHits: 0, bullets, backend, core });
  lastFrame = 0;
  nextHud = 0;
}

// ---- the frame loop -------------------------------------------------------------------------

function frame(now: number): void {
  requestAnimationFrame(frame);
  const s = sim;
  if (s === null) return;
  const dt = lastFrame === 0 ? 1 / 60 : Math.min((now - lastFrame) / 1000, MAX_DT);
  lastFrame = now;
  try {
    const { world, hell } = s;
    hell.step(dt);
    control.update(ship, dt, renderer.width, renderer.height);
    world.setPosition(s.shipId, ship.x, ship.y);

    // The measured collision step: one batched query over every bullet and enemy.
    const t0 = performance.now();
    const hits = world.firstHits(BULLET, ENEMY);
    const t1 = performance.now();
    const refreshHud = now >= nextHud;
    if (refreshHud && grid.visible) {
      const stats = world.stats(); // the grid firstHits just built over the enemies
      grid.cols = stats.cols;
      grid.rows = stats.rows;
      grid.cellSize = stats.cellSize;
    }
    hell.recycleHits();
    // The ship is not in firstHits' masks: it asks separately whether any bullet touches it.
    shipTouches = world.touching(s.shipId, BULLET);
    ship.hit = shipTouches > 0;

    const r0 = performance.now();
    renderer.draw(world, hell, ship, grid);
    const r1 = performance.now();

    collisionTimes.push(now, t1 - t0);
    renderTimes.push(now, r1 - r0);
    frameTimes.push(now, 0);
    probe.frames++;
    probe.hitsFrame = hits;
    probe.hitsTotal += hits;
    if (ship.hit) probe.shipHits++;
    probe.collisionMs = collisionTimes.median();
    probe.renderMs = renderTimes.median();
    probe.fps = frameTimes.rate();
    if (refreshHud) {
      nextHud = now + HUD_INTERVAL_MS;
      showHud();
    }
  } catch (err) {
    // A broken frame would throw again 60 times a second: stop this world and say why.
    sim = null;
    probe.ready = false;
    recordError(err);
  }
}

function showHud(): void {
  const p = probe;
  const lines = [
    `fps        ${p.fps.toFixed(1)}`,
    `collision  ${p.collisionMs.toFixed(2)} ms  firstHits, median 1 s`,
    `render     ${p.renderMs.toFixed(2)} ms`,
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

// ---- errors: kept on the probe for the browser test, and on the console for people --------

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

