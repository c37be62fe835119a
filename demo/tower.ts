// The tower demo (a flat view, and the rotating tower): the tower seed's level on a TileMap, the
// player as a platformer controller stepped by one kernel call per frame, monsters patrolling
// through the map's cell lists, and the player's ten collision points looked up by a second call
// and drawn as an overlay. The map and the points are debugDraw's; the player is the page's sprite.
import wasmUrl from "../dist/hitcore.wasm?url";
import { SEED_TOWER } from "../fixtures/tile_maps.js";
import {
  type Backend, createWorld, debugDraw, DRAW_HEADER, DrawLayer, DrawOp, DrawStream, drawStream, IdKind, Input, recordLength, seedCollisionPoints, TileCell, TileEvent,
  type DebugDrawOptions, type TileMap, type World,
} from "../bindings/browser.js";
import { CI_HURTING, CTL_I_FIELDS } from "../layout/tiles.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

const T = 32;
const MAX_DT = 1 / 20;
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;
const POINTS = seedCollisionPoints(T, 2 * T, T); // the controller's ten, for the overlay

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
  world: World;
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
    const world = await createWorld({ backend, wasm: wasmUrl });
    const map = world.addTileMap({ ascii: SEED_TOWER, tileSize: T, wrap: true, monsterSize: 24 });
    if (mine !== generation) return world.dispose();
    sim?.world.dispose();
    const player = map.addController(T / 2, map.height); // on the floor below the map
    map.setPoints(POINTS);
    const home = new Float64Array(2 * map.monsterCount);
    for (let m = 0; m < map.monsterCount; m++) { home[2 * m] = map.monsterBoxes[4 * m]; home[2 * m + 1] = m * 1.7; }
    sim = { world, map, player, home, time: 0 };
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
    draw(s.world, map, x, y);
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

let camY = 0;

function screenX(x: number): number {
  return towerView ? canvas.width / 2 + TOWER_RADIUS * Math.sin((x - camX) * towerAngle) : x - camX;
}

function sy(y: number): number {
  return y - camY;
}

/** On the tower, only the front half faces the camera. */
function facing(x: number): boolean {
  return !towerView || Math.cos((x - camX) * towerAngle) > 0.05;
}

// What is drawn each frame: the map's cells and monsters, and the points of the frame's
// collidePoints (each in the colour of what it hit) when ticked, as debugDraw's streams over the
// rows on screen and every column; the flat view replays them through a camera (once more either
// side of the map where it wraps into view), the tower view through its projection.
const TILES = {
  layers: 1 << DrawLayer.Tiles,
  colours: { solid: 0x5a6b9a, ladder: 0xc08a3e, coin: 0xf3c623, spike: 0xff5050, monster: 0xd2436b },
  view: { x: 0, y: 0, width: 0, height: 0 },
} satisfies DebugDrawOptions;
const POINT_HITS = { layers: 1 << DrawLayer.PointHits, view: TILES.view } satisfies DebugDrawOptions;
const tileStream = new DrawStream();
const pointStream = new DrawStream();
const flatCamera = { x: 0, y: 0, scale: 1 };

function draw(world: World, map: TileMap, px: number, py: number): void {
  const W = canvas.width, H = canvas.height, worldW = map.width;
  towerView = towerInput.checked;
  towerAngle = (2 * Math.PI) / worldW;
  // Camera: the player in the middle (flat) or in front (tower); the world is y-down like the screen,
  // camY the world y at the screen's top edge.
  camX = towerView ? px : px - W / 2;
  camY = Math.max(-T, Math.min(map.height + T - H, py - T - H / 2)); // a row of ground below the bottom row
  const ground = sy(map.height);
  ctx.fillStyle = "#0c0c14";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#2a2a3e";
  if (towerView) ctx.fillRect(W / 2 - TOWER_RADIUS, ground, 2 * TOWER_RADIUS, H - ground);
  else ctx.fillRect(0, ground, W, H - ground); // the ground below the bottom row
  if (towerView) { ctx.fillStyle = "#15152a"; ctx.fillRect(W / 2 - TOWER_RADIUS, 0, 2 * TOWER_RADIUS, ground); }
  const view = TILES.view;
  view.x = -T; view.y = camY; view.width = worldW + 2 * T; view.height = H;
  debugDraw(world, tileStream, TILES);
  replay(tileStream, worldW);
  // The player (a sprite, flashing while hurt): a T x 2T box standing on its origin, the middle of its feet.
  const hurting = map.controllerInts[CTL_I_FIELDS * 0 + CI_HURTING] > 0;
  ctx.fillStyle = hurting && probe.frames % 8 < 4 ? "#ffffff" : "#5fd3a5";
  const pl = screenX(px - T / 2);
  ctx.fillRect(pl, sy(py - 2 * T), screenX(px + T / 2) - pl, 2 * T);
  probe.pointsDrawn = 0;
  if (pointsInput.checked) {
    probe.pointsDrawn = debugDraw(world, pointStream, POINT_HITS);
    replay(pointStream, worldW);
  }
}

/** Draws a stream in the current view: flat through the camera, at each wrapped copy on screen; or on the tower. */
function replay(stream: DrawStream, worldW: number): void {
  if (towerView) return drawOnTower(stream);
  flatCamera.y = camY;
  for (let shift = -1; shift <= 1; shift++) {
    flatCamera.x = camX - shift * worldW;
    if (camX + canvas.width >= shift * worldW - T && camX <= (shift + 1) * worldW + T) drawStream(stream, ctx, flatCamera);
  }
}

/** CSS colours by 0xRRGGBB << 8 | alpha in 1/255ths, made once each. */
const cssColours = new Map<number, string>();
function cssOf(colour: number, alpha: number): string {
  const a = Math.round(alpha * 255), key = colour * 256 + a;
  let css = cssColours.get(key);
  if (css === undefined) cssColours.set(key, (css = `rgba(${(colour >> 16) & 255}, ${(colour >> 8) & 255}, ${colour & 255}, ${a / 255})`));
  return css;
}

/**
 * Replays a stream on the rotating tower: x through screenX (round the cylinder), y through sy;
 * shapes whose middle faces away are left out. Rects stay rects between their projected edges,
 * circles become ellipses as narrow as the cylinder makes them.
 */
function drawOnTower(stream: DrawStream): void {
  const d = stream.data;
  for (let at = 0; at < stream.length; at += recordLength(d, at)) {
    const op = d[at], p = at + DRAW_HEADER, style = cssOf(d[at + 2], d[at + 3]);
    const fill = op === DrawOp.FillRect || op === DrawOp.FillCircle || op === DrawOp.FillPolygon || op === DrawOp.Point;
    ctx.fillStyle = style;
    ctx.strokeStyle = style;
    ctx.beginPath();
    if (op === DrawOp.Point) {
      if (!facing(d[p])) continue;
      ctx.rect(screenX(d[p]) - 2, sy(d[p + 1]) - 2, 4, 4);
    } else if (op === DrawOp.Rect || op === DrawOp.FillRect) {
      const x = d[p], w = d[p + 2];
      if (!facing(x + w / 2)) continue;
      const x0 = screenX(x);
      ctx.rect(x0, sy(d[p + 1]), screenX(x + w) - x0, d[p + 3]);
    } else if (op === DrawOp.Circle || op === DrawOp.FillCircle) {
      const x = d[p], r = d[p + 2];
      if (!facing(x)) continue;
      ctx.ellipse(screenX(x), sy(d[p + 1]), Math.max(1, Math.abs(screenX(x + r) - screenX(x))), r, 0, 0, 2 * Math.PI);
    } else {
      // A line (two corners) or a polygon (n corners, closed).
      const polygon = op === DrawOp.Polygon || op === DrawOp.FillPolygon, n = polygon ? d[p] : 2, q = polygon ? p + 1 : p;
      if (!facing(d[q])) continue;
      for (let i = 0; i < n; i++) ctx.lineTo(screenX(d[q + 2 * i]), sy(d[q + 2 * i + 1]));
      if (polygon) ctx.closePath();
    }
    if (fill) ctx.fill();
    else ctx.stroke();
  }
}

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

