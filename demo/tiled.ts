// The Tiled page: two maps as the editor saves them, loaded with loadTiledMap from hitcore/tiled
// (the TMX through the browser's DOMParser; the external tileset and templates through an async
// resolver; zlib and gzip layers through DecompressionStream), drawn as cells, rectangles and
// the convex parts their polygons became, with a rain of balls on one Platforms store holding the
// objects and the platform cells (merged into row runs) as polyhedra. Publishes
// window.__hitcoreTiled for tests/tiled_browser.test.ts.
import wasmUrl from "../dist/hitcore.wasm?url";
import { PlatformRain } from "../fixtures/platform_levels.js";
import { addLevelObjects, createWorld, TileCell, type Backend, type Platforms } from "../bindings/browser.js";
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
  map: TiledMap;
  platforms: Platforms;
  rain: PlatformRain;
  /** Polyhedron handles of the objects (drawn outlined; the cells' are drawn filled by the cells). */
  objectParts: number[];
  /** Surface handles of the polyline objects (drawn as lines). */
  objectSurfaces: number[];
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
  const platforms = (await createWorld({ backend, wasm: backend === "wasm" ? wasmUrl : undefined })).addPlatforms({ maxRadius: 6, ballCapacity: BALLS });
  const loaded = addLevelObjects(map, { platforms });
  const objectParts = [...loaded.polygonParts.flat(), ...loaded.rectPolyhedra];
  const objectSurfaces = loaded.polylineSurfaces.flat();
  const width = map.cols * T, height = map.rows * T;
  // Platform and one-way cells as boxes, merged into runs along each row. The cells, the objects and
  // the platforms share Tiled's y-down pixels: row r spans r T .. (r + 1) T.
  for (let row = 0; row < map.rows; row++) {
    const top = row * T;
    for (let col = 0; col < map.cols;) {
      if (!(map.cells[row * map.cols + col] & (TileCell.Platform | TileCell.OneWay))) { col++; continue; }
      const start = col;
      while (col < map.cols && map.cells[row * map.cols + col] & (TileCell.Platform | TileCell.OneWay)) col++;
      platforms.addPolygon([start * T, top, col * T, top, col * T, top + T, start * T, top + T]);
    }
  }
  const rain = new PlatformRain(platforms, BALLS, [0, 0, width, height], 7, 2, 4);
  if (mine !== generation) return; // another map was picked meanwhile
  scene = { map, platforms, rain, objectParts, objectSurfaces };
  Object.assign(probe, {
    map: name, backend, loadMs, cols: map.cols, rows: map.rows, cellsSet: map.cells.filter((c) => c !== 0).length, monsters: map.monsters.length / 3,
    rects: map.rects.length / 4, polygons: map.polygons.length, parts: objectParts.length, surfaces: objectSurfaces.length, properties: map.properties, balls: platforms.ballCount, frames: 0, ready: true,
  });
}

const CELL_COLOURS: [number, string][] = [
  [TileCell.Platform, "#3b4a7a"], [TileCell.OneWay, "#4f6f4f"], [TileCell.Ladder, "#7a5a2a"], [TileCell.Coin, "#c9a227"], [TileCell.Spike, "#9a3040"],
];

function draw(s: Scene): void {
  const { map, platforms } = s;
  const T = map.tileSize;
  const scale = Math.min(canvas.width / (map.cols * T), canvas.height / (map.rows * T));
  ctx.fillStyle = "#0c0c14";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.save();
  ctx.scale(scale, scale);
  for (let row = 0; row < map.rows; row++) {
    for (let col = 0; col < map.cols; col++) {
      const c = map.cells[row * map.cols + col];
      if (c === 0) continue;
      const colour = CELL_COLOURS.find(([flag]) => c & flag);
      if (colour === undefined) continue;
      ctx.fillStyle = colour[1];
      const inset = c & TileCell.Coin ? T / 4 : 0;
      ctx.fillRect(col * T + inset, row * T + inset, T - 2 * inset, T - 2 * inset);
    }
  }
  for (let m = 0; m < map.monsters.length; m += 3) {
    ctx.fillStyle = "#d04ad0";
    ctx.beginPath();
    ctx.arc((map.monsters[m] + 0.5) * T, (map.monsters[m + 1] + 0.5) * T, T * 0.4, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.lineWidth = 1 / scale;
  for (const id of s.objectParts) {
    const v = platforms.vertices(id);
    if (v === null) continue;
    ctx.beginPath();
    for (let i = 0; i < v.length; i += 2) ctx.lineTo(v[i], v[i + 1]); // y-down, as the canvas and the cells
    ctx.closePath();
    ctx.fillStyle = "rgba(90, 200, 255, 0.18)";
    ctx.fill();
    ctx.strokeStyle = "#5ac8ff";
    ctx.stroke();
  }
  ctx.strokeStyle = "#ffd25a";
  for (const id of s.objectSurfaces) {
    const S = platforms.surface(id); // ends at 9 .. 12
    ctx.beginPath();
    ctx.moveTo(S[9], S[10]);
    ctx.lineTo(S[11], S[12]);
    ctx.stroke();
  }
  ctx.fillStyle = "#f2f2f2";
  const x = platforms.x, y = platforms.y, r = platforms.radius;
  for (let i = 0; i < platforms.ballCount; i++) {
    ctx.beginPath();
    ctx.arc(x[i], y[i], r[i], 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
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
