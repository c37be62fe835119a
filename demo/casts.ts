// The casts demo: a fan of swept boxes (or circles, or rays) from a moving origin, cast every frame
// against one world's rect level and platforms in one call for the whole fan (world.castMany), each
// drawn where the closest hit of any part stopped it. Publishes window.__hitcoreCasts for
// tests/casts_browser.test.ts.
import wasmUrl from "../dist/hitcore.wasm?url";
import { createWorld, debugDraw, DrawLayer, Part, Sweep, type Backend, type DebugDrawOptions, type Platforms, type RectLevel, type World } from "../bindings/browser.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

/** What the page publishes for the browser test and the devtools console. */
export interface CastsProbe {
  ready: boolean;
  backend: string;
  shape: string;
  frames: number;
  castsPerFrame: number;
  /** Hits of the last frame on the rect level and on the platforms (surfaces and polyhedra). */
  rectHits: number;
  platformHits: number;
  /** Frames with at least one hit on each, since the level was created. */
  framesWithRectHits: number;
  framesWithPlatformHits: number;
  /** Shapes whose stopping point lay inside a polyhedron (must stay 0). */
  endedInside: number;
  /** Median ms of the frame's casts (one castMany) over the last second. */
  collisionMs: number;
  renderMs: number;
  fps: number;
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreCasts?: CastsProbe;
  }
}

const W = 960;
const H = 600;
const FAN = 240;
const REACH = 420;
const BOX_W = 12;
const BOX_H = 8;
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;

const canvas = element("view", HTMLCanvasElement);
const hud = element("hud", HTMLElement);
const backendInput = element("backend", HTMLSelectElement);
const shapeInput = element("shape", HTMLSelectElement);
const ctx = canvas.getContext("2d", { alpha: false });
if (!ctx) throw new Error("demo: this browser has no 2D canvas context");

const probe: CastsProbe = {
  ready: false, backend: "", shape: "box", frames: 0, castsPerFrame: FAN, rectHits: 0, platformHits: 0,
  framesWithRectHits: 0, framesWithPlatformHits: 0, endedInside: 0, collisionMs: NaN, renderMs: NaN, fps: 0, errors: [],
};
window.__hitcoreCasts = probe;
window.addEventListener("error", (e) => recordError(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

const collisionTimes = new SampleWindow();
const renderTimes = new SampleWindow();
const frameTimes = new SampleWindow();
// Where each shape of the fan stopped, and which part stopped it: filled after the casts, read by the drawing.
const endX = new Float64Array(FAN);
const endY = new Float64Array(FAN);
const endPart = new Int32Array(FAN);
const pointer = { x: NaN, y: NaN };

interface Sim { world: World; rects: RectLevel; platforms: Platforms; polygons: number[][]; lines: number[] }
let sim: Sim | null = null;
let generation = 0;
let nextHud = 0;

const params = new URLSearchParams(location.search);
backendInput.value = params.get("backend") === "js" ? "js" : "wasm";
backendInput.addEventListener("change", () => {
  history.replaceState(null, "", `?backend=${backendInput.value}`);
  void start(backendInput.value === "js" ? "js" : "wasm");
});
canvas.addEventListener("pointermove", (e) => {
  const r = canvas.getBoundingClientRect();
  pointer.x = ((e.clientX - r.left) / r.width) * W;
  pointer.y = ((e.clientY - r.top) / r.height) * H;
});
canvas.addEventListener("pointerleave", () => { pointer.x = NaN; });
void start(backendInput.value === "js" ? "js" : "wasm");
requestAnimationFrame(frame);

/** Polygons (y down, either winding), one-sided surfaces and rect pieces around the middle. */
function buildLevel(rects: RectLevel, platforms: Platforms): { polygons: number[][]; lines: number[] } {
  const polygons = [
    [120, 100, 220, 80, 250, 160, 150, 190],
    [700, 90, 820, 120, 760, 200],
    [640, 420, 860, 420, 860, 440, 640, 440], // a thin slab
    [90, 400, 130, 380, 170, 420, 150, 500, 100, 490],
    [430, 40, 530, 40, 530, 46, 430, 46],
  ];
  for (const p of polygons) platforms.addPolygon(p);
  // Surfaces: met from the side their normal points to, the left of p0 -> p1 as drawn (y down); these face the middle.
  const lines = [560, 330, 620, 260, 400, 360, 330, 300, 420, 520, 560, 520, 380, 120, 300, 120];
  platforms.addSurfaces(lines);
  const block = rects.addPrefab([0, 0, 60, 14, 0, 14, 14, 40]);
  const post = rects.addPrefab([0, 0, 10, 90]);
  for (const [x, y] of [[250, 250], [620, 160], [700, 300], [230, 470], [820, 520], [40, 250]]) rects.addInstance(block, x, y);
  for (const [x, y] of [[520, 400], [880, 60], [320, 20]]) rects.addInstance(post, x, y);
  rects.build();
  return { polygons, lines };
}

async function start(backend: Backend): Promise<void> {
  const mine = ++generation;
  probe.ready = false;
  hud.textContent = `creating a ${backend} world…`;
  try {
    const world = await createWorld({ backend, wasm: wasmUrl });
    const rects = world.addRectLevel(), platforms = world.addPlatforms({ maxRadius: 10 });
    world.ensureCasts(FAN);
    if (mine !== generation) return;
    const { polygons, lines } = buildLevel(rects, platforms);
    sim = { world, rects, platforms, polygons, lines };
  } catch (err) {
    if (mine === generation) sim = null;
    recordError(err);
    return;
  }
  collisionTimes.clear(); renderTimes.clear(); frameTimes.clear();
  Object.assign(probe, { ready: true, backend, frames: 0, framesWithRectHits: 0, framesWithPlatformHits: 0, endedInside: 0 });
  nextHud = 0;
}

function frame(now: number): void {
  requestAnimationFrame(frame);
  const s = sim;
  if (s === null) return;
  try {
    const { world } = s;
    const shape = shapeInput.value;
    // The origin: the pointer, or a slow loop through the middle of the level.
    const ox = Number.isFinite(pointer.x) ? pointer.x : W / 2 + Math.cos(now / 2300) * 60;
    const oy = Number.isFinite(pointer.x) ? pointer.y : H / 2 + Math.sin(now / 1700) * 40;
    const spin = now / 4000;
    let rectHits = 0, platformHits = 0;
    // The fan as castMany's inputs: centre x, y, motion dx, dy, then a circle's radius or a box's half extents.
    const input = world.castInputs;
    const sweep = shape === "circle" ? Sweep.Circle : shape === "ray" ? Sweep.Point : Sweep.Box;
    for (let k = 0; k < FAN; k++) {
      const a = spin + (k / FAN) * 2 * Math.PI, o = 6 * k;
      input[o] = ox; input[o + 1] = oy; input[o + 2] = Math.cos(a) * REACH; input[o + 3] = Math.sin(a) * REACH;
      input[o + 4] = sweep === Sweep.Box ? BOX_W / 2 : BOX_H / 2; input[o + 5] = BOX_H / 2;
    }
    const t0 = performance.now();
    world.castMany(FAN, sweep);
    const t1 = performance.now();
    // Each hit as part, shape, rect and t, nx, ny: the shape stops at its centre plus t times its motion
    // (the views read again after the call, which may have grown memory building the level).
    const ints = world.castHitInts, reals = world.castHitReals, moves = world.castInputs;
    for (let k = 0; k < FAN; k++) {
      const t = reals[3 * k], part = ints[3 * k];
      endX[k] = moves[6 * k] + t * moves[6 * k + 2]; endY[k] = moves[6 * k + 1] + t * moves[6 * k + 3]; endPart[k] = part;
      if (part === Part.Rects) rectHits++;
      else if (part === Part.Surfaces || part === Part.Polyhedra) platformHits++;
    }
    // No stopping point may lie inside a polyhedron (it would have passed a face).
    for (let k = 0; k < FAN; k++) {
      if ((endPart[k] === Part.Surfaces || endPart[k] === Part.Polyhedra) && s.platforms.polyhedraAt(endX[k], endY[k], 0) > 0 && insideStrictly(s.polygons, endX[k], endY[k])) probe.endedInside++;
    }
    const r0 = performance.now();
    draw(s);
    const r1 = performance.now();

    collisionTimes.push(now, t1 - t0);
    renderTimes.push(now, r1 - r0);
    frameTimes.push(now, 0);
    probe.frames++;
    probe.shape = shape;
    probe.rectHits = rectHits;
    probe.platformHits = platformHits;
    if (rectHits > 0) probe.framesWithRectHits++;
    if (platformHits > 0) probe.framesWithPlatformHits++;
    probe.collisionMs = collisionTimes.median();
    probe.renderMs = renderTimes.median();
    probe.fps = frameTimes.rate();
    if (now >= nextHud) {
      nextHud = now + HUD_INTERVAL_MS;
      showHud();
    }
  } catch (err) {
    sim = null;
    probe.ready = false;
    recordError(err);
  }
}

/** Point well inside a polygon (0.5 px from every edge): a shape touching a face is not inside. */
function insideStrictly(polygons: number[][], px: number, py: number): boolean {
  for (const p of polygons) {
    const n = p.length / 2;
    let sign = 0, inside = true;
    for (let i = 0; i < n && inside; i++) {
      const j = (i + 1) % n;
      const ex = p[2 * j] - p[2 * i], ey = p[2 * j + 1] - p[2 * i + 1];
      const d = (ex * (py - p[2 * i + 1]) - ey * (px - p[2 * i])) / Math.hypot(ex, ey);
      if (Math.abs(d) < 0.5) inside = false;
      else if (sign === 0) sign = Math.sign(d);
      else if (Math.sign(d) !== sign) inside = false;
    }
    if (inside) return true;
  }
  return false;
}

/**
 * The level (rects, polyhedra, surfaces with a tick on their front side) and the fan (each cast's
 * path, and its shape where it stopped, in the colour of the part that stopped it, with the hit
 * normal): debugDraw's layers of the world, from castMany's inputs and hits.
 */
function draw(s: Sim): void {
  const g = ctx!;
  g.fillStyle = "#0c0c14";
  g.fillRect(0, 0, W, H);
  debugDraw(s.world, g, DRAWING);
}

const DRAWING: DebugDrawOptions = {
  layers: (1 << DrawLayer.Rects) | (1 << DrawLayer.Polyhedra) | (1 << DrawLayer.Surfaces) | (1 << DrawLayer.Casts),
  colours: {
    rect: 0x5a5f72, polyhedron: 0x2f4f8f, surface: 0x5fd35f,
    cast: 0xffffff, hitRects: 0xf2c14e, hitSurfaces: 0x4fd6e8, hitPolyhedra: 0x4fd6e8, castMiss: 0x9a9a9a,
  },
};

function showHud(): void {
  const p = probe;
  const lines = [
    `fps        ${p.fps.toFixed(1)}`,
    `collision  ${p.collisionMs.toFixed(3)} ms  ${p.castsPerFrame} ${p.shape} casts in one castMany across the parts, median 1 s`,
    `render     ${p.renderMs.toFixed(2)} ms`,
    `hits       ${p.rectHits} on rects, ${p.platformHits} on platforms (last frame)`,
    `inside     ${p.endedInside} stopping points inside a polyhedron`,
    `backend    ${p.backend}${p.backend === "wasm" ? "" : " (TS baseline)"}`,
  ];
  if (!crossOriginIsolated) lines.push("timers     coarse (page not cross-origin isolated)");
  hud.textContent = lines.join("\n");
}

function recordError(err: unknown): void {
  showError(probe.errors, hud, err, MAX_ERRORS);
}

