// The cast workloads: 1,000 swept boxes (and, for comparison, swept circles of the same half
// diagonal) per sample against a random level of surfaces and polyhedra, wasm against js; and the
// same boxes cast across the world's rect level and platforms (world.castBox, one call per box, and
// world.castMany, one call for all of them).
import { Bench } from "tinybench";
import { createWorld, Sweep, type Platforms, type World } from "../bindings/node.js";
import { backends, TIME_MS, wasm } from "./harness.js";
import { Progress } from "./progress.js";
import { randomPolygons, randomSurfaces } from "../fixtures/platform_levels.js";
import { mulberry32 } from "../fixtures/random.js";

const CASTS = 1000;
const SIDE = 2000;

/** Box casts as (x, y, w, h, dx, dy) sextuples, up to 14 x 14, moving up to 200. */
function boxes(seed: number): Float64Array {
  const rand = mulberry32(seed);
  const out = new Float64Array(6 * CASTS);
  for (let i = 0; i < CASTS; i++) {
    const a = rand() * 2 * Math.PI, len = rand() * 200;
    out.set([rand() * SIDE, rand() * SIDE, rand() * 14, rand() * 14, Math.cos(a) * len, Math.sin(a) * len], 6 * i);
  }
  return out;
}

interface Level { world: World; p: Platforms }

async function level(backend: (typeof backends)[number]): Promise<Level> {
  const world = await createWorld({ backend, wasm });
  const p = world.addPlatforms({ maxRadius: 10 });
  p.addSurfaces(randomSurfaces(2000, 3, SIDE));
  for (const poly of randomPolygons(600, 4, SIDE)) p.addPolygon(poly);
  p.addHalfspaces([0, -1, -(SIDE + 20)]); // the ground: y >= SIDE + 20, just below the level (y down)
  const r = world.addRectLevel();
  const rand = mulberry32(5);
  const prefab = r.addPrefab([0, 0, 40, 10, 15, 10, 10, 40]);
  for (let i = 0; i < 1500; i++) r.addInstance(prefab, Math.round(rand() * SIDE), Math.round(rand() * SIDE));
  r.build();
  // castMany's inputs: the same boxes as centre and half extents.
  world.ensureCasts(CASTS);
  const input = world.castInputs, casts = boxes(9);
  for (let i = 0; i < CASTS; i++) {
    const o = 6 * i, hw = casts[o + 2] / 2, hh = casts[o + 3] / 2;
    input.set([casts[o] + hw, casts[o + 1] + hh, casts[o + 4], casts[o + 5], hw, hh], o);
  }
  return { world, p };
}

/** Runs the cast workloads; returns the markdown section. */
export async function benchCasts(): Promise<string[]> {
  const casts = boxes(9);
  const worlds = await Promise.all(backends.map(level));
  // Both backends must give the same answers before they are timed.
  let hits = 0;
  for (let i = 0; i < CASTS; i++) {
    const o = 6 * i;
    const seen = worlds.map(({ p }) => (p.castBox(casts[o], casts[o + 1], casts[o + 2], casts[o + 3], casts[o + 4], casts[o + 5]) ? `${p.hit.part}:${p.hit.shape}:${p.hit.t}` : "-"));
    if (seen[0] !== seen[1]) throw new Error(`box cast ${i}: wasm ${seen[0]}, js ${seen[1]}`);
    if (seen[0] !== "-") hits++;
    const across = worlds.map(({ world: w }) => (w.castBox(casts[o], casts[o + 1], casts[o + 2], casts[o + 3], casts[o + 4], casts[o + 5]) ? `${w.hit.part}:${w.hit.shape}:${w.hit.t}` : "-"));
    if (across[0] !== across[1]) throw new Error(`world box cast ${i}: wasm ${across[0]}, js ${across[1]}`);
  }
  const workloads: [string, (w: Level) => void][] = [
    ["Platforms.castBox", ({ p }) => {
      for (let o = 0; o < 6 * CASTS; o += 6) p.castBox(casts[o], casts[o + 1], casts[o + 2], casts[o + 3], casts[o + 4], casts[o + 5]);
    }],
    ["Platforms.castCircle (same half diagonal)", ({ p }) => {
      for (let o = 0; o < 6 * CASTS; o += 6) {
        const r = Math.sqrt(casts[o + 2] * casts[o + 2] + casts[o + 3] * casts[o + 3]) / 2;
        p.castCircle(casts[o] + casts[o + 2] / 2, casts[o + 1] + casts[o + 3] / 2, r, casts[o + 4], casts[o + 5]);
      }
    }],
    ["world.castBox (rects and platforms)", ({ world }) => {
      for (let o = 0; o < 6 * CASTS; o += 6) world.castBox(casts[o], casts[o + 1], casts[o + 2], casts[o + 3], casts[o + 4], casts[o + 5]);
    }],
    ["world.castMany (rects and platforms, one call)", ({ world }) => { world.castMany(CASTS, Sweep.Box); }],
  ];
  const rows: string[] = [];
  const progress = new Progress("casts", workloads.length);
  for (const [name, run] of workloads) {
    progress.step(name);
    const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 10, iterations: 20 });
    worlds.forEach((w, k) => bench.add(backends[k], () => run(w)));
    await bench.run();
    const [tw, tj] = bench.tasks.map((t) => {
      const r = t.result;
      if (r.state !== "completed") throw new Error(`${name} ${t.name}: ${r.state}`);
      return r.latency;
    });
    const row = `| ${name} | ${tw.p50.toFixed(3)} | ${tw.p99.toFixed(3)} | ${tj.p50.toFixed(3)} | ${tj.p99.toFixed(3)} | ${(tj.p50 / tw.p50).toFixed(2)}x | ${((tw.p50 * 1e6) / CASTS).toFixed(0)} |`;
    rows.push(row);
    console.log(row);
  }
  return [
    "## Casts (swept boxes against surfaces and polyhedra; the world's casts across parts)",
    "",
    `${CASTS.toLocaleString("en-US")} casts per sample (boxes up to 14 x 14, motion up to 200) over a ${SIDE} x ${SIDE} level of 2,000 surfaces, ` +
      `600 polyhedra and a ground halfspace (and 1,500 rect instances for the world's rows); ms per sample. ${hits} of the boxes hit the platforms; both backends gave the same hits first.`,
    "",
    "| workload | wasm median | wasm p99 | js median | js p99 | js / wasm | wasm ns per cast |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  ];
}
