// `npm run bench:simd`: the two packaged cores, hitcore.wasm and hitcore-simd.wasm, interleaved in
// one process on the peers scenes (fixtures/box_scenes.ts) and on MovingCircles (fixtures/scenes.ts).
// Each core runs three worlds per scene (worlds land on luckier or unluckier memory); rounds
// alternate the cores and the worlds; a core's time is the least, over rounds and worlds, of its
// mean ms per frame over FRAMES frames, so a noisy machine's slow spells drop out. Both cores must
// report the same pair counts first. Writes bench/results/simd.md.
//
// Knobs: BENCH_ROUNDS (default 20; a run takes about 3 minutes), BENCH_SIZES (default 10000,100000).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { interleave, sceneRun, type Run } from "./core_runs.js";
import { machine } from "./harness.js";
import { Progress } from "./progress.js";
import { MODES, SHAPES } from "../fixtures/box_scenes.js";

// The bench runs from build/bench/.
const dist = new URL("../../dist/", import.meta.url);
const results = new URL("../../bench/results/", import.meta.url);
const CORES = [["scalar", "hitcore.wasm"], ["SIMD", "hitcore-simd.wasm"]] as const;
const WORLDS = 3;
const FRAMES = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);

const bytes = CORES.map(([, file]) => readFileSync(new URL(file, dist)));
const scenes: { name: string; n: number; make(core: Uint8Array): Promise<Run> }[] = [];
for (const n of SIZES) {
  for (const name of [...MODES.flatMap((mode) => SHAPES.map((shape) => `${shape} ${mode}`)), "circles self"]) scenes.push({ name, n, make: (b) => sceneRun(name, n, b) });
}

const rows: string[] = [];
const progress = new Progress("bench:simd", scenes.length, scenes.reduce((sum, s) => sum + s.n, 0));
for (const scene of scenes) {
  progress.step(`${scene.name}, N=${scene.n}`, scene.n);
  const runs: Run[][] = [];
  for (const b of bytes) {
    const worlds: Run[] = [];
    for (let w = 0; w < WORLDS; w++) worlds.push(await scene.make(b));
    runs.push(worlds);
  }
  const counts = runs.map((worlds) => worlds[0].frame());
  if (counts.some((c) => c !== counts[0])) throw new Error(`${scene.name} ${scene.n}: the cores disagree (${counts.join(" vs ")} pairs)`);
  const best = interleave(runs, ROUNDS, FRAMES);
  const row = `| ${scene.name} | ${scene.n.toLocaleString("en-US")} | ${best[0].toFixed(3)} | ${best[1].toFixed(3)} | ${(best[1] / best[0]).toFixed(2)} |`;
  console.log(row);
  rows.push(row);
}

progress.done();
const sizes = CORES.map(([, file], k) => `${file} ${bytes[k].length.toLocaleString("en-US")} bytes, ${gzipSync(bytes[k], { level: 9 }).length.toLocaleString("en-US")} gzipped`);
const md = [
  "# hitcore.wasm against hitcore-simd.wasm",
  "",
  `\`npm run bench:simd\` on: ${machine()}.`,
  `Interleaved in one process, ${WORLDS} worlds per core, ${ROUNDS} rounds of ${FRAMES} frames; the least mean ms per frame (every box moves every frame). ${sizes.join("; ")}.`,
  "",
  "| scene | N | scalar ms | SIMD ms | SIMD / scalar |",
  "|---|---:|---:|---:|---:|",
  ...rows,
  "",
].join("\n");
mkdirSync(results, { recursive: true });
writeFileSync(new URL("simd.md", results), md);
console.log(`\nwrote bench/results/simd.md`);
