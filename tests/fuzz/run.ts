// `npm run fuzz`: the long fuzz (tests/fuzz/harness.ts) on the wasm backend (the SIMD core) and the
// js backend, then the churn and the bullet-hell soak (tests/fuzz/churn.ts) on each, with progress lines.
//   npm run fuzz -- [--calls N] [--seed S] [--only fuzz|churn|soak] [--churn N] [--frames N]
// or FUZZ_CALLS, FUZZ_SEED, FUZZ_ONLY, CHURN_OPS, SOAK_FRAMES in the environment. N is the calls
// across both backends (default 1,000,000, half on each).
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { createWorld, type Backend, type CreateOptions, type World } from "../../bindings/node.js";
import { fuzz, type FuzzCounts } from "./harness.js";
import { churn, soak } from "./churn.js";

const root = new URL("../../../", import.meta.url); // build/tests/fuzz/ -> the checkout
const args = process.argv.slice(2);
function option(name: string, env: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : process.env[env] ?? fallback;
}
const calls = Number(option("calls", "FUZZ_CALLS", "1000000"));
const seed = Number(option("seed", "FUZZ_SEED", String(Date.now() % 100000)));
const only = option("only", "FUZZ_ONLY", "");
const churnOps = Number(option("churn", "CHURN_OPS", "1000000"));
const frames = Number(option("frames", "SOAK_FRAMES", "100000"));

const simd = await WebAssembly.compile(await readFile(new URL("dist/hitcore-simd.wasm", root)));
const make = (backend: Backend) => (o: CreateOptions): Promise<World> => createWorld({ ...o, backend, ...(backend === "wasm" ? { wasm: simd } : {}) });
const time = (ms: number) => (ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`);

if (!only || only === "fuzz") {
  const tiled = JSON.parse(readFileSync(new URL("fixtures/tiled/arena_level.tmj", root), "utf8"));
  console.log(`fuzz: ${calls.toLocaleString("en")} calls across the wasm (SIMD core) and js backends, seed ${seed} (rerun: npm run fuzz -- --seed ${seed} --calls ${calls})`);
  const started = performance.now(), totals: Record<string, FuzzCounts> = {};
  let reported = 0;
  for (const [k, backend] of (["wasm", "js"] as const).entries()) {
    const share = k === 0 ? Math.ceil(calls / 2) : Math.floor(calls / 2);
    totals[backend] = await fuzz({
      create: make(backend), seed: seed + k, calls: share,
      slow: (call) => {
        const file = join(tmpdir(), `hitcore-fuzz-${backend}-${seed}-${call.op.replace(/[^a-z.]/gi, "")}-${Math.round(call.ms)}-${Date.now() % 1e6}.bin`);
        if (call.before.length < 16 << 20) writeFileSync(file, call.before);
        console.log(`  ${call.ms > 0 ? `slow: ${call.op}(${call.args.join(", ")}) took ${time(call.ms)}` : `${call.op}(${call.args.join(", ")})`} (${backend}, level ${call.level}); the world before it: ${file}`);
      },
      progress: (c) => {
        const done = (k === 0 ? 0 : totals.wasm.calls) + c.calls, now = performance.now();
        if (now - reported < 10_000 && done < calls) return;
        reported = now;
        const elapsed = now - started;
        console.log(`  ${done.toLocaleString("en")} of ${calls.toLocaleString("en")} calls (${backend}), ${time(elapsed)} elapsed, about ${time((elapsed / done) * (calls - done))} to go; ` +
          `so far traps ${c.traps}, other exceptions ${c.foreign}, refused calls that changed something ${c.changed}, wrong answers ${c.wrong}`);
      },
    }, { tiled });
  }
  for (const [backend, c] of Object.entries(totals)) {
    console.log(`fuzz ${backend}: ${c.calls.toLocaleString("en")} calls (${c.returned.toLocaleString("en")} returned, ${c.refused.toLocaleString("en")} refused with a HitcoreError) ` +
      `over ${c.worlds} worlds; ${c.checked.toLocaleString("en")} answers checked against the references`);
    console.log(`  traps ${c.traps}, non-HitcoreError exceptions ${c.foreign}, rejected calls that changed something ${c.changed}, wrong answers ${c.wrong}`);
    console.log(`  slowest call that returned: ${c.slowest[0].toFixed(0)} ms, ${c.slowest[1]}`);
    for (const b of c.big) console.log(`  ended a world: ${b}`);
    for (const e of c.examples) console.log(`    ${e}`);
    for (const [k, n] of Object.entries(c.classes).sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(6)} x ${k}`);
  }
  const all = Object.values(totals);
  const sum = (f: (c: FuzzCounts) => number) => all.reduce((s, c) => s + f(c), 0);
  console.log(`fuzz total: ${sum((c) => c.calls).toLocaleString("en")} calls in ${time(performance.now() - started)}: traps ${sum((c) => c.traps)}, ` +
    `non-HitcoreError exceptions ${sum((c) => c.foreign)}, rejected calls that changed something ${sum((c) => c.changed)}, wrong answers ${sum((c) => c.wrong)}`);
  if (sum((c) => c.traps + c.foreign + c.changed + c.wrong) > 0) process.exitCode = 1;
}
for (const backend of ["wasm", "js"] as const) {
  if ((!only || only === "churn") && !(await churn(make, churnOps, backend))) process.exitCode = 1;
  if ((!only || only === "soak") && !(await soak(make, frames, backend))) process.exitCode = 1;
}
