// debugDraw on the one-world scene of bench/world.ts (50,000 bullets, 1,500 enemies, 10,000 tiles,
// 1,000 prefab rects, 1,000 surfaces, 500 polyhedra) after a frame: every layer into a DrawStream,
// and that stream replayed onto a 2D context that does nothing (what the sink itself costs; a
// browser's canvas then rasterises what it is given). The wasm-simd core.
import { Bench } from "tinybench";
import { debugDraw, DrawStream, drawStream, type DebugCanvas } from "../bindings/node.js";
import { arenaWorld, frame } from "./world.js";
import { simdWasm, TIME_MS } from "./harness.js";

/** A context whose calls do nothing. */
const idle: DebugCanvas = {
  canvas: { width: 1600, height: 1600 }, strokeStyle: "", fillStyle: "", lineWidth: 1,
  save() {}, restore() {}, beginPath() {}, closePath() {}, moveTo() {}, lineTo() {}, rect() {}, arc() {}, stroke() {}, fill() {},
};

/** Times debugDraw into a stream and drawStream onto the idle context; returns the markdown section. */
export async function benchDebugDraw(): Promise<string[]> {
  const world = await arenaWorld("wasm", simdWasm);
  frame(world);
  const stream = new DrawStream();
  debugDraw(world, stream);
  const bench = new Bench({ time: TIME_MS, warmupTime: 300, warmupIterations: 5, iterations: 10 });
  bench.add("stream", () => { debugDraw(world, stream); });
  bench.add("replay", () => { drawStream(stream, idle); });
  await bench.run();
  const ms = bench.tasks.map((t) => {
    if (t.result.state !== "completed") throw new Error(`debugDraw ${t.name}: ${t.result.state}`);
    return t.result.latency;
  });
  const row = `| every layer of the one-world scene after a frame | ${stream.count.toLocaleString("en-US")} | ${(4 * stream.length / 1024).toFixed(0)} KB | ` +
    `${ms[0].p50.toFixed(3)} / ${ms[0].p99.toFixed(3)} | ${ms[1].p50.toFixed(3)} / ${ms[1].p99.toFixed(3)} |`;
  console.log(row);
  return [
    "## Debug drawing",
    "",
    "debugDraw into a DrawStream, and drawStream of that stream onto a 2D context whose calls do nothing; ms median / p99 (wasm-simd).",
    "",
    "| scene | commands | stream | debugDraw | drawStream |",
    "|---|---:|---:|---:|---:|",
    row,
    "",
  ];
}
