// `npm run bench:peers`: hitcore (wasm, wasm SIMD when dist/hitcore-simd.wasm exists, js baseline)
// against check2d, rapier2d-simd, flatbush, rbush and box-intersect on the same moving scenes.
// Writes bench/results/peers.md (tables, a README-ready section) and bench/results/peers.svg.
//
// Knobs: BENCH_TIME_MS (timed ms per library and scene, default 300), BENCH_SIZES (default
// 1000,10000,50000,100000,250000), BENCH_FRAME_BUDGET_MS (skip a library at a size where it is
// predicted slower than this per frame, default 250; at 10k and 100k, the target sizes,
// only BENCH_MAX_FRAME_MS applies, default 2000), BENCH_PEERS / BENCH_SHAPES / BENCH_MODES
// (comma-separated subsets), BENCH_OUT (file stem, default "peers"), BENCH_ROUNDS (rounds per
// scene, default 3: the libraries take turns, each timed BENCH_TIME_MS / rounds a round).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createWorld } from "../../bindings/node.js";
import { machine, simdWasm as simd, wasm } from "../harness.js";
import { Progress } from "../progress.js";
import { boxIntersectPeer } from "./box_intersect.js";
import { check2dPeer } from "./check2d.js";
import { flatbushPeer } from "./flatbush.js";
import { hitcorePeer } from "./hitcore.js";
import type { Peer } from "./peer.js";
import { rapierPeer } from "./rapier.js";
import { rbushPeer } from "./rbush.js";
import { markdownReport, svgPlot } from "./report.js";
import { clockStep, medianNote, runPeers } from "./runner.js";
import { MODES, SHAPES, type Mode, type Shape } from "../../fixtures/box_scenes.js";

// The bench runs from build/bench/peers/.
const results = new URL("../../../bench/results/", import.meta.url);

const env = process.env;
const list = (v: string | undefined) => v?.split(",").map((s) => s.trim()).filter(Boolean);

const peers: Peer[] = [
  hitcorePeer("hitcore wasm", "wasm", createWorld, wasm),
  ...(existsSync(simd) ? [hitcorePeer("hitcore wasm-simd", "wasm", createWorld, simd)] : []),
  hitcorePeer("hitcore js", "js", createWorld),
  rapierPeer,
  flatbushPeer,
  boxIntersectPeer,
  rbushPeer,
  check2dPeer,
];
const onlyPeers = list(env.BENCH_PEERS);
for (const name of onlyPeers ?? []) {
  if (!peers.some((p) => p.name === name)) throw new Error(`BENCH_PEERS: no library "${name}"; they are ${peers.map((p) => p.name).join(", ")}`);
}
const chosen = onlyPeers ? peers.filter((p) => p.name === "hitcore wasm" || onlyPeers.includes(p.name)) : peers;
const shapes = (list(env.BENCH_SHAPES) ?? SHAPES) as Shape[];
const modes = (list(env.BENCH_MODES) ?? MODES) as Mode[];
for (const s of shapes) if (!SHAPES.includes(s)) throw new Error(`BENCH_SHAPES: no shape "${s}"; shapes are ${SHAPES.join(", ")}`);
for (const m of modes) if (!MODES.includes(m)) throw new Error(`BENCH_MODES: no mode "${m}"; modes are ${MODES.join(", ")}`);
const sizes = (list(env.BENCH_SIZES) ?? ["1000", "10000", "50000", "100000", "250000"]).map(Number);
const timeMs = Number(env.BENCH_TIME_MS ?? 300);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS=${env.BENCH_ROUNDS}: rounds per scene must be a whole number, 1 or more (default 3)`);
const frameBudgetMs = Number(env.BENCH_FRAME_BUDGET_MS ?? 250);
const maxFrameMs = Number(env.BENCH_MAX_FRAME_MS ?? 2000);
const mustSizes = [10000, 100000];
const stem = env.BENCH_OUT ?? "peers";

const knobs = ["BENCH_TIME_MS", "BENCH_SIZES", "BENCH_FRAME_BUDGET_MS", "BENCH_MAX_FRAME_MS", "BENCH_PEERS", "BENCH_SHAPES", "BENCH_MODES", "BENCH_OUT", "BENCH_ROUNDS"]
  .filter((k) => env[k] !== undefined).map((k) => `${k}=${env[k]} `).join("");
const command = `${knobs}npm run bench:peers`;
const gc = (globalThis as { gc?: () => void }).gc;

const started = Date.now();
const perSize = modes.length * shapes.length * rounds * chosen.length;
const progress = new Progress("bench:peers", perSize * sizes.length, perSize * sizes.reduce((sum, n) => sum + n, 0));
const all = await runPeers({
  peers: chosen, shapes, modes, sizes, timeMs, rounds, warmMs: Math.max(50, timeMs / 3), minFrames: 5, maxFrames: 3000,
  frameBudgetMs, mustSizes, maxFrameMs, checkFrames: 2, log: (line) => console.log(line), gc, progress: (what, n) => progress.step(what, n),
});
progress.done();
const seconds = Math.round((Date.now() - started) / 1000);

const core = readFileSync(wasm);
const notes = [
  `Node ${process.version}; ${seconds} s for the whole run.`,
  `hitcore.wasm: ${core.length.toLocaleString("en-US")} bytes, ${gzipSync(core, { level: 9 }).length.toLocaleString("en-US")} gzipped` +
    (existsSync(simd) ? `; hitcore-simd.wasm: ${gzipSync(readFileSync(simd), { level: 9 }).length.toLocaleString("en-US")} gzipped.` : " (no dist/hitcore-simd.wasm: no SIMD row)."),
  `Timed ${timeMs} ms per library and scene in ${rounds} round${rounds === 1 ? "" : "s"} (the libraries take turns, each set up and warmed up again every round, so a slow spell of the machine lands on all of them alike; median and p99 over all the frames; at least 5 frames, at most 3,000 a round); a library predicted slower than ${frameBudgetMs} ms per frame at the next N is skipped there (at N = 10,000 and 100,000 only above ${maxFrameMs} ms).`,
  medianNote(clockStep()),
];
mkdirSync(results, { recursive: true });
const title = `hitcore against its peers: median ms per frame (Node ${process.version})`;
writeFileSync(new URL(`${stem}.svg`, results), svgPlot(all, title));
writeFileSync(new URL(`${stem}.md`, results), markdownReport(all, chosen, { machine: machine(), command, notes, source: `\`npm run bench:peers\`, Node ${process.version}`, fullFile: `bench/results/${stem}.md` }, `${stem}.svg`));
console.log(`\n${machine()}\n${seconds} s; written to bench/results/${stem}.md and bench/results/${stem}.svg`);
