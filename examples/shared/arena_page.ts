// What the engine examples share: the arena game in a hitcore world (fixtures/arena.ts: the Tiled
// level of fixtures/tiled/arena_level.tmj loaded by world.loadLevel, a four-sensor player, bullets
// ricocheting off the level with moveBodies(BULLET, Bounce) and stopped by enemies with firstHits),
// the level as debugDraw's command stream for an engine's Graphics, the HUD, and the probe the browser tests read,
// with a check of the engine's drawn pixels against hitcore's views. Each engine's page
// (examples/pixi, examples/phaser) only runs its loop and draws.
import wasmUrl from "../../dist/hitcore.wasm?url";
import simdWasmUrl from "../../dist/hitcore-simd.wasm?url";
import levelText from "../../fixtures/tiled/arena_level.tmj?raw";
import { ARENA_HEIGHT, ARENA_WIDTH, ArenaGame, autopilotInput } from "../../fixtures/arena.js";
import { createWorld, debugDraw, DrawLayer, DrawStream, Input, Part, simdSupported } from "../../bindings/browser.js";

export { ARENA_HEIGHT, ARENA_WIDTH, ArenaGame };

/** Colours as 0xRRGGBB, shared by both engines and by the pixel check. */
export const Colour = {
  background: 0x0c0c14,
  tile: 0x3b4160,
  oneWay: 0x8a93c9,
  rect: 0x4d6b4a,
  polygon: 0x2f4f8f,
  surface: 0x5fd35f,
  bullet: 0xff4fa3,
  enemy: 0x7c5cff,
  enemyHit: 0xfff2a8,
  player: 0xf2c14e,
} as const;

/** What a page publishes as window.__hitcoreExample for the browser tests and the console. */
export interface ExampleProbe {
  /** "pixi" or "phaser", the engine's version, and its renderer ("webgl" or "webgl2"). */
  engine: string;
  version: string;
  renderer: string;
  /** The world and the game are running. */
  ready: boolean;
  /** "wasm-simd" or "wasm-scalar". */
  core: string;
  frames: number;
  bullets: number;
  enemies: number;
  /** Bullets stopped by enemies (firstHits) in the last frame and since the start; bullets that hit the level since the start. */
  hitsFrame: number;
  hits: number;
  levelHits: number;
  /** The most enemies flashing (hit in the last few frames) at once. */
  enemiesFlashingMax: number;
  /** The player's top-left corner, and whether the autopilot still runs it (until the first key). */
  playerX: number;
  playerY: number;
  autopilot: boolean;
  /** Median ms of the engine's whole tick (game step and drawing), over the last frames. */
  frameMs: number;
  /**
   * Checks of the drawn canvas against the views, made right after the engine rendered (every
   * CHECK_EVERY frames): bullets whose centre pixel shows the bullet colour (those under an enemy
   * or the player are skipped), enemies whose centre shows an enemy colour, flashing enemies drawn
   * in the hit colour, and bullets that hit an enemy in the frame drawn and were gone from it
   * (fired again from an emitter, so no longer overlapping the enemy).
   */
  checks: number;
  bulletsSampled: number;
  bulletsDrawn: number;
  enemiesSampled: number;
  enemiesDrawn: number;
  flashingSampled: number;
  flashingDrawn: number;
  hitBulletsChecked: number;
  hitBulletsGone: number;
  /** Pixels of the last checked canvas that are not the background colour. */
  paintedPixels: number;
  /** Uncaught errors, oldest first (capped). */
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreExample?: ExampleProbe;
  }
}

const DEFAULT_BULLETS = 8000;
const MAX_BULLETS = 100000;
const ENEMIES = 24;
const CHECK_EVERY = 30;
const HUD_EVERY = 15;
const MAX_ERRORS = 50;
const BULLET_SAMPLES = 500;

export const probe: ExampleProbe = {
  engine: "", version: "", renderer: "", ready: false, core: "", frames: 0, bullets: 0, enemies: 0, hitsFrame: 0, hits: 0,
  levelHits: 0, enemiesFlashingMax: 0, playerX: 0, playerY: 0, autopilot: true, frameMs: NaN, checks: 0, bulletsSampled: 0,
  bulletsDrawn: 0, enemiesSampled: 0, enemiesDrawn: 0, flashingSampled: 0, flashingDrawn: 0, hitBulletsChecked: 0,
  hitBulletsGone: 0, paintedPixels: 0, errors: [],
};
window.__hitcoreExample = probe;
window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

const hud = document.getElementById("hud");

/** Reports an error on the HUD, in the console and in the probe. */
export function recordError(err: unknown): void {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (probe.errors.length < MAX_ERRORS) probe.errors.push(message);
  console.error("hitcore example:", err);
  probe.ready = false;
  if (hud) hud.textContent = `error: ${message}`;
}

/**
 * The arena in a new world: `?bullets=` (default 8,000) and `?core=scalar` choose; room for every
 * body up front, so views never move while playing. The page sets probe.renderer once its engine runs.
 */
export async function createArena(engine: string, version: string): Promise<ArenaGame> {
  const params = new URLSearchParams(location.search);
  const asked = Number(params.get("bullets"));
  const bullets = Number.isInteger(asked) && asked >= 1 && asked <= MAX_BULLETS ? asked : DEFAULT_BULLETS;
  const simd = params.get("core") !== "scalar" && simdSupported();
  const world = await createWorld({ capacity: bullets + ENEMIES + 1, wasm: simd ? simdWasmUrl : wasmUrl });
  const game = new ArenaGame(world, { bullets, enemies: ENEMIES, level: JSON.parse(levelText) });
  Object.assign(probe, { engine, version, ready: true, core: simd ? "wasm-simd" : "wasm-scalar", bullets, enemies: ENEMIES });
  return game;
}

/**
 * The arena's static level (tiles, rect obstacles, polygons, surfaces) as debugDraw's command
 * stream in the arena's colours, made once: each engine replays it into its Graphics.
 */
export function levelStream(game: ArenaGame): DrawStream {
  const stream = new DrawStream();
  debugDraw(game.world, stream, {
    layers: (1 << DrawLayer.Tiles) | (1 << DrawLayer.Rects) | (1 << DrawLayer.Polyhedra) | (1 << DrawLayer.Surfaces),
    colours: { solid: Colour.tile, oneWay: Colour.oneWay, rect: Colour.rect, polyhedron: Colour.polygon, surface: Colour.surface },
  });
  return stream;
}

/** Arrow keys / A D run, Space / W / Up jump; the autopilot runs the player until the first key. */
export class RunnerInput {
  private readonly down = new Set<string>();
  private touched = false;
  constructor() {
    window.addEventListener("keydown", (e) => {
      if (!KEYS.has(e.code)) return;
      e.preventDefault();
      this.down.add(e.code);
      this.touched = true;
    });
    window.addEventListener("keyup", (e) => this.down.delete(e.code));
    window.addEventListener("blur", () => this.down.clear());
  }
  /** The Input bits of this frame. */
  bits(frame: number): number {
    if (!this.touched) return autopilotInput(frame);
    const d = this.down;
    return (d.has("ArrowLeft") || d.has("KeyA") ? Input.Left : 0) | (d.has("ArrowRight") || d.has("KeyD") ? Input.Right : 0) |
      (d.has("Space") || d.has("ArrowUp") || d.has("KeyW") ? Input.Jump : 0);
  }
  get autopilot(): boolean { return !this.touched; }
}
const KEYS = new Set(["ArrowLeft", "KeyA", "ArrowRight", "KeyD", "Space", "ArrowUp", "KeyW"]);

const tickTimes = new Float64Array(60);
const sorted = new Float64Array(60);
let flashingMax = 0;

/** Bookkeeping after the engine's tick stepped the game: the probe's counters, the tick's time, the HUD. */
export function afterStep(game: ArenaGame, input: RunnerInput, tickMs: number): void {
  const p = probe, level = game.level;
  p.frames = game.frame;
  p.hitsFrame = game.enemyHitsFrame;
  p.hits = game.enemyHitsTotal;
  const parts = game.partHits;
  p.levelHits = parts[Part.Tiles] + parts[Part.Rects] + parts[Part.Surfaces] + parts[Part.Polyhedra];
  let flashing = 0;
  for (let e = 0; e < game.enemies; e++) if (game.flash[e] > 0) flashing++;
  if (flashing > flashingMax) flashingMax = flashing;
  p.enemiesFlashingMax = flashingMax;
  p.playerX = level.charX[game.player];
  p.playerY = level.charY[game.player];
  p.autopilot = input.autopilot;
  tickTimes[game.frame % tickTimes.length] = tickMs;
  if (game.frame % HUD_EVERY === 0) {
    const n = Math.min(game.frame, tickTimes.length);
    sorted.set(tickTimes);
    const window = sorted.subarray(0, n).sort();
    p.frameMs = n > 0 ? window[n >> 1] : NaN;
    if (hud) {
      hud.textContent = [
        `${p.engine} ${p.version} (${p.renderer}), hitcore ${p.core}`,
        `${p.bullets.toLocaleString("en-US")} bullets, ${p.enemies} enemies, tick ${p.frameMs.toFixed(2)} ms (median)`,
        `enemy hits ${p.hitsFrame} now, ${p.hits.toLocaleString("en-US")} total; level hits ${p.levelHits.toLocaleString("en-US")}`,
        input.autopilot ? "autopilot: arrow keys / A D run, Space jumps" : "",
      ].join("\n");
    }
  }
}

/** True on the frames whose rendered canvas the page should check (call checkCanvas right after the engine drew them). */
export function checkDue(game: ArenaGame): boolean {
  return game.frame > 0 && game.frame % CHECK_EVERY === 0;
}

let scratch: CanvasRenderingContext2D | null = null;

/**
 * Reads the engine's canvas (drawn this frame, from a context that preserves its drawing buffer)
 * and checks it against the world's views: see ExampleProbe.checks.
 */
export function checkCanvas(game: ArenaGame, canvas: HTMLCanvasElement): void {
  if (!scratch) {
    const c = document.createElement("canvas");
    c.width = ARENA_WIDTH;
    c.height = ARENA_HEIGHT;
    scratch = c.getContext("2d", { willReadFrequently: true });
    if (!scratch) throw new Error("example: this browser has no 2D canvas context to check the drawing with");
  }
  scratch.clearRect(0, 0, ARENA_WIDTH, ARENA_HEIGHT);
  scratch.drawImage(canvas, 0, 0, ARENA_WIDTH, ARENA_HEIGHT);
  const rgba = new Uint8Array(scratch.getImageData(0, 0, ARENA_WIDTH, ARENA_HEIGHT).data.buffer);
  const colourAt = (x: number, y: number): number => {
    const i = 4 * (Math.floor(y) * ARENA_WIDTH + Math.floor(x));
    return (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2];
  };
  const p = probe, world = game.world, x = world.x, y = world.y, a = world.a, b = world.b, n = game.bullets;
  const level = game.level, pl = game.player;
  const px0 = level.charX[pl] - 1, py0 = level.charY[pl] - 1, px1 = px0 + level.charW[pl] + 2, py1 = py0 + level.charH[pl] + 2;
  const covered = (cx: number, cy: number): boolean => {
    if (cx >= px0 && cx <= px1 && cy >= py0 && cy <= py1) return true;
    for (let e = 0; e < game.enemies; e++) {
      const s = n + e;
      if (cx >= x[s] - 1 && cx <= x[s] + a[s] + 1 && cy >= y[s] - 1 && cy <= y[s] + b[s] + 1) return true;
    }
    return false;
  };
  p.checks++;
  for (let i = 0, step = Math.max(1, Math.floor(n / BULLET_SAMPLES)); i < n; i += step) {
    const bx = x[i], by = y[i];
    if (bx < 0 || by < 0 || bx >= ARENA_WIDTH || by >= ARENA_HEIGHT || covered(bx, by)) continue;
    p.bulletsSampled++;
    if (colourAt(bx, by) === Colour.bullet) p.bulletsDrawn++;
  }
  const insideOther = (self: number, cx: number, cy: number): boolean => {
    for (let e = 0; e < game.enemies; e++) {
      const s = n + e;
      if (e !== self && cx >= x[s] - 1 && cx <= x[s] + a[s] + 1 && cy >= y[s] - 1 && cy <= y[s] + b[s] + 1) return true;
    }
    return false;
  };
  for (let e = 0; e < game.enemies; e++) {
    const s = n + e, cx = x[s] + a[s] / 2, cy = y[s] + b[s] / 2;
    // Skipped where the player or another enemy may be drawn over its centre.
    if ((cx >= px0 && cx <= px1 && cy >= py0 && cy <= py1) || insideOther(e, cx, cy)) continue;
    const c = colourAt(cx, cy), flashing = game.flash[e] > 0;
    p.enemiesSampled++;
    if (c === (flashing ? Colour.enemyHit : Colour.enemy)) p.enemiesDrawn++;
    if (flashing) {
      p.flashingSampled++;
      if (c === Colour.enemyHit) p.flashingDrawn++;
    }
  }
  // This frame's firstHits pairs (bullet, enemy): each bullet was fired again, away from its enemy.
  const pairs = world.pairs;
  for (let i = 0; i < game.enemyHitsFrame; i++) {
    const k = pairs[2 * i], s = pairs[2 * i + 1], r = a[k];
    const nx = Math.max(x[s], Math.min(x[k], x[s] + a[s])), ny = Math.max(y[s], Math.min(y[k], y[s] + b[s]));
    p.hitBulletsChecked++;
    if ((x[k] - nx) ** 2 + (y[k] - ny) ** 2 > r * r) p.hitBulletsGone++;
  }
  let painted = 0;
  for (let i = 0; i < rgba.length; i += 4) if (((rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2]) !== Colour.background) painted++;
  p.paintedPixels = painted;
}
