// The arena page: one world with every part of a level (tiles, a rect level, platforms), tens of
// thousands of bullets fired from emitters that ricochet off all of it in one moveBodies call per
// frame, enemies on the tile map's controllers (stepControllers) that walk the level and stop
// bullets (firstHits), and a four-sensor player character (stepCharacters). The scene is fixtures/arena.ts, which the Node test plays too; this
// page adds the keys, the drawing (the level once through debugDraw; bullets as pixels, enemies and
// the player as sprites each frame), the HUD (ms of each batched call) and Save / Load over
// world.snapshot() / restore(). Publishes window.__hitcoreArena for tests/arena_browser.test.ts.
import wasmUrl from "../dist/hitcore.wasm?url";
import simdWasmUrl from "../dist/hitcore-simd.wasm?url";
import levelText from "../fixtures/tiled/arena_level.tmj?raw";
import {
  ARENA_EMITTERS, ARENA_HEIGHT, ARENA_TILE, ARENA_WIDTH, ArenaGame, autopilotInput,
  type ArenaClock, type ArenaSave,
} from "../fixtures/arena.js";
import { CharacterState, createWorld, debugDraw, DrawLayer, Input, Part, simdSupported, type Backend, type DebugDrawOptions } from "../bindings/browser.js";
import { RunnerKeys } from "./input.js";
import { element, showError } from "./page.js";
import { PixelLayer, rgba } from "./render.js";
import { SampleWindow } from "./samples.js";

/** What the page publishes for the browser test and the devtools console. */
export interface ArenaProbe {
  /** A world is running (false while one is being created, or after an error stopped it). */
  ready: boolean;
  /** "wasm" or "js" (the query's backend), and the core that runs: "wasm-simd", "wasm-scalar" or "js". */
  backend: string;
  core: string;
  /** Frames played on the current world. */
  frames: number;
  bullets: number;
  enemies: number;
  /** Bodies that hit the level in the last frame, and bodies whose first hit was on each part since the world started. */
  levelHitsFrame: number;
  levelHits: { tiles: number; rects: number; surfaces: number; polyhedra: number };
  /** Bullets stopped by enemies in the last frame, and since the world started. */
  hitsFrame: number;
  hits: number;
  /** Enemies flashing (hit in the last few frames) now, and the most at once so far. */
  enemiesFlashing: number;
  enemiesFlashingMax: number;
  /** Medians over the last second, ms: each batched call, and drawing a frame. */
  moveBulletsMs: number;
  moveEnemiesMs: number;
  firstHitsMs: number;
  stepCharactersMs: number;
  renderMs: number;
  /** Median ms of the whole frame callback (the step with its bookkeeping, drawing, the probe). */
  frameMs: number;
  fps: number;
  /** The automatic save / load round trip of frame ROUND_TRIP_FRAME: null before it, then whether the hashes held. */
  saveLoadOk: boolean | null;
  /** Bytes of the last save's world snapshot (0 before the first), its frame, the frame the last load went back to, and saves and loads made. */
  snapshotBytes: number;
  savedFrame: number;
  loadedFrame: number;
  saves: number;
  loads: number;
  /** The player's character: top-left corner, and whether it stands on something. */
  playerX: number;
  playerY: number;
  grounded: boolean;
  /** True until the first key: the player runs on its own. */
  autopilot: boolean;
  /** Bodies found inside a shape and put back at an emitter or spawn point. */
  unstuck: number;
  /** Uncaught errors and failed world creations, oldest first (capped). */
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreArena?: ArenaProbe;
  }
}

const DEFAULT_BULLETS = 20000;
const MAX_BULLETS = 200000;
const ENEMIES = 24;
/** The frame whose step runs as a save / step / load / step round trip, checked by hashes. */
const ROUND_TRIP_FRAME = 60;
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;

const BACKGROUND = "#0c0c14";
const BULLET_COLOURS = [rgba(255, 79, 163), rgba(79, 227, 255)];
const SPARK_COLOUR = rgba(255, 255, 255);
const ENEMY_COLOUR = "#7c5cff";
const ENEMY_HIT_COLOUR = "#fff2a8";
const PLAYER_COLOUR = "#f2c14e";

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const bulletsInput = element("bullets", HTMLSelectElement);
const backendInput = element("backend", HTMLSelectElement);
const coreInput = element("core", HTMLSelectElement);
const saveButton = element("save", HTMLButtonElement);
const loadButton = element("load", HTMLButtonElement);
const ctx = canvas.getContext("2d", { alpha: false });
if (!ctx) throw new Error("demo: this browser has no 2D canvas context");
if (canvas.width !== ARENA_WIDTH || canvas.height !== ARENA_HEIGHT) throw new Error(`demo: #view must be ${ARENA_WIDTH} x ${ARENA_HEIGHT}`);

const probe: ArenaProbe = {
  ready: false, backend: "", core: "", frames: 0, bullets: 0, enemies: 0, levelHitsFrame: 0,
  levelHits: { tiles: 0, rects: 0, surfaces: 0, polyhedra: 0 }, hitsFrame: 0, hits: 0, enemiesFlashing: 0,
  enemiesFlashingMax: 0, moveBulletsMs: NaN, moveEnemiesMs: NaN, firstHitsMs: NaN, stepCharactersMs: NaN, renderMs: NaN,
  frameMs: NaN, fps: 0, saveLoadOk: null, snapshotBytes: 0, savedFrame: 0, loadedFrame: 0, saves: 0, loads: 0, playerX: 0, playerY: 0, grounded: false,
  autopilot: true, unstuck: 0, errors: [],
};
window.__hitcoreArena = probe;
window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

const layer = new PixelLayer(ctx);
let levelPixels: Uint32Array | null = null; // the static level, copied under the bullets each frame
const keys = new RunnerKeys({ left: Input.Left, right: Input.Right, jump: Input.Jump });
const clock: ArenaClock = { now: () => performance.now(), ms: new Float64Array(4) };
const moveBulletsTimes = new SampleWindow();
const moveEnemiesTimes = new SampleWindow();
const firstHitsTimes = new SampleWindow();
const characterTimes = new SampleWindow();
const renderTimes = new SampleWindow();
const callbackTimes = new SampleWindow();
const frameTimes = new SampleWindow();

let game: ArenaGame | null = null;
let saved: ArenaSave | null = null;
let generation = 0; // guards against a slow createWorld finishing after a newer one started
let nextHud = 0;

// ---- configuration: query string first, then the controls ------------------------------------

type CoreName = "wasm-simd" | "wasm-scalar" | "js";

const params = new URLSearchParams(location.search);
const initialBullets = parseBullets(params.get("bullets"));
if (![...bulletsInput.options].some((o) => o.value === String(initialBullets))) {
  bulletsInput.add(new Option(initialBullets.toLocaleString("en-US"), String(initialBullets)));
}
bulletsInput.value = String(initialBullets);
backendInput.value = params.get("backend") === "js" ? "js" : "wasm";
coreInput.value = params.get("core") === "scalar" || !simdSupported() ? "scalar" : "simd";
coreInput.disabled = backendInput.value === "js";
if (!simdSupported()) coreInput.options[0].disabled = true;

for (const input of [bulletsInput, backendInput, coreInput]) input.addEventListener("change", restartFromControls);
saveButton.addEventListener("click", () => {
  saveButton.blur(); // Space jumps; it must not press the button again
  const g = game;
  if (!g) return;
  try {
    saved = g.save();
    probe.savedFrame = g.frame;
    probe.snapshotBytes = saved.world.length;
    probe.saves++;
    updateProbe(g);
    loadButton.disabled = false;
  } catch (err) {
    recordError(err);
  }
});
loadButton.addEventListener("click", () => {
  loadButton.blur();
  if (!game || !saved) return;
  try {
    game.load(saved);
    probe.loadedFrame = game.frame;
    probe.loads++;
    updateProbe(game);
  } catch (err) {
    recordError(err);
  }
});

void start(initialBullets, chosenCore());
requestAnimationFrame(frame);

function parseBullets(text: string | null): number {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n >= 1 && n <= MAX_BULLETS ? n : DEFAULT_BULLETS;
}

function chosenCore(): CoreName {
  return backendInput.value === "js" ? "js" : coreInput.value === "scalar" ? "wasm-scalar" : "wasm-simd";
}

function restartFromControls(): void {
  coreInput.disabled = backendInput.value === "js";
  const q = new URLSearchParams({ bullets: bulletsInput.value, backend: backendInput.value });
  if (backendInput.value === "wasm") q.set("core", coreInput.value);
  history.replaceState(null, "", `?${q}`);
  void start(parseBullets(bulletsInput.value), chosenCore());
}

/** Builds a world and the arena in it, and swaps it in; the old one is disposed. */
async function start(bullets: number, core: CoreName): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  hud.textContent = `creating a ${core} world with ${bullets.toLocaleString("en-US")} bullets…`;
  let next: ArenaGame;
  try {
    const backend: Backend = core === "js" ? "js" : "wasm";
    // Room for every body up front: no growth (which would replace the views) while playing.
    const world = await createWorld({ backend, capacity: bullets + ENEMIES + 1, wasm: core === "wasm-simd" ? simdWasmUrl : wasmUrl });
    if (mine !== generation) return;
    next = new ArenaGame(world, { bullets, enemies: ENEMIES, level: JSON.parse(levelText) });
  } catch (err) {
    if (mine === generation) game = null;
    recordError(err);
    return;
  }
  levelPixels ??= drawLevel(next);
  game?.world.dispose();
  game = next;
  saved = null;
  loadButton.disabled = true;
  for (const w of [moveBulletsTimes, moveEnemiesTimes, firstHitsTimes, characterTimes, renderTimes, callbackTimes, frameTimes]) w.clear();
  Object.assign(probe, {
    ready: true, backend: core === "js" ? "js" : "wasm", core, frames: 0, bullets, enemies: ENEMIES, hits: 0, hitsFrame: 0,
    levelHitsFrame: 0, enemiesFlashingMax: 0, saveLoadOk: null, snapshotBytes: 0, savedFrame: 0, loadedFrame: 0, saves: 0, loads: 0, unstuck: 0,
  });
  nextHud = 0;
}

// ---- the frame loop: one step of the game, drawing, the probe ---------------------------------

function frame(now: number): void {
  requestAnimationFrame(frame);
  const g = game;
  if (g === null) return;
  try {
    const f0 = performance.now();
    const input = keys.active ? keys.take() : autopilotInput(g.frame);
    if (g.frame === ROUND_TRIP_FRAME && probe.saveLoadOk === null) {
      // This frame's step runs twice around a save and a load (not timed: it allocates the save).
      probe.saveLoadOk = g.roundTrip(input);
    } else {
      g.step(input, clock);
      const ms = clock.ms;
      characterTimes.push(now, ms[0]);
      moveEnemiesTimes.push(now, ms[1]);
      moveBulletsTimes.push(now, ms[2]);
      firstHitsTimes.push(now, ms[3]);
    }

    const r0 = performance.now();
    draw(g);
    renderTimes.push(now, performance.now() - r0);
    frameTimes.push(now, 0);
    updateProbe(g);
    callbackTimes.push(now, performance.now() - f0);
    probe.frameMs = callbackTimes.median();
    if (now >= nextHud) {
      nextHud = now + HUD_INTERVAL_MS;
      showHud();
    }
  } catch (err) {
    // A broken frame would throw again 60 times a second: stop this world and say why.
    game = null;
    probe.ready = false;
    recordError(err);
  }
}

function updateProbe(g: ArenaGame): void {
  const p = probe, hits = g.partHits, level = g.level;
  p.frames = g.frame;
  p.levelHitsFrame = g.levelHitsFrame;
  p.levelHits.tiles = hits[Part.Tiles];
  p.levelHits.rects = hits[Part.Rects];
  p.levelHits.surfaces = hits[Part.Surfaces];
  p.levelHits.polyhedra = hits[Part.Polyhedra];
  p.hitsFrame = g.enemyHitsFrame;
  p.hits = g.enemyHitsTotal;
  let flashing = 0;
  for (let e = 0; e < g.enemies; e++) if (g.flash[e] > 0) flashing++;
  p.enemiesFlashing = flashing;
  if (flashing > p.enemiesFlashingMax) p.enemiesFlashingMax = flashing;
  p.moveBulletsMs = moveBulletsTimes.median();
  p.moveEnemiesMs = moveEnemiesTimes.median();
  p.firstHitsMs = firstHitsTimes.median();
  p.stepCharactersMs = characterTimes.median();
  p.renderMs = renderTimes.median();
  p.fps = frameTimes.rate();
  p.playerX = level.charX[g.player];
  p.playerY = level.charY[g.player];
  p.grounded = (level.charState[g.player] & CharacterState.Grounded) !== 0;
  p.autopilot = !keys.active;
  p.unstuck = g.unstuck;
}

// ---- drawing --------------------------------------------------------------------------------

/** The level that never moves, through debugDraw: tiles (solid and one-way cells), rect obstacles, polygons, surfaces. */
const LEVEL_DRAWING: DebugDrawOptions = {
  layers: (1 << DrawLayer.Tiles) | (1 << DrawLayer.Rects) | (1 << DrawLayer.Polyhedra) | (1 << DrawLayer.Surfaces),
  colours: { solid: 0x3b4160, oneWay: 0x8a93c9, rect: 0x4d6b4a, polyhedron: 0x2f4f8f, surface: 0x5fd35f },
};

/** Draws the level (and the emitters) once; returns its pixels, copied under the bullets each frame. */
function drawLevel(game: ArenaGame): Uint32Array {
  const g = ctx!;
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, ARENA_WIDTH, ARENA_HEIGHT);
  debugDraw(game.world, g, LEVEL_DRAWING);
  g.strokeStyle = "#ffffff";
  for (let i = 0; i < ARENA_EMITTERS.length; i += 2) {
    g.beginPath();
    g.arc(ARENA_EMITTERS[i], ARENA_EMITTERS[i + 1], 7, 0, 2 * Math.PI);
    g.stroke();
  }
  return new Uint32Array(g.getImageData(0, 0, ARENA_WIDTH, ARENA_HEIGHT).data.buffer);
}

function draw(g: ArenaGame): void {
  const world = g.world, x = world.x, y = world.y, a = world.a, b = world.b, part = world.hitPart;
  if (levelPixels) layer.pixels.set(levelPixels);
  // Bullets that hit the level this frame show as white sparks.
  for (let k = 0; k < g.bullets; k++) layer.dot(x[k], y[k], part[k] !== Part.None ? SPARK_COLOUR : BULLET_COLOURS[k & 1]);
  layer.put(ctx!);

  const c = ctx!;
  for (let pass = 0; pass < 2; pass++) {
    const flashing = pass === 1;
    c.beginPath();
    for (let e = 0; e < g.enemies; e++) {
      if ((g.flash[e] > 0) !== flashing) continue;
      const s = g.bullets + e;
      c.rect(x[s], y[s], a[s], b[s]);
    }
    c.fillStyle = flashing ? ENEMY_HIT_COLOUR : ENEMY_COLOUR;
    c.fill();
  }
  const level = g.level, p = g.player;
  const px = level.charX[p], py = level.charY[p], pw = level.charW[p], ph = level.charH[p];
  c.fillStyle = PLAYER_COLOUR;
  c.fillRect(px, py, pw, ph);
  c.fillStyle = "#07070c";
  const facing = level.charVX[p] < 0 ? -1 : 1;
  c.fillRect(px + pw / 2 + facing * 4 - 2, py + 8, 4, 4);
}

function showHud(): void {
  const p = probe;
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [
    `fps ${p.fps.toFixed(1)}, frame ${p.frameMs.toFixed(2)} ms, render ${p.renderMs.toFixed(2)} ms (medians, 1 s)`,
    `moveBodies     ${p.moveBulletsMs.toFixed(2).padStart(6)} ms  ${n(p.bullets)} bullets, bounce 0.9`,
    `stepControllers${p.moveEnemiesMs.toFixed(2).padStart(6)} ms  ${p.enemies} enemies (tile controllers)`,
    `firstHits      ${p.firstHitsMs.toFixed(2).padStart(6)} ms  bullets vs enemies`,
    `stepCharacters ${p.stepCharactersMs.toFixed(2).padStart(6)} ms  the player`,
    `level hits     ${n(p.levelHitsFrame)} now; tiles ${n(p.levelHits.tiles)}, rects ${n(p.levelHits.rects)},`,
    `               surfaces ${n(p.levelHits.surfaces)}, polyhedra ${n(p.levelHits.polyhedra)}`,
    `enemy hits     ${p.hitsFrame} now, ${n(p.hits)} total; ${p.enemiesFlashing} flashing`,
    `round trip     frame ${ROUND_TRIP_FRAME}: ${p.saveLoadOk === null ? "pending" : p.saveLoadOk ? "the hash held" : "FAILED, the hash changed"}`,
    `save           ${saved ? `${n(p.snapshotBytes)} bytes at frame ${n(p.savedFrame)}` : "none yet"}`,
    `backend        ${p.backend} (${p.core})${p.autopilot ? ", autopilot" : ""}`,
  ];
  if (!crossOriginIsolated) lines.push("timers         coarse (page not cross-origin isolated)");
  hud.textContent = lines.join("\n");
}

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}
