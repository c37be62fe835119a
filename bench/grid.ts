// The bucket-grid workloads (bullet hell): self pairs of moving circles, bullets against enemies.
import { PerformanceObserver } from "node:perf_hooks";
import { Bench } from "tinybench";
import { createWorld, type World } from "../bindings/node.js";
import { backends, simdWasm, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";
import { BULLET, BulletHell, ENEMY, MovingCircles } from "../fixtures/scenes.js";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);

interface Workload {
  name: string;
  n: number;
  make(world: World): { step(): void; query(): number; after?(): void };
}

function circles(n: number): Workload {
  return {
    name: "circles self-collision", n,
    make(world) {
      const scene = new MovingCircles(world, n);
      return { step: () => scene.step(), query: () => world.selfPairs(BULLET) };
    },
  };
}

function bulletsVsEnemies(n: number): Workload {
  const enemies = Math.max(32, Math.round(n / 32));
  return {
    name: `bullets vs enemies, first hit (${enemies} enemies)`, n,
    make(world) {
      const side = Math.round(Math.sqrt(n) * 10);
      const hell = new BulletHell(world, { bullets: n, enemies, width: side, height: side });
      return { step: () => hell.step(1 / 60), query: () => world.firstHits(BULLET, ENEMY), after: () => hell.recycleHits() };
    },
  };
}

/** FNV-1a over the pair list, order included: the backends must agree on the winners, not only the count. */
function pairHash(world: World, count: number): number {
  const pairs = world.pairs;
  let h = 0x811c9dc5;
  for (let k = 0; k < 2 * count; k++) h = Math.imul(h ^ pairs[k], 16777619);
  return h >>> 0;
}

/** Steps the same scene on both backends for a few frames; throws if they ever disagree. */
async function agree(w: Workload): Promise<number> {
  const runs = await Promise.all(backends.map(async (backend) => {
    const world = await createWorld({ backend, wasm, capacity: Math.ceil(w.n * 1.05) + 64 });
    return { world, frame: w.make(world) };
  }));
  let first = -1;
  for (let f = 0; f < 5; f++) {
    const seen = runs.map(({ world, frame }) => {
      frame.step();
      const n = frame.query();
      const hash = w.name.startsWith("circles") ? sortedHash(world, n) : pairHash(world, n);
      frame.after?.();
      return `${n}/${hash}`;
    });
    if (seen[0] !== seen[1]) throw new Error(`${w.name} N=${w.n}: wasm found ${seen[0]}, js found ${seen[1]} (count/hash)`);
    if (first < 0) first = Number(seen[0].split("/")[0]);
  }
  return first;
}

/** Self pairs come in cell order; hash them sorted. */
function sortedHash(world: World, count: number): number {
  const keys = new Float64Array(count);
  for (let k = 0; k < count; k++) keys[k] = world.pairs[2 * k] * 4194304 + world.pairs[2 * k + 1];
  keys.sort();
  let h = 0x811c9dc5;
  for (let k = 0; k < count; k++) h = Math.imul(h ^ (keys[k] % 4294967296), 16777619);
  return h >>> 0;
}

/**
 * JS heap bytes allocated on the wasm path after warm-up: per collision call (the least of three
 * windows of 1,000 calls: V8's tier-up work may land on the heap during one, an allocation per call
 * shows in all three), and per whole frame (scene step, call, recycling) over 1,000 frames, with the
 * garbage collections seen. And wasm memory growth after warm-up.
 */
async function allocations(w: Workload): Promise<{ bytesPerFrame: number; bytesPerCall: number; memoryGrowth: number; scavenges: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const world = await createWorld({ backend: "wasm", wasm, capacity: Math.ceil(w.n * 1.05) + 64 });
  const frame = w.make(world);
  for (let f = 0; f < 2000; f++) { frame.step(); frame.query(); frame.after?.(); }
  const mem0 = world.memoryBytes;
  let scavenges = 0;
  const observer = new PerformanceObserver((list) => { scavenges += list.getEntries().length; });
  observer.observe({ entryTypes: ["gc"] });
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 10)); // let the forced collection's entry arrive first
  scavenges = 0;
  const before = process.memoryUsage().heapUsed;
  for (let f = 0; f < 1000; f++) { frame.step(); frame.query(); frame.after?.(); }
  const after = process.memoryUsage().heapUsed;
  await new Promise((resolve) => setTimeout(resolve, 10));
  observer.disconnect();
  // One forced collection before the windows, not one per window: a forced collection can drop
  // optimized code, and re-optimizing it lands on the heap of the next window (measured: 145 bytes
  // per call with a collection before each window, 0.3 without).
  gc?.();
  const perCall = [0, 1, 2].map(() => {
    const start = process.memoryUsage().heapUsed;
    for (let f = 0; f < 1000; f++) frame.query();
    return (process.memoryUsage().heapUsed - start) / 1000;
  });
  return {
    bytesPerFrame: gc ? (after - before) / 1000 : NaN, bytesPerCall: gc ? Math.min(...perCall) : NaN,
    memoryGrowth: world.memoryBytes - mem0, scavenges,
  };
}

/** Runs the grid workloads; returns the markdown section. */
export async function benchGrid(): Promise<string[]> {
  const rows: string[] = [];
  const notes: string[] = [];
  const workloads = SIZES.flatMap((n) => [circles(n), bulletsVsEnemies(n)]);
  const allocN = SIZES[Math.floor((SIZES.length - 1) / 2)];
  const allocs = workloads.filter((x) => x.n === allocN);
  const progress = new Progress("grid", workloads.length + allocs.length, [...workloads, ...allocs].reduce((sum, w) => sum + w.n, 0));
  for (const w of workloads) {
    progress.step(`${w.name}, N=${w.n}`, w.n);
    const pairs = await agree(w);
    const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 20, iterations: 30 });
    for (const backend of backends) {
      const world = await createWorld({ backend, wasm, capacity: Math.ceil(w.n * 1.05) + 64 });
      const frame = w.make(world);
      bench.add(backend, () => frame.query(), { beforeEach: () => frame.step(), afterEach: () => frame.after?.() });
    }
    await bench.run();
    const [tw, tj] = bench.tasks.map((t) => {
      const r = t.result;
      if (r.state !== "completed") throw new Error(`${w.name} ${t.name}: ${r.state}`);
      return r.latency;
    });
    const ratio = tj.p50 / tw.p50;
    const row = `| ${w.name} | ${w.n.toLocaleString("en-US")} | ${pairs} | ${tw.p50.toFixed(3)} | ${tw.p99.toFixed(3)} | ` +
      `${tj.p50.toFixed(3)} | ${tj.p99.toFixed(3)} | ${ratio.toFixed(2)}x |`;
    rows.push(row);
    console.log(row);
  }
  // Allocation is measured at the middle size: 5,000 frames at 100k would take minutes for the same answer.
  for (const w of allocs) {
    progress.step(`${w.name}, N=${w.n}: allocations`, w.n);
    const a = await allocations(w);
    const line = `${w.name}, N=${w.n}, wasm path after warm-up: the collision call allocates ${a.bytesPerCall.toFixed(2)} JS heap bytes per call ` +
      `(least of three windows of 1,000 calls); whole frames (scene step, call, recycling) ${a.bytesPerFrame.toFixed(2)} bytes per frame over 1,000 frames ` +
      `with ${a.scavenges} garbage collections; wasm memory grew ${a.memoryGrowth} bytes`;
    notes.push(line);
    console.log(line);
  }
  return [
    "## Bucket grid (bullet hell)",
    "",
    "Each sample is one frame's collision call after the scene moved; ms per frame.",
    "",
    "| workload | N | pairs (frame 1) | wasm median | wasm p99 | js median | js p99 | js / wasm |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Both backends stepped the same scene for five frames first and reported identical pairs (count and hash).",
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ];
}

/**
 * Writing a game's own f64 positions into the world each frame, 10,300 slots (the peers' bipartite
 * scene at 10k): setPositions against TypedArray.set into the x and y views, on each core and the js
 * backend; returns the markdown section.
 */
export async function benchPositions(): Promise<string[]> {
  const n = 10300;
  const xs = new Float64Array(n), ys = new Float64Array(n);
  for (let k = 0; k < n; k++) { xs[k] = (k * 7919) % 4000 + 0.25; ys[k] = (k * 104729) % 4000 + 0.75; }
  const cores: [string, { backend: "wasm" | "js"; wasm?: URL }][] = [["wasm", { backend: "wasm", wasm }], ["wasm-simd", { backend: "wasm", wasm: simdWasm }], ["js", { backend: "js" }]];
  const bench = new Bench({ time: TIME_MS / 2, warmupTime: 300, warmupIterations: 100 });
  for (const [name, options] of cores) {
    const world = await createWorld({ ...options, capacity: n });
    for (let k = 0; k < n; k++) world.addRect(0, 0, 1, 1);
    world.setPositions(xs, ys);
    if (world.x[n - 1] !== Math.fround(xs[n - 1]) || world.y[7] !== Math.fround(ys[7])) throw new Error(`positions on ${name}: setPositions wrote other values`);
    bench.add(`${name} setPositions`, () => world.setPositions(xs, ys));
    bench.add(`${name} views`, () => { world.x.set(xs); world.y.set(ys); });
  }
  await bench.run();
  const us = (name: string) => {
    const r = bench.tasks.find((t) => t.name === name)!.result;
    if (r.state !== "completed") throw new Error(`${name}: ${r.state}`);
    return r.latency.p50 * 1000;
  };
  const rows = cores.map(([name]) => {
    const api = us(`${name} setPositions`), views = us(`${name} views`);
    const row = `| ${name} | ${api.toFixed(1)} | ${views.toFixed(1)} | ${(views / api).toFixed(2)}x |`;
    console.log(row);
    return row;
  });
  return [
    "## Positions from a game's arrays",
    "",
    `${n.toLocaleString("en-US")} slots moved from two Float64Arrays each call; median microseconds per call. setPositions copies the arrays' bytes and checks and converts them in the core (the js backend runs the scalar pass); the views' TypedArray.set converts without a check.`,
    "",
    "| backend | setPositions us | x.set + y.set us | views / setPositions |",
    "|---|---:|---:|---:|",
    ...rows,
    "",
  ];
}
