// The one-world frame of bench/world.ts on two built checkouts of hitcore, in one process:
//
//   npm run bench:world-ab -- /path/to/other/checkout [/path/to/second (default: this checkout)]
//
// Each checkout must be built (`npm run build`: its dist/). Both play the same frames, which must
// leave the same positions; then they alternate (A B, then B A) in rounds of a few frames, and the
// command prints each one's median ms per frame and the median of the rounds' ratios B / A, which
// holds when the machine's speed drifts during the run. Knobs: BENCH_BACKEND (wasm, the SIMD core;
// or js), BENCH_ROUNDS (12), BENCH_WORLD_BULLETS (50,000).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { arenaWorld, frame, hash, type Hitcore } from "./world.js";
import { Progress } from "./progress.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const FRAMES = 5;
const backend = process.env.BENCH_BACKEND === "js" ? "js" : "wasm";

async function checkout(root: string): Promise<{ root: string; lib: Hitcore; simd: URL }> {
  const dir = pathToFileURL(resolve(root) + "/");
  const lib = (await import(new URL("dist/bindings/node.js", dir).href)) as Hitcore;
  return { root, lib, simd: new URL("dist/hitcore-simd.wasm", dir) };
}

const roots = process.argv.slice(2);
if (roots.length < 1 || roots.length > 2) {
  console.error("usage: node build/bench/world_ab.js <checkout A> [checkout B, default: this one]");
  process.exit(2);
}
const builds = await Promise.all([roots[0], roots[1] ?? new URL("../..", import.meta.url).pathname].map(checkout));
const worlds = await Promise.all(builds.map((b) => arenaWorld(backend, backend === "wasm" ? b.simd : undefined, b.lib)));

const same = () => {
  const seen = worlds.map((w) => `${frame(w)}/${hash(w)}`);
  if (seen[0] !== seen[1]) throw new Error(`the two checkouts disagree: ${seen.join(" against ")}`);
};
for (let f = 0; f < 5; f++) same();
const ms: number[][] = [[], []];
const progress = new Progress("bench:world-ab", ROUNDS);
for (let round = 0; round < ROUNDS; round++) {
  progress.step(`round ${round + 1}: ${FRAMES} frames on each checkout`);
  for (const k of round % 2 === 0 ? [0, 1] : [1, 0]) {
    const t0 = performance.now();
    for (let f = 0; f < FRAMES; f++) frame(worlds[k]);
    ms[k].push((performance.now() - t0) / FRAMES);
  }
}
progress.done();
same();
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
const ratios = ms[0].map((a, k) => ms[1][k] / a);
console.log(`one-world frame (${backend}${backend === "wasm" ? ", SIMD core" : ""}), identical frames:`);
builds.forEach((b, k) => console.log(`  ${b.root}: ${median(ms[k]).toFixed(2)} ms`));
console.log(`  B / A, median of ${ROUNDS} paired rounds: ${median(ratios).toFixed(3)}`);
