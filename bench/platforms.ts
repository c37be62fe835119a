// The platforms workloads: 10,000 balls raining on a level of surfaces (seed 000) or polyhedra
// (seed 001), one batch step per frame, wasm against js, at two level sizes 10x apart to show
// the per-ball cost stays flat (the static grid).
import { Bench } from "tinybench";
import { createWorld, type Platforms } from "../bindings/node.js";
import { backends, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";
import { PlatformRain, randomPolygons, randomSurfaces } from "../fixtures/platform_levels.js";

const BALLS = Number(process.env.BENCH_BALLS ?? 10000);
const SURFACES = (process.env.BENCH_SURFACES ?? "1000,10000").split(",").map(Number);
const POLYHEDRA = (process.env.BENCH_POLYHEDRA ?? "200,2000").split(",").map(Number);
const DT = 1 / 60;

interface Workload {
  name: string;
  level: number;
  build(p: Platforms): PlatformRain;
}

function surfaces(n: number): Workload {
  return {
    name: "balls on surfaces", level: n,
    build(p) {
      p.addSurfaces(randomSurfaces(n, 1));
      const side = Math.sqrt(n) * 60;
      return new PlatformRain(p, BALLS, [0, 0, side, side], 2);
    },
  };
}

function polyhedra(n: number): Workload {
  return {
    name: "balls on polyhedra", level: n,
    build(p) {
      for (const poly of randomPolygons(n, 1)) p.addPolygon(poly);
      const side = Math.sqrt(n) * 100;
      return new PlatformRain(p, BALLS, [0, 0, side, side], 2);
    },
  };
}

/** FNV-1a over the ball positions' bits. */
function stateHash(p: Platforms): number {
  const bits = new Uint32Array(p.x.buffer, p.x.byteOffset, p.ballCount);
  const bitsY = new Uint32Array(p.y.buffer, p.y.byteOffset, p.ballCount);
  let h = 0x811c9dc5;
  for (let i = 0; i < p.ballCount; i++) h = Math.imul(Math.imul(h ^ bits[i], 16777619) ^ bitsY[i], 16777619);
  return h >>> 0;
}

/** Steps the same rain on both backends; throws if they ever disagree. Returns the runs, warmed up. */
async function agree(w: Workload): Promise<{ p: Platforms; rain: PlatformRain }[]> {
  const runs = await Promise.all(backends.map(async (backend) => {
    const p = (await createWorld({ backend, wasm })).addPlatforms({ ballCapacity: BALLS, maxRadius: 10 });
    return { p, rain: w.build(p) };
  }));
  for (let f = 0; f < 120; f++) {
    const seen = runs.map(({ p, rain }) => { const c = p.step(DT); rain.recycle(); return `${c}/${stateHash(p)}`; });
    if (seen[0] !== seen[1]) throw new Error(`${w.name} (${w.level}) frame ${f}: wasm ${seen[0]}, js ${seen[1]} (contacts/hash)`);
  }
  return runs;
}

/** Runs the platforms workloads; returns the markdown section. */
export async function benchPlatforms(): Promise<string[]> {
  const rows: string[] = [];
  const workloads = [...SURFACES.map(surfaces), ...POLYHEDRA.map(polyhedra)];
  const progress = new Progress("platforms", workloads.length);
  for (const w of workloads) {
    progress.step(w.name);
    const runs = await agree(w);
    const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 20, iterations: 30 });
    runs.forEach(({ p, rain }, k) => bench.add(backends[k], () => p.step(DT), { afterEach: () => { rain.recycle(); } }));
    await bench.run();
    const [tw, tj] = bench.tasks.map((t) => {
      const r = t.result;
      if (r.state !== "completed") throw new Error(`${w.name} ${t.name}: ${r.state}`);
      return r.latency;
    });
    const stats = runs[0].p.stats();
    const perBall = stats.candidates / stats.substeps;
    const row = `| ${w.name} | ${w.level.toLocaleString("en-US")} | ${BALLS.toLocaleString("en-US")} | ${perBall.toFixed(2)} | ${tw.p50.toFixed(3)} | ${tw.p99.toFixed(3)} | ` +
      `${tj.p50.toFixed(3)} | ${tj.p99.toFixed(3)} | ${(tj.p50 / tw.p50).toFixed(2)}x | ${((tw.p50 * 1e6) / stats.substeps).toFixed(1)} |`;
    rows.push(row);
    console.log(row);
  }
  return [
    "## Platforms (surfaces, polyhedra, balls)",
    "",
    "Balls rain on a random level (density constant as it grows); each sample is one `step(1/60)` for every ball; ms per frame. " +
      "Candidates are the surfaces or polyhedra tested per ball per sub-step (the grid keeps it flat as the level grows).",
    "",
    "| workload | level size | balls | candidates per ball-substep | wasm median | wasm p99 | js median | js p99 | js / wasm | wasm ns per ball-substep |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Both backends stepped the same rain for 120 frames first and held identical positions (hash of the f32 bits) every frame.",
    "",
  ];
}
