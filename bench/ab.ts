// `npm run bench:ab -- old.wasm new.wasm [scene ...]`: two builds of the core (or more) on the same
// scenes, interleaved in one process, as `npm run bench:simd` times the two packaged cores. Before
// timing, every build must give the same pairs, in the same order, with the same stats, call by
// call; a build that differs stops the run with the scene and frame. Prints, per scene, each
// build's least mean ms per frame and its ratio to the first build (new / old below 1 is faster),
// then the median ratio of frame-by-frame pairs against the first build (core_runs.paired), the
// steadier of the two on a machine whose speed wanders.
//
// Scenes are named as in bench/results/simd.md ("circles self", "clustered bipartite", ...);
// default: circles self and the six box scenes. Knobs: BENCH_SIZES (default 10000,100000),
// BENCH_ROUNDS (default 12), BENCH_WORLDS (worlds per build, default 2), BENCH_PAIRS (frame
// pairs per build, default 400; 0 leaves the paired ratios out).
import { readFileSync } from "node:fs";
import { interleave, paired, sceneRun, type Run } from "./core_runs.js";
import { MODES, SHAPES } from "../fixtures/box_scenes.js";
import { Progress } from "./progress.js";

const FRAMES = 8;
const CHECKED_FRAMES = 3;
const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith(".wasm"));
const named = args.filter((a) => !a.endsWith(".wasm"));
if (files.length < 2) throw new Error("bench:ab needs two or more .wasm files: npm run bench:ab -- old.wasm new.wasm [scene ...]");
const known = ["circles self", ...MODES.flatMap((m) => SHAPES.map((s) => `${s} ${m}`))];
for (const name of named) if (!known.includes(name)) throw new Error(`bench:ab: no scene "${name}"; scenes are ${known.join(", ")}`);
const scenes = named.length > 0 ? named : known;
const sizes = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
const worlds = Number(process.env.BENCH_WORLDS ?? 2);
const pairs = Number(process.env.BENCH_PAIRS ?? 400);
const bytes = files.map((f) => readFileSync(f));

/** What a call left behind, for comparing builds: its pairs in order and its stats. */
function outcome(run: Run, count: number): string {
  const w = run.world;
  return `${count} ${JSON.stringify(w.stats())} ${w.pairs.subarray(0, 2 * Math.min(count, w.pairs.length >> 1)).join(",")}`;
}

const progress = new Progress("bench:ab", sizes.length * scenes.length, scenes.length * sizes.reduce((sum, n) => sum + n, 0));
for (const n of sizes) {
  for (const name of scenes) {
    progress.step(`${name}, N=${n}`, n);
    const runs: Run[][] = [];
    for (const b of bytes) {
      const list: Run[] = [];
      for (let w = 0; w < worlds; w++) list.push(await sceneRun(name, n, b));
      runs.push(list);
    }
    for (let f = 0; f < CHECKED_FRAMES; f++) {
      const seen = runs.map((list) => { list[0].step(); return outcome(list[0], list[0].frame()); });
      const k = seen.findIndex((s) => s !== seen[0]);
      if (k > 0) throw new Error(`${name} ${n}, frame ${f + 1}: ${files[k]} gives other pairs, order or stats than ${files[0]}`);
    }
    const best = interleave(runs, rounds, FRAMES);
    console.log(`${name} ${n.toLocaleString("en-US")}: ` + files.map((f, j) => `${f} ${best[j].toFixed(3)} ms` + (j > 0 ? ` (${(best[j] / best[0]).toFixed(3)})` : "")).join(", "));
    if (pairs > 0) {
      const ratio = paired(runs.map((list) => list[0]), pairs);
      console.log(`  paired, median of ${pairs} frame pairs: ` + files.slice(1).map((f, j) => `${f} / ${files[0]} ${ratio[j + 1].toFixed(3)}`).join(", "));
    }
  }
}
progress.done();
