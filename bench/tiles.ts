// The tile workloads: 10,000 entities with the seed's ten collision points each on a 1,000 x 1,000
// map, 10,000 swept boxes, and 10,000 platformer controllers, wasm against js. y grows downward;
// heights are drawn from the map's bottom edge up (H - y), which keeps the workloads, and so the
// figures in bench/results/bench.md, comparable with the seed's y-up frame.
import { Bench } from "tinybench";
import { createWorld, seedCollisionPoints, type TileMap } from "../bindings/node.js";
import { backends, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";
import { mulberry32 } from "../fixtures/random.js";
import { fillRandomCells, randomOrigins } from "../fixtures/tile_maps.js";

const N = Number(process.env.BENCH_TILE_ENTITIES ?? 10000);
const SIDE = Number(process.env.BENCH_TILE_SIDE ?? 1000);
const T = 16;
const MONSTERS = 20000;
const H = SIDE * T; // the map's height: heights are drawn from its bottom edge up

async function bigMap(backend: "wasm" | "js"): Promise<TileMap> {
  const m = (await createWorld({ backend, wasm })).addTileMap({ cols: SIDE, rows: SIDE, tileSize: T, wrap: true, entityCapacity: N, boxCapacity: N, controllerCapacity: N, monsterCapacity: MONSTERS });
  fillRandomCells(m.cells, SIDE, SIDE, 7);
  const rnd = mulberry32(8);
  for (let k = 0; k < MONSTERS; k++) m.addMonster(Math.floor(rnd() * SIDE * T), H - 12 - Math.floor(rnd() * (SIDE - 1) * T), 12, 12, k & 3);
  m.setPoints(seedCollisionPoints(T, 2 * T, T));
  return m;
}

interface Workload {
  name: string;
  make(m: TileMap): { step(): void; query(): number; hash(): number };
}

function fnv(h: number, v: number): number {
  return Math.imul(h ^ v, 16777619);
}

const points: Workload = {
  name: `collision points: ${N.toLocaleString("en-US")} entities x 10 points, ${SIDE} x ${SIDE} map, ${MONSTERS.toLocaleString("en-US")} monsters`,
  make(m) {
    randomOrigins(m.entityX, m.entityY, N, SIDE * T, SIDE * T, 9);
    for (let e = 0; e < N; e++) m.entityY[e] = H - m.entityY[e];
    const rnd = mulberry32(10);
    return {
      // Entities drift a few units per frame (timed: only the query).
      step: () => {
        const xs = m.entityX, ys = m.entityY;
        for (let e = 0; e < N; e++) { xs[e] = (xs[e] + 3 + SIDE * T) % (SIDE * T); ys[e] = (ys[e] - (rnd() < 0.5 ? -2 : 2) + H) % H; }
      },
      query: () => m.collidePoints(N),
      hash: () => {
        let h = 0x811c9dc5;
        const cells = m.pointCells, hits = m.pointHits, mons = m.pointMonsters;
        for (let k = 0; k < 10 * N; k++) h = fnv(fnv(fnv(h, cells[k]), hits[k]), mons[k]);
        return h >>> 0;
      },
    };
  },
};

const boxes: Workload = {
  name: `swept boxes: ${N.toLocaleString("en-US")} boxes, up to 3 tiles per frame, ${SIDE} x ${SIDE} map`,
  make(m) {
    const rnd = mulberry32(11);
    const b = m.boxes;
    for (let i = 0; i < N; i++) b.set([Math.floor(rnd() * SIDE * T), H - 20 - Math.floor(rnd() * SIDE * T), 12, 20, 0, 0], 6 * i);
    return {
      step: () => {
        for (let i = 0; i < N; i++) { b[6 * i + 4] = Math.floor(rnd() * 97) - 48; b[6 * i + 5] = 48 - Math.floor(rnd() * 97); }
      },
      query: () => m.moveBoxes(N),
      hash: () => {
        let h = 0x811c9dc5;
        for (let i = 0; i < N; i++) h = fnv(fnv(fnv(h, b[6 * i]), b[6 * i + 1]), m.boxContacts[i]);
        return h >>> 0;
      },
    };
  },
};

const controllers: Workload = {
  name: `controllers: ${N.toLocaleString("en-US")} platformers, random input`,
  make(m) {
    const rnd = mulberry32(12);
    for (let i = 0; i < N; i++) m.addController(Math.floor(rnd() * SIDE * T), H - Math.floor(rnd() * SIDE) * T);
    const inputs = m.controllerInts;
    let frame = 0;
    return {
      step: () => {
        if (frame++ % 10 === 0) for (let i = 0; i < N; i++) inputs[9 * i + 1] = Math.floor(rnd() * 32);
      },
      query: () => m.stepControllers(1 / 60),
      hash: () => {
        let h = 0x811c9dc5;
        const f = m.controllerReals;
        for (let k = 0; k < f.length; k++) h = fnv(h, Math.round(f[k] * 1024));
        return h >>> 0;
      },
    };
  },
};

/** Steps the same workload on both backends for a few frames; throws if they ever disagree. */
async function agree(w: Workload): Promise<number> {
  const runs = await Promise.all(backends.map(async (backend) => {
    const m = await bigMap(backend);
    return { m, frame: w.make(m) };
  }));
  let first = -1;
  for (let f = 0; f < 5; f++) {
    const seen = runs.map(({ frame }) => {
      frame.step();
      const n = frame.query();
      return `${n}/${frame.hash()}`;
    });
    if (seen[0] !== seen[1]) throw new Error(`${w.name}: wasm ${seen[0]}, js ${seen[1]} (count/hash)`);
    if (first < 0) first = Number(seen[0].split("/")[0]);
  }
  return first;
}

/** JS heap bytes per call on the wasm path after warm-up (least of three windows of 200 calls). */
async function bytesPerCall(w: Workload): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return NaN;
  const m = await bigMap("wasm");
  const frame = w.make(m);
  for (let k = 0; k < 100; k++) { frame.step(); frame.query(); }
  gc();
  return Math.min(...[0, 1, 2].map(() => {
    const start = process.memoryUsage().heapUsed;
    for (let k = 0; k < 200; k++) frame.query();
    return (process.memoryUsage().heapUsed - start) / 200;
  }));
}

/** Runs the tile workloads; returns the markdown section. */
export async function benchTiles(): Promise<string[]> {
  const rows: string[] = [];
  const notes: string[] = [];
  const workloads = [points, boxes, controllers];
  const progress = new Progress("tiles", workloads.length);
  for (const w of workloads) {
    progress.step(w.name);
    const found = await agree(w);
    const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 10, iterations: 20 });
    for (const backend of backends) {
      const m = await bigMap(backend);
      const frame = w.make(m);
      bench.add(backend, () => { frame.query(); }, { beforeEach: () => frame.step() });
    }
    await bench.run();
    const [tw, tj] = bench.tasks.map((t) => {
      const r = t.result;
      if (r.state !== "completed") throw new Error(`${w.name} ${t.name}: ${r.state}`);
      return r.latency;
    });
    const row = `| ${w.name} | ${found} | ${tw.p50.toFixed(3)} | ${tw.p99.toFixed(3)} | ${tj.p50.toFixed(3)} | ${tj.p99.toFixed(3)} | ${(tj.p50 / tw.p50).toFixed(2)}x |`;
    rows.push(row);
    console.log(row);
    const bytes = await bytesPerCall(w);
    const note = `${w.name.split(":")[0]}: the wasm call allocates ${bytes.toFixed(2)} JS heap bytes per call after warm-up (least of three windows of 200 calls)`;
    notes.push(note);
    console.log(note);
  }
  return [
    "## Tile map (tower platformer)",
    "",
    "One kernel call per frame over all entities; ms per frame.",
    "",
    "| workload | hits / touched / active (frame 1) | wasm median | wasm p99 | js median | js p99 | js / wasm |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Both backends ran the same workload for five frames first and reported identical outputs (count and hash).",
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ];
}
