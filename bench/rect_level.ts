// The rects part's workloads: a level of 10,000 prefab instances with 1,000 characters stepping
// (quadtree against brute force over master boxes), view culling queries, and anti-tunneling
// projectiles in a thin-wall arena; wasm against the TS baseline.
import { Bench } from "tinybench";
import { createWorld, type RectLevel, Search } from "../bindings/node.js";
import { backends, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";
import { dropCharacters, randomInputs, randomLevel, randomLevelSide, thinWallArena } from "../fixtures/rect_levels.js";
import { mulberry32 } from "../fixtures/random.js";

const INSTANCES = Number(process.env.BENCH_RECT_INSTANCES ?? 10000);
const CHARACTERS = Number(process.env.BENCH_RECT_CHARACTERS ?? 1000);
const PROJECTILES = 10000;

interface Workload {
  name: string;
  make(backend: "wasm" | "js"): Promise<{ level: RectLevel; frame(): number; digest(): string }>;
}

async function characterLevel(backend: "wasm" | "js"): Promise<RectLevel> {
  const level = (await createWorld({ backend, wasm })).addRectLevel();
  randomLevel(level, INSTANCES, 1);
  dropCharacters(level, CHARACTERS, randomLevelSide(INSTANCES), 2);
  level.build();
  return level;
}

function characters(search: number, label: string): Workload {
  return {
    name: `${CHARACTERS.toLocaleString("en-US")} characters step, ${label}`,
    async make(backend) {
      const level = await characterLevel(backend);
      const rnd = mulberry32(7);
      return {
        level,
        frame: () => { randomInputs(level, rnd); return level.stepCharacters(search); },
        digest: () => `${hashF32(level.charX, CHARACTERS)}/${hashF32(level.charY, CHARACTERS)}`,
      };
    },
  };
}

function culling(search: number, label: string): Workload {
  return {
    name: `100 view-culling queries (960 x 600), ${label}`,
    async make(backend) {
      const level = await characterLevel(backend);
      const side = randomLevelSide(INSTANCES);
      let sum = 0;
      return {
        level,
        frame: () => {
          const rnd = mulberry32(5);
          sum = 0;
          for (let q = 0; q < 100; q++) {
            const x = Math.floor(rnd() * side), y = Math.floor(rnd() * side);
            sum += level.queryBox(x, y, x + 960, y + 600, search);
          }
          return sum;
        },
        digest: () => String(sum),
      };
    },
  };
}

function projectiles(): Workload {
  return {
    name: `${PROJECTILES.toLocaleString("en-US")} projectiles, thin walls, speeds up to 100`,
    async make(backend) {
      const level = (await createWorld({ backend, wasm })).addRectLevel({ projectileCapacity: PROJECTILES });
      thinWallArena(level, 200, 2000, 9);
      const rnd = mulberry32(21);
      for (let q = 0; q < PROJECTILES; q++) {
        const speed = rnd() * 100, angle = rnd() * 2 * Math.PI;
        level.projX[q] = 1 + rnd() * 1998; level.projY[q] = 1 + rnd() * 1998;
        level.projVX[q] = Math.cos(angle) * speed; level.projVY[q] = Math.sin(angle) * speed; level.projR[q] = q % 2 ? 2 : 0;
      }
      return {
        level,
        frame: () => level.moveProjectiles(PROJECTILES),
        digest: () => `${hashF32(level.projX, PROJECTILES)}/${hashF32(level.projY, PROJECTILES)}`,
      };
    },
  };
}

const bits = new Float32Array(1);
const bitsU = new Uint32Array(bits.buffer);
function hashF32(a: Float32Array, n: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < n; k++) { bits[0] = a[k]; h = Math.imul(h ^ bitsU[0], 16777619); }
  return h >>> 0;
}

/** Runs five frames on both backends; throws if they ever disagree. Returns the tests of the last frame. */
async function agree(w: Workload): Promise<string> {
  const runs = await Promise.all(backends.map((b) => w.make(b)));
  for (let f = 0; f < 5; f++) {
    const seen = runs.map((r) => `${r.frame()}/${r.digest()}`);
    if (seen[0] !== seen[1]) throw new Error(`${w.name}: wasm gave ${seen[0]}, js gave ${seen[1]}`);
  }
  const s = runs[0].level.stats();
  return `${s.nodeSteps + s.instanceTests + s.rectTests}`;
}

/** Runs the rects workloads; returns the markdown section. */
export async function benchRects(): Promise<string[]> {
  const rows: string[] = [];
  const workloads = [
    characters(Search.Tree, "quadtree"), characters(Search.Boxes, "brute force over master boxes"),
    culling(Search.Tree, "quadtree"), culling(Search.Boxes, "brute force"), projectiles(),
  ];
  const progress = new Progress("rects", workloads.length);
  for (const w of workloads) {
    progress.step(w.name);
    const tests = await agree(w);
    const bench = new Bench({ time: TIME_MS, warmupTime: 200, warmupIterations: 10, iterations: 20 });
    for (const backend of backends) {
      const run = await w.make(backend);
      bench.add(backend, () => { run.frame(); });
    }
    await bench.run();
    const [tw, tj] = bench.tasks.map((t) => {
      const r = t.result;
      if (r.state !== "completed") throw new Error(`${w.name} ${t.name}: ${r.state}`);
      return r.latency;
    });
    const row = `| ${w.name} | ${tests} | ${tw.p50.toFixed(3)} | ${tw.p99.toFixed(3)} | ${tj.p50.toFixed(3)} | ${tj.p99.toFixed(3)} | ${(tj.p50 / tw.p50).toFixed(2)}x |`;
    rows.push(row);
    console.log(row);
  }
  return [
    `## Rectangle levels (${INSTANCES.toLocaleString("en-US")} prefab instances)`,
    "",
    "Each sample is one frame: one stepCharacters call (after writing random inputs), 100 queryBox calls, or one moveProjectiles call; ms.",
    "The tests column counts node steps + master boxes + rect tests of the last call of a 5-frame agreement run.",
    "",
    "| workload | tests (last call) | wasm median | wasm p99 | js median | js p99 | js / wasm |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Both backends ran the same frames first and agreed bit for bit (positions hashed).",
    "",
  ];
}
