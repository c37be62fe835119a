// The platformer pages (surfaces.html: seed 000's level; polyhedra.html: seed 001's level): the
// seed's ball played with the arrow keys (left / right accelerate, up jumps), drawn by debugDraw in
// the seed's colours, with an overlay of the hit regions and a "rain" mode that drops thousands of balls on the level.
// The seeds' levels are y-up; they are turned over (flipY) as they load, and everything is drawn
// y-down, straight onto the canvas.
// One `platforms.step(dt)` per frame moves every ball; the HUD reports what it costs, as the
// bullet-hell page does. The page publishes window.__platformer for the browser test.
import wasmUrl from "../dist/hitcore.wasm?url";
import { EG_DATA, EG_DATA_START, EG_LEVEL, EG_LEVEL_START, flipY, PlatformRain } from "../fixtures/platform_levels.js";
import { createWorld, debugDraw, DrawLayer, PLATFORMER, type Backend, type DebugDrawOptions, type Platforms, type World } from "../bindings/browser.js";
import { SampleWindow } from "./samples.js";
import { element, showError } from "./page.js";

export type LevelKind = "surfaces" | "polyhedra";

/** What a platformer page publishes on window.__platformer (tests/platforms_browser.test.ts). */
export interface PlatformerProbe {
  level: LevelKind;
  ready: boolean;
  frames: number;
  backend: string;
  balls: number;
  /** Contacts found by the last step, over all balls. */
  contacts: number;
  /** Median ms of one platforms.step over the last second. */
  collisionMs: number;
  renderMs: number;
  fps: number;
  /** The player's ball, and whether it touches the level this frame. */
  x: number;
  y: number;
  vx: number;
  vy: number;
  onGround: boolean;
  /** Frames in a row the player has touched the level. */
  groundFrames: number;
  /** Lowest point the player reached since the page started: its greatest y (y down). */
  maxY: number;
  errors: string[];
}

declare global {
  interface Window {
    __platformer?: PlatformerProbe;
  }
}

const MAX_DT = 1 / 30; // the slowest frame time the level is tested at; a stalled tab must not jump
const HUD_INTERVAL_MS = 250;
const MAX_ERRORS = 50;
const RAIN_COUNTS = [0, 1000, 5000, 20000];

/** World (y down) to canvas: the canvas shows the world from (ox, oy), the seed's Gloss window as the seed places it. */
interface View { ox: number; oy: number; scale: number }

/** Seed 000's level about the origin, and seed 001's within its 960 x 540 window, y-down. */
const LEVEL = flipY(EG_LEVEL);
const DATA_HEIGHT = 540;
const DATA = EG_DATA.map((poly) => flipY(poly, DATA_HEIGHT));

export function runPlatformer(level: LevelKind): void {
  const canvas = element("view", HTMLCanvasElement);
  const hud = element("hud", HTMLElement);
  const backendInput = element("backend", HTMLSelectElement);
  const rainInput = element("rain", HTMLSelectElement);
  const overlayInput = element("overlay", HTMLInputElement);
  const ctx = canvas.getContext("2d", { alpha: false });
  if (!ctx) throw new Error("demo: this browser has no 2D canvas context");
  const W = canvas.width, H = canvas.height;
  // Seed 000 draws around the origin; seed 001 translates its 960 x 540 level by (-480, -270), so it fills the window.
  const view: View = level === "surfaces" ? { ox: -W / 2, oy: -H / 2, scale: 1 } : { ox: 0, oy: 0, scale: 1 };
  const start = level === "surfaces" ? [EG_LEVEL_START[0], -EG_LEVEL_START[1]] : [EG_DATA_START[0], DATA_HEIGHT - EG_DATA_START[1]];
  const bounds: [number, number, number, number] = level === "surfaces" ? [-400, -300, 400, 260] : [0, 0, 960, 540];

  const probe: PlatformerProbe = {
    level, ready: false, frames: 0, backend: "", balls: 0, contacts: 0, collisionMs: NaN, renderMs: NaN, fps: 0,
    x: 0, y: 0, vx: 0, vy: 0, onGround: false, groundFrames: 0, maxY: -Infinity, errors: [],
  };
  window.__platformer = probe;
  const collisionTimes = new SampleWindow();
  const renderTimes = new SampleWindow();
  const frameTimes = new SampleWindow();
  /** player: the player's ball's slot in the views; ball: its handle, for setBall and setAcceleration. */
  let sim: { world: World; p: Platforms; rain: PlatformRain | null; player: number; ball: number } | null = null;
  let generation = 0;
  let lastFrame = 0;
  let nextHud = 0;
  const held = { left: false, right: false };

  window.addEventListener("error", (e) => recordError(e.error ?? e.message));
  window.addEventListener("unhandledrejection", (e) => recordError(e.reason));

  // The seed's inputUpdate: held arrows add +-speed to the acceleration, up adds jumpspeed to the upward velocity (-y).
  window.addEventListener("keydown", (e) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp"].includes(e.key)) return;
    e.preventDefault();
    if (e.repeat || !sim) return;
    if (e.key === "ArrowLeft") held.left = true;
    if (e.key === "ArrowRight") held.right = true;
    if (e.key === "ArrowUp") sim.p.setBall(sim.ball, sim.p.x[sim.player], sim.p.y[sim.player], sim.p.vx[sim.player], sim.p.vy[sim.player] - PLATFORMER.jumpSpeed);
    applyInput();
  });
  window.addEventListener("keyup", (e) => {
    if (e.key === "ArrowLeft") held.left = false;
    else if (e.key === "ArrowRight") held.right = false;
    else return;
    applyInput();
  });

  function applyInput(): void {
    if (!sim) return;
    const ax = (held.right ? PLATFORMER.speed : 0) - (held.left ? PLATFORMER.speed : 0);
    sim.p.setAcceleration(sim.ball, ax, PLATFORMER.gravity);
  }

  const params = new URLSearchParams(location.search);
  backendInput.value = params.get("backend") === "js" ? "js" : "wasm";
  const rainParam = Number(params.get("rain") ?? 0);
  if (!RAIN_COUNTS.includes(rainParam) && Number.isInteger(rainParam) && rainParam > 0 && rainParam <= 200000) rainInput.add(new Option(String(rainParam), String(rainParam)));
  rainInput.value = String(Number.isInteger(rainParam) && rainParam >= 0 ? rainParam : 0);
  if (rainInput.value === "") rainInput.value = "0";
  overlayInput.checked = params.get("overlay") === "1";
  const restart = () => {
    const q = new URLSearchParams({ backend: backendInput.value, rain: rainInput.value });
    if (overlayInput.checked) q.set("overlay", "1");
    history.replaceState(null, "", `?${q}`);
    void begin(backendInput.value === "js" ? "js" : "wasm", Number(rainInput.value));
  };
  backendInput.addEventListener("change", restart);
  rainInput.addEventListener("change", restart);
  overlayInput.addEventListener("change", restart);
  void begin(backendInput.value === "js" ? "js" : "wasm", Number(rainInput.value));
  requestAnimationFrame(frame);

  async function begin(backend: Backend, rain: number): Promise<void> {
    const mine = ++generation;
    probe.ready = false;
    hud.textContent = `loading the ${level} level on ${backend}…`;
    try {
      const world = await createWorld({ backend, wasm: wasmUrl });
      const p = world.addPlatforms({ ballCapacity: rain + 1 });
      if (mine !== generation) return;
      if (level === "surfaces") p.addSurfaces(LEVEL);
      else for (const poly of DATA) p.addPolygon(poly);
      const ball = p.addBall(start[0], start[1], PLATFORMER.radius);
      sim = { world, p, rain: rain > 0 ? new PlatformRain(p, rain, bounds, 7) : null, player: p.indexOf(ball), ball };
      applyInput();
    } catch (err) {
      if (mine === generation) sim = null;
      recordError(err);
      return;
    }
    collisionTimes.clear();
    renderTimes.clear();
    frameTimes.clear();
    Object.assign(probe, { ready: true, frames: 0, backend, balls: rain + 1, groundFrames: 0, maxY: -Infinity });
    lastFrame = 0;
    nextHud = 0;
  }

  function frame(now: number): void {
    requestAnimationFrame(frame);
    const s = sim;
    if (s === null) return;
    const dt = lastFrame === 0 ? 1 / 60 : Math.min(Math.max((now - lastFrame) / 1000, 1 / 1000), MAX_DT);
    lastFrame = now;
    try {
      const { p, player } = s;
      const t0 = performance.now();
      const contacts = p.step(dt);
      const t1 = performance.now();
      s.rain?.recycle();
      const x = p.x[player], y = p.y[player];
      // On the ground: a surface's region holds the ball, or a polyhedron is just below it.
      const onGround = level === "surfaces" ? p.touchingSurfaces(x, y, PLATFORMER.radius) > 0 : p.polyhedraAt(x, y + 1, PLATFORMER.radius) > 0;
      const r0 = performance.now();
      draw(s.world, p, player);
      const r1 = performance.now();
      collisionTimes.push(now, t1 - t0);
      renderTimes.push(now, r1 - r0);
      frameTimes.push(now, 0);
      probe.frames++;
      probe.contacts = contacts;
      probe.collisionMs = collisionTimes.median();
      probe.renderMs = renderTimes.median();
      probe.fps = frameTimes.rate();
      probe.x = x; probe.y = y; probe.vx = p.vx[player]; probe.vy = p.vy[player];
      probe.onGround = onGround;
      probe.groundFrames = onGround ? probe.groundFrames + 1 : 0;
      probe.maxY = Math.max(probe.maxY, y);
      if (now >= nextHud) {
        nextHud = now + HUD_INTERVAL_MS;
        showHud(p);
      }
    } catch (err) {
      sim = null;
      probe.ready = false;
      recordError(err);
    }
  }

  // The level through debugDraw in the seed's colours (white surfaces, azure polyhedra), the rain's
  // balls filled, and the hit regions for the player's radius (the platforms' maxRadius) when ticked.
  const levelLayers = (1 << DrawLayer.Surfaces) | (1 << DrawLayer.Polyhedra) | (1 << DrawLayer.Balls);
  const drawing = {
    layers: levelLayers,
    fills: 1 << DrawLayer.Balls,
    hitRadius: PLATFORMER.radius,
    camera: { x: view.ox, y: view.oy, scale: view.scale },
    colours: { surface: 0xffffff, polyhedron: 0xf0ffff, ball: 0x6fa8ff, hitRegion: 0xff5a5a },
  } satisfies DebugDrawOptions;

  function draw(world: World, p: Platforms, player: number): void {
    ctx!.fillStyle = "#000";
    ctx!.fillRect(0, 0, W, H);
    drawing.layers = levelLayers | (overlayInput.checked ? 1 << DrawLayer.HitRegions : 0);
    debugDraw(world, ctx!, drawing);
    // The seed's drawPlayer: a rose solid circle, over its ball.
    ctx!.fillStyle = "#ff007f";
    ctx!.beginPath();
    ctx!.arc((p.x[player] - view.ox) * view.scale, (p.y[player] - view.oy) * view.scale, PLATFORMER.radius * view.scale, 0, 2 * Math.PI);
    ctx!.fill();
  }

  function showHud(p: Platforms): void {
    const st = p.stats();
    const lines = [
      `fps        ${probe.fps.toFixed(1)}`,
      `collision  ${probe.collisionMs.toFixed(2)} ms  step, median 1 s`,
      `render     ${probe.renderMs.toFixed(2)} ms`,
      `balls      ${probe.balls.toLocaleString("en-US")}, ${probe.contacts.toLocaleString("en-US")} contacts`,
      `tested     ${(st.candidates / Math.max(st.substeps, 1)).toFixed(2)} ${level} per ball-substep`,
      `backend    ${probe.backend}${probe.backend === "wasm" ? "" : " (the core compiled to JavaScript)"}`,
      `player     ${probe.onGround ? "on the ground" : "in the air"} at ${probe.x.toFixed(0)}, ${probe.y.toFixed(0)}`,
    ];
    if (!crossOriginIsolated) lines.push("timers     coarse (page not cross-origin isolated)");
    hud.textContent = lines.join("\n");
  }

  function recordError(err: unknown): void {
    showError(probe.errors, hud, err, MAX_ERRORS);
  }
}

