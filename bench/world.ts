// One world's frame: 50,000 bullets moved against a level of every kind (10,000 tiles, 1,000
// prefab rects, 1,000 surfaces, 500 polyhedra) with ricochets, then their first hits against 1,500
// enemies: two calls, on the SIMD core, the scalar core and the js backend.
import { Bench } from "tinybench";
import * as hitcore from "../bindings/node.js";
import { Part, Response, type World } from "../bindings/node.js";
import { mulberry32 } from "../fixtures/random.js";
import { simdWasm, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";

const BULLETS = Number(process.env.BENCH_WORLD_BULLETS ?? 50000);
const ENEMIES = 1500;
const T = 16, COLS = 100, ROWS = 100, SIDE = COLS * T;
const BULLET = 1, ENEMY = 2;

/** What the scene needs of a build of hitcore (this one, or another checkout's: bench/world_ab.ts). */
export type Hitcore = Pick<typeof hitcore, "createWorld" | "TileCell">;

/** The level and the bodies, the same on every core (one seed), in a world of `lib`. */
export async function arenaWorld(backend: "wasm" | "js", core?: URL, lib: Hitcore = hitcore): Promise<World> {
  const { TileCell } = lib;
  const world = await lib.createWorld({ backend, wasm: core, capacity: BULLETS + ENEMIES });
  const rand = mulberry32(2027);
  const map = world.addTileMap({ cols: COLS, rows: ROWS, tileSize: T });
  for (let row = 0; row < ROWS; row++) {
    for (let col = 0; col < COLS; col++) {
      const v = rand();
      if (v < 0.06) map.setCell(col, row, TileCell.Platform);
      else if (v < 0.08) map.setCell(col, row, TileCell.OneWay);
    }
  }
  const level = world.addRectLevel();
  const prefab = level.addPrefab([0, 0, 24, 4, 0, 4, 4, 20, 20, 4, 4, 20, 8, 20, 8, 4]); // 4 rects
  for (let k = 0; k < 250; k++) level.addInstance(prefab, Math.floor(rand() * (SIDE - 24)), Math.floor(rand() * (SIDE - 24)), k & 1);
  const plat = world.addPlatforms({ maxRadius: 4 });
  for (let k = 0; k < 1000; k++) {
    const x = rand() * (SIDE - 60), y = rand() * (SIDE - 60);
    plat.addSurface(x, y, x + 10 + rand() * 40, y + rand() * 20 - 10);
  }
  for (let k = 0; k < 500; k++) {
    const x = rand() * (SIDE - 30), y = rand() * (SIDE - 30), s = 6 + rand() * 10;
    plat.addPolygon([x, y, x + s, y, x + s, y + s, x, y + s]);
  }
  for (let k = 0; k < ENEMIES; k++) world.addRect(rand() * (SIDE - 16), rand() * (SIDE - 16), 12, 12, ENEMY);
  for (let k = 0; k < BULLETS; k++) {
    const s = world.indexOf(world.addCircle(rand() * SIDE, rand() * SIDE, 2, BULLET));
    world.vx[s] = rand() * 12 - 6;
    world.vy[s] = rand() * 12 - 6;
  }
  return world;
}

/** One frame: the bullets moved, then their first hits; returns the hits. */
export function frame(world: World): number {
  world.moveBodies(BULLET, Response.Bounce, 1);
  return world.firstHits(BULLET, ENEMY);
}

/** A hash of every body's position. */
export function hash(world: World): number {
  let h = 0x811c9dc5;
  const bytes = new Uint8Array(world.x.buffer, world.x.byteOffset, 4 * world.count);
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return h >>> 0;
}

/**
 * JS heap bytes per frame after warm-up: the least of six windows of 200 frames, each less what an
 * empty window just before it reads (process.memoryUsage allocates its own result), windows with a
 * collection in them (which read less than empty) left out. The least, because V8 allocates on its
 * own now and then (compiled code, feedback) while a window runs; a frame that allocated would show
 * in every window.
 */
function bytesPerFrame(world: World): number {
  const WINDOW = 200;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return NaN;
  for (let k = 0; k < 200; k++) frame(world);
  gc();
  const heapAfter = (frames: number) => {
    const start = process.memoryUsage().heapUsed;
    for (let k = 0; k < frames; k++) frame(world);
    return process.memoryUsage().heapUsed - start;
  };
  const windows = [0, 1, 2, 3, 4, 5].map(() => {
    const empty = heapAfter(0);
    return heapAfter(WINDOW) - empty;
  }).filter((bytes) => bytes >= 0);
  return windows.length > 0 ? Math.min(...windows) / WINDOW : NaN;
}

/** The three cores the frame runs on: name, backend, core file. */
const CORES = [["wasm-simd", "wasm", simdWasm], ["wasm-scalar", "wasm", wasm], ["js", "js", undefined]] as const;

/** `call` timed on each of CORES' worlds (`worlds`, in CORES' order) with tinybench: each one's latency, in ms. */
async function timeOnCores(what: string, worlds: World[], call: (w: World) => void) {
  const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 5, iterations: 10 });
  CORES.forEach(([name], k) => bench.add(name, () => call(worlds[k])));
  await bench.run();
  return bench.tasks.map((t) => {
    if (t.result.state !== "completed") throw new Error(`world ${what} ${t.name}: ${t.result.state}`);
    return t.result.latency;
  });
}

/** A level group no part of the scene's level is in: a levelMask of it sweeps against nothing. */
const NO_LEVEL = 2;
/** A group no body of the scene is in: moveBodies with it as its mask runs the check pass and moves nobody. */
const NOBODY = 4;

/** The frame's calls apart on each core (moveBodies against the whole level and against none, firstHits), each on fresh worlds: markdown rows. */
async function timeCalls(): Promise<string[]> {
  const calls: [string, (w: World) => void][] = [
    ["moveBodies, the whole level", (w) => { w.moveBodies(BULLET, Response.Bounce, 1); }],
    ["moveBodies, no level part in `levelMask`", (w) => { w.moveBodies(BULLET, Response.Bounce, 1, NO_LEVEL); }],
    ["moveBodies, a `mask` no body is in (its check pass)", (w) => { w.moveBodies(NOBODY, Response.Bounce, 1); }],
    ["firstHits", (w) => { w.firstHits(BULLET, ENEMY); }],
  ];
  const rows: string[] = [];
  for (const [name, call] of calls) {
    const worlds = await Promise.all(CORES.map(([, backend, core]) => arenaWorld(backend, core)));
    const ms = await timeOnCores(name, worlds, call);
    rows.push(`| ${name} | ${ms.map((l) => `${l.p50.toFixed(3)} / ${l.p99.toFixed(3)}`).join(" | ")} |`);
    worlds.forEach((w) => w.dispose());
  }
  return rows;
}

/**
 * What the level asks of `world`'s next frame, which this plays: how many bullets have a level
 * shape within their reach (their radius plus their speed: what the frame's move can touch),
 * counted with overlapLevel in a second world of the same scene whose bullets are circles of that
 * reach; how many of those then hit, and how many of those start inside (t = 0: they stay).
 */
async function levelDemand(world: World): Promise<{ bullets: number; inReach: number; hit: number; inside: number }> {
  const probe = await arenaWorld("wasm", simdWasm);
  let bullets = 0;
  for (let s = 0; s < world.count; s++) {
    if (world.groups[s] !== BULLET) continue;
    bullets++;
    probe.setCircle(probe.idAt(s), world.x[s], world.y[s], world.a[s] + Math.hypot(world.vx[s], world.vy[s]));
  }
  const inReach = probe.overlapLevel(BULLET);
  probe.dispose();
  const hit = world.moveBodies(BULLET, Response.Bounce, 1);
  let inside = 0;
  for (let s = 0; s < world.count; s++) {
    // Inside: a hit at t = 0 with a zero normal (one at t = 0 with a normal is a touch moving in).
    if (world.groups[s] === BULLET && world.hitPart[s] !== Part.None && world.hitT[s] === 0 && world.hitNx[s] === 0 && world.hitNy[s] === 0) inside++;
  }
  world.firstHits(BULLET, ENEMY);
  return { bullets, inReach, hit, inside };
}

/** Runs the one-world frame; returns the markdown section. */
export async function benchWorld(): Promise<string[]> {
  const progress = new Progress("world", 5);
  progress.step("the level on three cores, three frames compared");
  const worlds = await Promise.all(CORES.map(([, backend, core]) => arenaWorld(backend, core)));
  // Every core plays the same frames.
  for (let f = 0; f < 3; f++) {
    const seen = worlds.map((w) => `${frame(w)}/${hash(w)}`);
    if (new Set(seen).size !== 1) throw new Error(`world frame ${f}: the cores disagree (${seen.join(", ")})`);
  }
  progress.step("the frame timed on each core");
  const ms = await timeOnCores("frame", worlds, (w) => { frame(w); });
  progress.step("the frame's two calls timed apart, on fresh worlds");
  const parts = await timeCalls();
  progress.step("JS heap bytes per frame");
  const bytes = bytesPerFrame(worlds[0]);
  progress.step("what the level asks of the next frame");
  const demand = await levelDemand(worlds[0]);
  const share = (n: number) => `${n.toLocaleString("en-US")} (${(100 * n / demand.bullets).toFixed(0)}%)`;
  const name = `${BULLETS.toLocaleString("en-US")} bullets moved (ricochet) against ${(COLS * ROWS).toLocaleString("en-US")} tiles, 1,000 prefab rects, 1,000 surfaces and 500 polyhedra, then first hits against ${ENEMIES.toLocaleString("en-US")} enemies`;
  const row = `| ${name} | ${ms.map((l) => `${l.p50.toFixed(3)} / ${l.p99.toFixed(3)}`).join(" | ")} | ${(ms[2].p50 / ms[0].p50).toFixed(2)}x |`;
  console.log(row);
  return [
    "## One world: bullets against the level and the enemies",
    "",
    "moveBodies, then firstHits, per frame; ms median / p99.",
    "",
    "| frame | wasm-simd | wasm-scalar | js | js / wasm-simd |",
    "|---|---:|---:|---:|---:|",
    row,
    "",
    `The three cores played three frames first and left identical positions. The wasm-simd frame allocates ${bytes.toFixed(2)} JS heap bytes after warm-up (least of six windows of 200 frames after 200 frames of warm-up, each less the empty window's just before it).`,
    "",
    `What the level asks of a frame, counted on the wasm-simd world after its timed frames: ${share(demand.inReach)} of the ${demand.bullets.toLocaleString("en-US")} bullets have a level shape within their reach (radius plus speed), so no broad phase can spare them a test; ${share(demand.hit)} hit one, ${share(demand.inside)} of them starting inside it (they stay there: the scene places bullets at random, walls included).`,
    "",
    "The frame's calls timed apart, each on a fresh world of the same scene; ms median / p99. With `levelMask` meeting no part, moveBodies does everything but test the level: the floor under the frame's time that the level's geometry adds to. With a `mask` no body is in, it runs only the check pass that refuses bad values before anything moves.",
    "",
    "| call | wasm-simd | wasm-scalar | js |",
    "|---|---:|---:|---:|",
    ...parts,
    "",
  ];
}
