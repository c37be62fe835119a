// The Tiled page: two maps as the editor saves them, loaded with loadTiledMap from hitcore/tiled
// (the TMX through the browser's DOMParser; the external tileset and templates through an async
// resolver; zlib and gzip layers through DecompressionStream) into one world: the cells as its tile
// map, the rectangles and polygons as polyhedra (polygons split into convex parts), the polylines
// as surfaces, with a rain of balls on them all, drawn by debugDraw. Publishes
// window.__hitcoreTiled for tests/tiled_browser.test.ts.
import wasmUrl from "../dist/hitcore.wasm?url";
import { PlatformRain } from "../fixtures/platform_levels.js";
import { addLevelObjects, createWorld, debugDraw, DrawLayer, type Backend, type DebugDrawOptions, type Platforms, type World } from "../bindings/browser.js";
import { loadTiledMap, type TiledMap } from "../bindings/tiled_load.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

/** The fixture files as text, by name: what a game would fetch from its server. */
const FILES = Object.fromEntries(Object.entries(import.meta.glob("../fixtures/tiled/*.{tmx,tmj,tsx,tsj,tx,tj}", { query: "?raw", import: "default", eager: true }) as Record<string, string>)
  .map(([path, text]) => [path.slice(path.lastIndexOf("/") + 1), text]));

/** What the page publishes for the browser test. */
export interface TiledProbe {
  ready: boolean;
  map: string;
  backend: string;
  /** The XML parser the loader used for TMX ("dom" where the browser has DOMParser). */
  xml: string;
  /** Files the resolver was asked for, in order. */
  resolved: string[];
  loadMs: number;
  cols: number;
  rows: number;
  cellsSet: number;
  monsters: number;
  rects: number;
  polygons: number;
  /** Polyhedra the objects became (polygons split into convex parts, rectangles as boxes). */
  parts: number;
  /** Surfaces the polyline objects became (one per segment). */
  surfaces: number;
  properties: Record<string, unknown>;
  balls: number;
  contacts: number;
  frames: number;
  collisionMs: number;
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreTiled?: TiledProbe;
  }
}

const BALLS = 400;
const HUD_INTERVAL_MS = 250;
const MAX_DT = 1 / 30;

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const mapInput = element("map", HTMLSelectElement);
const backendInput = element("backend", HTMLSelectElement);
const ctx = canvas.getContext("2d", { alpha: false })!;
const params = new URLSearchParams(location.search);
mapInput.value = params.get("map") ?? mapInput.value;
backendInput.value = params.get("backend") ?? backendInput.value;

const probe: TiledProbe = {
  ready: false, map: "", backend: "", xml: typeof DOMParser === "function" ? "dom" : "fast-xml-parser", resolved: [], loadMs: NaN,
  cols: 0, rows: 0, cellsSet: 0, monsters: 0, rects: 0, polygons: 0, parts: 0, surfaces: 0, properties: {}, balls: 0, contacts: 0, frames: 0, collisionMs: NaN, errors: [],
};
window.__hitcoreTiled = probe;
window.addEventListener("error", (e) => showError(probe.errors, hud, e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => showError(probe.errors, hud, e.reason));

interface Scene {
  world: World;
  map: TiledMap;
  platforms: Platforms;
  rain: PlatformRain;
}

let scene: Scene | null = null;
let generation = 0;
const collisionTimes = new SampleWindow();

async function load(name: string, backend: Backend): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  probe.resolved = [];
  const t0 = performance.now();
  // An async resolver, as a game fetching the files would pass: (path) => fetch(path).then((r) => r.text()).
  const map = await loadTiledMap(FILES[name], {
    path: name,
    resolve: async (path) => {
      probe.resolved.push(path);
      const text = FILES[path];
      if (text === undefined) throw new Error(`no file ${path}`);
      return text;
    },
  });
  const loadMs = performance.now() - t0;
  const T = map.tileSize;
  const world = await createWorld({ backend, wasm: backend === "wasm" ? wasmUrl : undefined });
  // The cells as the world's tile map, which the balls meet as boxes (no floor below the last row:
  // balls that fall out are rained again); the objects on the platforms. Cells, objects and balls
  // share Tiled's y-down pixels: row r spans r T .. (r + 1) T.
  world.addTileMap({ tiled: map, solidFloor: false });
  const platforms = world.addPlatforms({ maxRadius: 6, ballCapacity: BALLS });
  const loaded = addLevelObjects(map, { platforms });
  const objectParts = [...loaded.polygonParts.flat(), ...loaded.rectPolyhedra];
  const objectSurfaces = loaded.polylineSurfaces.flat();
  const width = map.cols * T, height = map.rows * T;
  const rain = new PlatformRain(platforms, BALLS, [0, 0, width, height], 7, 2, 4);
  if (mine !== generation) return world.dispose(); // another map was picked meanwhile
  scene?.world.dispose();
  drawing.camera.scale = Math.min(canvas.width / width, canvas.height / height);
  scene = { world, map, platforms, rain };
  Object.assign(probe, {
    map: name, backend, loadMs, cols: map.cols, rows: map.rows, cellsSet: map.cells.filter((c) => c !== 0).length, monsters: map.monsters.length / 3,
    rects: map.rects.length / 4, polygons: map.polygons.length, parts: objectParts.length, surfaces: objectSurfaces.length, properties: map.properties, balls: platforms.ballCount, frames: 0, ready: true,
  });
}

/** debugDraw's layers and colours for the page: the cells and monsters, the objects' polyhedra and surfaces, the balls filled. */
const drawing = {
  layers: (1 << DrawLayer.Tiles) | (1 << DrawLayer.Polyhedra) | (1 << DrawLayer.Surfaces) | (1 << DrawLayer.Balls),
  fills: 1 << DrawLayer.Balls,
  camera: { x: 0, y: 0, scale: 1 },
  colours: { solid: 0x3b4a7a, oneWay: 0x8fbf8f, ladder: 0xa0784b, coin: 0xc9a227, spike: 0x9a3040, monster: 0xd04ad0, polyhedron: 0x2f5f7f, surface: 0xffd25a, ball: 0xf2f2f2 },
} satisfies DebugDrawOptions;

function draw(s: Scene): void {
  ctx.fillStyle = "#0c0c14";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  debugDraw(s.world, ctx, drawing);
}

let last = performance.now();
let lastHud = 0;
function frame(now: number): void {
  requestAnimationFrame(frame);
  const dt = Math.min((now - last) / 1000, MAX_DT);
  last = now;
  const s = scene;
  if (s === null || !probe.ready) return;
  try {
    const t = performance.now();
    probe.contacts = s.platforms.step(dt);
    collisionTimes.push(now, performance.now() - t);
    s.rain.recycle();
    draw(s);
    probe.frames++;
    if (now - lastHud > HUD_INTERVAL_MS) {
      lastHud = now;
      probe.collisionMs = collisionTimes.median();
      hud.textContent = [
        `${probe.map} (${probe.map.endsWith(".tmx") ? `TMX via ${probe.xml === "dom" ? "DOMParser" : "fast-xml-parser"}` : "JSON"}), loaded in ${probe.loadMs.toFixed(1)} ms`,
        `resolved ${probe.resolved.join(", ")}`,
        `${probe.cols} x ${probe.rows} cells (${probe.cellsSet} set), ${probe.monsters} monsters`,
        `${probe.rects} rects + ${probe.polygons} polygons -> ${probe.parts} convex polyhedra`,
        `${probe.balls} balls, ${probe.contacts} contacts, collision ${probe.collisionMs.toFixed(3)} ms (${probe.backend})`,
      ].join("\n");
    }
  } catch (e) {
    showError(probe.errors, hud, e);
    scene = null;
  }
}

function reload(): void {
  load(mapInput.value, backendInput.value as Backend).catch((e) => showError(probe.errors, hud, e));
}
mapInput.addEventListener("change", reload);
backendInput.addEventListener("change", reload);
reload();
requestAnimationFrame(frame);
