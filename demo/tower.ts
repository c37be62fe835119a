// The tower demo (flat view): the tower seed's level on a TileMap, the player as a platformer
// controller stepped by one kernel call per frame, monsters patrolling through the map's cell
// lists, and the player's ten collision points looked up by a second call and drawn as an overlay.
import wasmUrl from "../dist/hitcore.wasm?url";
import { SEED_TOWER } from "../fixtures/tile_maps.js";
import {
  type Backend, createWorld, IdKind, Input, seedCollisionPoints, TileCell, TileEvent, TileHit, type TileMap,
} from "../bindings/browser.js";
import { CI_HURTING, CTL_I_FIELDS } from "../layout/tiles.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

const T = 32;
const MAX_DT = 1 / 20;
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;
const POINTS = seedCollisionPoints(T, 2 * T, T); // the controller's ten, for the overlay
const SHIFTS = [-1, 0, 1]; // wrapped copies of a monster

/** What the page publishes for the browser test (tests/tile_map_browser.test.ts). */
export interface TowerProbe {
  ready: boolean;
  backend: string;
  frames: number;
  score: number;
  hits: number;
  coinsLeft: number;
  /** Times the player crossed the wrap seam. */
  seams: number;
  x: number;
  y: number;
  /** Median ms of the frame's two kernel calls (controller step + collision points) over the last second. */
  collisionMs: number;
  fps: number;
  /** Collision points drawn on the last frame. */
  pointsDrawn: number;
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreTower?: TowerProbe;
  }
}

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const backendInput = element("backend", HTMLSelectElement);
const pointsInput = element("points", HTMLInputElement);
const towerInput = element("tower", HTMLInputElement);
const maybeCtx = canvas.getContext("2d", { alpha: false });
if (!maybeCtx) throw new Error("tower demo: this browser has no 2D canvas context");
const ctx: CanvasRenderingContext2D = maybeCtx;

const probe: TowerProbe = {
  ready: false, backend: "", frames: 0, score: 0, hits: 0, coinsLeft: 0, seams: 0, x: 0, y: 0, collisionMs: NaN, fps: 0, pointsDrawn: 0, errors: [],
};
window.__hitcoreTower = probe;
window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

const collisionTimes = new SampleWindow();
const frameTimes = new SampleWindow();
const held = new Uint8Array(5); // left, right, up, down, jump
let autopilot = true;
let jumpQueued = false;
const KEYS = new Map<string, number>([
  ["ArrowLeft", 0], ["KeyA", 0], ["ArrowRight", 1], ["KeyD", 1], ["ArrowUp", 2], ["KeyW", 2], ["ArrowDown", 3], ["KeyS", 3], ["Space", 4],
]);
window.addEventListener("keydown", (e) => {
  const k = KEYS.get(e.code);
  if (k === undefined || e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  e.preventDefault();
  if (k === 4 && !held[4]) jumpQueued = true;
  held[k] = 1;
  autopilot = false;
});
window.addEventListener("keyup", (e) => {
  const k = KEYS.get(e.code);
  if (k !== undefined) held[k] = 0;
});

interface Sim {
  map: TileMap;
  player: number;
  /** Monster spawn x and phase, for the patrol. */
  home: Float64Array;
  time: number;
}

let sim: Sim | null = null;
let generation = 0;
let lastFrame = 0;
let nextHud = 0;
let prevX = 0;

const params = new URLSearchParams(location.search);
const initialBackend: Backend = params.get("backend") === "js" ? "js" : "wasm";
backendInput.value = initialBackend;
pointsInput.checked = params.get("points") !== "0";
towerInput.checked = params.get("view") === "tower";
backendInput.addEventListener("change", () => {
  const url = new URL(location.href);
  url.searchParams.set("backend", backendInput.value);
  history.replaceState(null, "", url);
  void start(backendInput.value === "js" ? "js" : "wasm");
});
void start(initialBackend);

async function start(backend: Backend): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  try {
    const map = (await createWorld({ backend, wasm: wasmUrl })).addTileMap({ ascii: SEED_TOWER, tileSize: T, wrap: true, monsterSize: 24 });
    if (mine !== generation) return;
    const player = map.addController(T / 2, map.height); // on the floor below the map
    map.setPoints(POINTS);
    const home = new Float64Array(2 * map.monsterCount);
    for (let m = 0; m < map.monsterCount; m++) { home[2 * m] = map.monsterBoxes[4 * m]; home[2 * m + 1] = m * 1.7; }
    sim = { map, player, home, time: 0 };
    prevX = map.controllerX(player);
    Object.assign(probe, { ready: true, backend, frames: 0, score: 0, hits: 0, seams: 0 });
    collisionTimes.clear();
    frameTimes.clear();
    lastFrame = 0;
  } catch (err) {
    recordError(err);
  }
}

requestAnimationFrame(frame);

function frame(now: number): void {
  requestAnimationFrame(frame);
  const s = sim;
  if (!s || !probe.ready) return;
  try {
    const dt = lastFrame ? Math.min(MAX_DT, (now - lastFrame) / 1000) : 1 / 60;
    lastFrame = now;
    s.time += dt;
    const { map, player } = s;
    // Monsters patrol half a tile either side of their spawn (relinked in the cell lists as they go).
    for (let m = 0; m < map.monsterCount; m++) {
      map.moveMonster(map.idAt(IdKind.Monster, m), s.home[2 * m] + Math.sin(s.time * 1.5 + s.home[2 * m + 1]) * (T / 4), map.monsterBoxes[4 * m + 1]);
    }
    let input = 0;
    if (autopilot) {
      input = Input.Right;
      if (Math.floor(s.time / 2) !== Math.floor((s.time - dt) / 2)) input |= Input.Jump;
    } else {
      if (held[0]) input |= Input.Left;
      if (held[1]) input |= Input.Right;
      if (held[2]) input |= Input.Up;
      if (held[3]) input |= Input.Down;
      if (jumpQueued) input |= Input.Jump;
      jumpQueued = false;
    }
    map.setInput(player, input);
    const t0 = performance.now();
    map.stepControllers(dt);
    const x = map.controllerX(player), y = map.controllerY(player);
    map.entityX[0] = x;
    map.entityY[0] = y;
    map.collidePoints(1);
    const t1 = performance.now();
    collisionTimes.push(now, t1 - t0);
    frameTimes.push(now, 0);
    if (Math.abs(x - prevX) > map.width / 2) probe.seams++;
    prevX = x;
    draw(map, x, y);
    probe.frames++;
    probe.x = x;
    probe.y = y;
    probe.score = map.controllerScore(player);
    if (map.controllerEvents(player) & TileEvent.Hurt) probe.hits++;
    if (now >= nextHud) {
      nextHud = now + HUD_INTERVAL_MS;
      probe.collisionMs = collisionTimes.median();
      probe.fps = frameTimes.rate();
      let coins = 0;
      for (const f of map.cells) if (f & TileCell.Coin) coins++;
      probe.coinsLeft = coins;
      const st = map.controller(player);
      hud.textContent = [
        `backend   ${probe.backend}`,
        `fps       ${probe.fps.toFixed(0)}`,
        `collision ${probe.collisionMs.toFixed(3)} ms (controller step + 10 points)`,
        `score     ${probe.score}   coins left ${coins}`,
        `hurt      ${probe.hits}${st.hurting ? " (immune)" : ""}`,
        `player    x ${x.toFixed(1)} y ${y.toFixed(1)}${st.climbing ? " climbing" : st.falling ? " falling" : ""}`,
        `seams     ${probe.seams}`,
      ].join("\n");
    }
  } catch (err) {
    recordError(err);
  }
}

// Screen x of world x: flat (the player in the middle), or on the rotating tower's front face
// (the player always in front, the columns turning round the cylinder as it runs: the bonus view).
let towerView = false;
let camX = 0;
let towerAngle = 0; // radians per world unit
const TOWER_RADIUS = 200;

function screenX(x: number): number {
  return towerView ? canvas.width / 2 + TOWER_RADIUS * Math.sin((x - camX) * towerAngle) : x - camX;
}

/** On the tower, only the front half faces the camera. */
function facing(x: number): boolean {
  return !towerView || Math.cos((x - camX) * towerAngle) > 0.05;
}

function draw(map: TileMap, px: number, py: number): void {
  const W = canvas.width, H = canvas.height, worldW = map.width;
  towerView = towerInput.checked;
  towerAngle = (2 * Math.PI) / worldW;
  // Camera: the player in the middle (flat) or in front (tower); the world is y-down like the screen,
  // camY the world y at the screen's top edge.
  camX = towerView ? px : px - W / 2;
  const camY = Math.max(-T, Math.min(map.height + T - H, py - T - H / 2)); // a row of ground below the bottom row
  const sy = (y: number) => y - camY;
  const ground = sy(map.height);
  ctx.fillStyle = "#0c0c14";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#2a2a3e";
  if (towerView) ctx.fillRect(W / 2 - TOWER_RADIUS, ground, 2 * TOWER_RADIUS, H - ground);
  else ctx.fillRect(0, ground, W, H - ground); // the ground below the bottom row
  if (towerView) { ctx.fillStyle = "#15152a"; ctx.fillRect(W / 2 - TOWER_RADIUS, 0, 2 * TOWER_RADIUS, ground); }
  const c0 = towerView ? Math.floor((camX - worldW / 2) / T) : Math.floor(camX / T);
  const c1 = towerView ? Math.ceil((camX + worldW / 2) / T) : Math.ceil((camX + W) / T);
  const r0 = Math.max(0, Math.floor(camY / T)), r1 = Math.min(map.rows - 1, Math.ceil((camY + H) / T));
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const f = map.cellAt(c, r); // columns wrap
      if (!f || !facing((c + 0.5) * T)) continue;
      const x = screenX(c * T), x1 = screenX((c + 1) * T), w = x1 - x, y = sy(r * T);
      if (f & TileCell.Platform) { ctx.fillStyle = "#5a6b9a"; ctx.fillRect(x, y, w, T); ctx.strokeStyle = "#3d4a70"; ctx.strokeRect(x + 0.5, y + 0.5, w - 1, T - 1); }
      if (f & TileCell.Ladder) {
        const a = x + w / 4, b = x + (3 * w) / 4;
        ctx.strokeStyle = "#c08a3e"; ctx.lineWidth = 3;
        ctx.beginPath(); ctx.moveTo(a, y); ctx.lineTo(a, y + T); ctx.moveTo(b, y); ctx.lineTo(b, y + T);
        for (let k = 4; k < T; k += 9) { ctx.moveTo(a, y + k); ctx.lineTo(b, y + k); }
        ctx.stroke(); ctx.lineWidth = 1;
      }
      if (f & TileCell.Coin) { ctx.fillStyle = "#f3c623"; ctx.beginPath(); ctx.ellipse(x + w / 2, y + T / 2, Math.max(1, w / 4), T / 4, 0, 0, Math.PI * 2); ctx.fill(); }
    }
  }
  // Monsters, drawn at every wrapped copy that is on screen.
  const mb = map.monsterBoxes;
  ctx.fillStyle = "#d2436b";
  for (let m = 0; m < map.monsterCount; m++) {
    for (const shift of SHIFTS) {
      const left = mb[4 * m] + shift * worldW;
      if (!facing(left + mb[4 * m + 2] / 2)) continue;
      const x = screenX(left), x1 = screenX(left + mb[4 * m + 2]);
      if (x1 > -T && x < W + T) ctx.fillRect(x, sy(mb[4 * m + 1]), x1 - x, mb[4 * m + 3]);
    }
  }
  // The player: a T x 2T box standing on its origin, the middle of its feet.
  const hurting = map.controllerInts[CTL_I_FIELDS * 0 + CI_HURTING] > 0;
  ctx.fillStyle = hurting && probe.frames % 8 < 4 ? "#ffffff" : "#5fd3a5";
  const pl = screenX(px - T / 2);
  ctx.fillRect(pl, sy(py - 2 * T), screenX(px + T / 2) - pl, 2 * T);
  probe.pointsDrawn = 0;
  if (pointsInput.checked) {
    const pts = POINTS;
    for (let p = 0; p < 10; p++) {
      const h = map.pointHits[p];
      ctx.fillStyle = h & TileHit.Monster ? "#ff4df0" : h & TileHit.Coin ? "#ffe14d" : h & TileHit.Blocked ? "#ff4d4d" : h & TileHit.Ladder ? "#4dff7a" : "#ffffff";
      ctx.fillRect(screenX(px + pts[2 * p]) - 2, sy(py + pts[2 * p + 1]) - 2, 4, 4);
      probe.pointsDrawn++;
    }
  }
}

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

