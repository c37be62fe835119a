// The rectangle-level demo: a level built from prefab pieces (stairs, lumpy land, poles, floors),
// a playable four-sensor character and walking enemies stepped in one call per frame, the
// quadtree's culling query finding what is on screen (debugDraw draws the level culled to the same
// box), and a fast ball between thin paddles moved by the anti-tunneling projectile step. Publishes window.__hitcoreRects for tests/rect_level_browser.test.ts.
import wasmUrl from "../dist/hitcore.wasm?url";
import { lumpyRects, poleRects, stairsRects } from "../fixtures/rect_levels.js";
import {
  type Backend, CharacterKind, CharacterState, createWorld, debugDraw, DrawLayer, IdKind, Input, Mirror, type RectLevel, type World,
} from "../bindings/browser.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

/** What the page publishes for the browser test and the devtools console. */
export interface RectsProbe {
  ready: boolean;
  backend: string;
  frames: number;
  /** Median ms of the frame's collision calls (stepCharacters + moveProjectiles) over the last second. */
  collisionMs: number;
  renderMs: number;
  fps: number;
  totalInstances: number;
  /** Instances the culling query found on screen, and what that query tested. */
  visibleInstances: number;
  cullNodeSteps: number;
  cullInstanceTests: number;
  /** What the last character step tested. */
  stepRectTests: number;
  playerX: number;
  playerY: number;
  grounded: boolean;
  stomps: number;
  ballBounces: number;
  /** Frames on which the ball was found outside its box (must stay 0). */
  ballEscapes: number;
  ballSpeed: number;
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreRects?: RectsProbe;
  }
}

const W = 960;
const H = 600;
const GROUND = 560;
const LEVEL_W = 8000;
const BOX = { x0: -420, y0: 150, x1: -40, y1: 450 }; // the ball's box, inside its 2 px walls
const BALL_R = 4;
const BALL_SPEED = 140; // per frame: 70 times the paddles' thickness
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const backendInput = element("backend", HTMLSelectElement);
const treeInput = element("tree", HTMLInputElement);
const sensorsInput = element("sensors", HTMLInputElement);
const ctx = canvas.getContext("2d", { alpha: false });
if (!ctx) throw new Error("demo: this browser has no 2D canvas context");

const probe: RectsProbe = {
  ready: false, backend: "", frames: 0, collisionMs: NaN, renderMs: NaN, fps: 0, totalInstances: 0, visibleInstances: 0,
  cullNodeSteps: 0, cullInstanceTests: 0, stepRectTests: 0, playerX: 0, playerY: 0, grounded: false, stomps: 0,
  ballBounces: 0, ballEscapes: 0, ballSpeed: BALL_SPEED, errors: [],
};
window.__hitcoreRects = probe;
window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

const collisionTimes = new SampleWindow();
const renderTimes = new SampleWindow();
const frameTimes = new SampleWindow();
const keys = { left: false, right: false, jump: false };
const stepStats = new Int32Array(5);
const cullStats = new Int32Array(5);

interface Sim { world: World; level: RectLevel; player: number; enemies: number[]; spawns: number[] }
let sim: Sim | null = null;
let generation = 0;
let nextHud = 0;

const params = new URLSearchParams(location.search);
backendInput.value = params.get("backend") === "js" ? "js" : "wasm";
backendInput.addEventListener("change", () => {
  history.replaceState(null, "", `?backend=${backendInput.value}`);
  void start(backendInput.value === "js" ? "js" : "wasm");
});
window.addEventListener("keydown", (e) => setKey(e.code, true, e));
window.addEventListener("keyup", (e) => setKey(e.code, false, e));
void start(backendInput.value === "js" ? "js" : "wasm");
requestAnimationFrame(frame);

function setKey(code: string, down: boolean, e: KeyboardEvent): void {
  if (code === "ArrowLeft" || code === "KeyA") keys.left = down;
  else if (code === "ArrowRight" || code === "KeyD") keys.right = down;
  else if (code === "Space" || code === "ArrowUp" || code === "KeyW") { if (down && !e.repeat) keys.jump = true; }
  else return;
  e.preventDefault();
}

/** The level: floors, hills of stairs and mirrored stairs, lumpy land, poles, ledges, end walls, the ball's box. */
function buildLevel(level: RectLevel): void {
  const floor = level.addPrefab([0, 0, 256, 40]);
  const stairs = level.addPrefab(stairsRects());
  const lumpy = level.addPrefab(lumpyRects());
  const pole = level.addPrefab(poleRects());
  const ledge = level.addPrefab([0, 0, 128, 16]);
  const wall = level.addPrefab([0, 0, 16, 700]);
  const paddle = level.addPrefab([0, 0, 2, BOX.y1 - BOX.y0 + 4]);
  const rail = level.addPrefab([0, 0, BOX.x1 - BOX.x0 + 4, 2]);
  for (let x = -512; x < LEVEL_W; x += 256) level.addInstance(floor, x, GROUND);
  level.addInstance(wall, -16 - 512, -100);
  level.addInstance(wall, LEVEL_W, -100);
  for (let k = 0; k < 24; k++) {
    const x = 400 + k * 320;
    switch (k % 4) {
      case 0: level.addInstance(stairs, x, GROUND - 96); level.addInstance(stairs, x + 128, GROUND - 96, Mirror.X); break;
      case 1: level.addInstance(lumpy, x, GROUND - 24); level.addInstance(ledge, x + 40, GROUND - 150); break;
      case 2: level.addInstance(pole, x + 60, GROUND - 64); level.addInstance(pole, x + 160, GROUND - 64); break;
      default: level.addInstance(ledge, x, GROUND - 90); level.addInstance(ledge, x + 120, GROUND - 170); break;
    }
  }
  level.addInstance(paddle, BOX.x0 - 2, BOX.y0 - 2);
  level.addInstance(paddle, BOX.x1, BOX.y0 - 2);
  level.addInstance(rail, BOX.x0 - 2, BOX.y0 - 2);
  level.addInstance(rail, BOX.x0 - 2, BOX.y1);
  level.build();
}

async function start(backend: Backend): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  hud.textContent = `creating a ${backend} level…`;
  try {
    const world = await createWorld({ backend, wasm: wasmUrl });
    const level = world.addRectLevel({ projectileCapacity: 1 });
    if (mine !== generation) return;
    buildLevel(level);
    // Slots, which the char* views index (placeCharacter takes the handle: idAt).
    const player = level.indexOf(level.addCharacter(100, GROUND - 40, 20, 40, CharacterKind.Player));
    const spawns = [700, 1300, 1950, 2600, 3300, 4100];
    const enemies = spawns.map((x) => level.indexOf(level.addCharacter(x, GROUND - 40, 22, 36, CharacterKind.Enemy)));
    enemies.forEach((e, k) => { level.charInput[e] = k % 2 ? Input.Left : Input.Right; });
    const angle = 0.35;
    level.projX[0] = (BOX.x0 + BOX.x1) / 2; level.projY[0] = (BOX.y0 + BOX.y1) / 2; level.projR[0] = BALL_R;
    level.projVX[0] = Math.cos(angle) * BALL_SPEED; level.projVY[0] = Math.sin(angle) * BALL_SPEED;
    sim = { world, level, player, enemies, spawns };
  } catch (err) {
    if (mine === generation) sim = null;
    recordError(err);
    return;
  }
  collisionTimes.clear(); renderTimes.clear(); frameTimes.clear();
  Object.assign(probe, { ready: true, backend, frames: 0, stomps: 0, ballBounces: 0, ballEscapes: 0, totalInstances: sim.level.instanceCount });
  nextHud = 0;
}

function frame(now: number): void {
  requestAnimationFrame(frame);
  const s = sim;
  if (s === null) return;
  try {
    const { level, player } = s;
    level.charInput[player] = (keys.left ? Input.Left : 0) | (keys.right ? Input.Right : 0) | (keys.jump ? Input.Jump : 0);
    keys.jump = false;
    // Enemies walk until a wall turns them round.
    const state = level.charState, input = level.charInput;
    for (const e of s.enemies) {
      if (state[e] & CharacterState.WallRight) input[e] = Input.Left;
      else if (state[e] & CharacterState.WallLeft) input[e] = Input.Right;
    }

    // The measured collision work: one batched step for every character, one projectile call.
    const t0 = performance.now();
    const stomps = level.stepCharacters();
    level.statsInto(stepStats);
    const bounced = level.moveProjectiles(1);
    const t1 = performance.now();

    probe.stomps += stomps;
    for (let k = 0; k < s.enemies.length; k++) {
      if (level.charState[s.enemies[k]] & CharacterState.Stomped) level.placeCharacter(level.idAt(IdKind.Character, s.enemies[k]), s.spawns[k] + 400, GROUND - 200);
    }
    probe.ballBounces += bounced;
    const bx = level.projX[0], by = level.projY[0];
    if (!(bx > BOX.x0 && bx < BOX.x1 && by > BOX.y0 && by < BOX.y1)) probe.ballEscapes++;

    const px = level.charX[player];
    const camX = Math.max(-560, Math.min(LEVEL_W + 16 - W, px - W / 2));
    const r0 = performance.now();
    const visible = level.queryBox(camX, 0, camX + W, H);
    level.statsInto(cullStats);
    draw(s, camX);
    const r1 = performance.now();

    collisionTimes.push(now, t1 - t0);
    renderTimes.push(now, r1 - r0);
    frameTimes.push(now, 0);
    probe.frames++;
    probe.collisionMs = collisionTimes.median();
    probe.renderMs = renderTimes.median();
    probe.fps = frameTimes.rate();
    probe.visibleInstances = visible;
    probe.cullNodeSteps = cullStats[0];
    probe.cullInstanceTests = cullStats[1];
    probe.stepRectTests = stepStats[2];
    probe.playerX = px;
    probe.playerY = level.charY[player];
    probe.grounded = (level.charState[player] & CharacterState.Grounded) !== 0;
    if (now >= nextHud) {
      nextHud = now + HUD_INTERVAL_MS;
      showHud(level);
    }
  } catch (err) {
    sim = null;
    probe.ready = false;
    recordError(err);
  }
}

/**
 * The level through debugDraw, culled to the camera: prefab rects solid and master boxes faintly,
 * the characters and the ball filled, and the quadtree and sensor overlays when ticked.
 */
function draw(s: Sim, camX: number): void {
  const g = ctx!;
  g.fillStyle = "#0c0c14";
  g.fillRect(0, 0, W, H);
  drawing.camera.x = Math.round(camX);
  drawing.layers = LEVEL_LAYERS | (treeInput.checked ? 1 << DrawLayer.Quadtree : 0) | (sensorsInput.checked ? 1 << DrawLayer.Sensors : 0);
  debugDraw(s.world, g, drawing);
}

const LEVEL_LAYERS = (1 << DrawLayer.Rects) | (1 << DrawLayer.MasterBoxes) | (1 << DrawLayer.Characters) | (1 << DrawLayer.Projectiles);
/** debugDraw's options: the layers and the camera's x change each frame. */
const drawing = { layers: LEVEL_LAYERS, fills: (1 << DrawLayer.Characters) | (1 << DrawLayer.Projectiles), camera: { x: 0, y: 0, scale: 1 } };

function showHud(level: RectLevel): void {
  const p = probe;
  const lines = [
    `fps        ${p.fps.toFixed(1)}`,
    `collision  ${p.collisionMs.toFixed(3)} ms  stepCharacters + moveProjectiles, median 1 s`,
    `render     ${p.renderMs.toFixed(2)} ms`,
    `culling    ${p.visibleInstances} of ${p.totalInstances} pieces on screen: ${p.cullNodeSteps} node steps, ${p.cullInstanceTests} boxes tested`,
    `step       ${p.stepRectTests} sensor-rect tests for ${level.characterCount} characters`,
    `player     ${p.grounded ? "grounded" : "airborne"}, grace ${level.charGrace[0]}, stomps ${p.stomps}`,
    `ball       ${p.ballSpeed} px/frame, ${p.ballBounces} bounces, ${p.ballEscapes} escapes`,
    `backend    ${p.backend}${p.backend === "wasm" ? "" : " (TS baseline)"}`,
  ];
  if (!crossOriginIsolated) lines.push("timers     coarse (page not cross-origin isolated)");
  hud.textContent = lines.join("\n");
}

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

