// What every benchmark suite shares: where the core is, the backends, the timing budget and the
// machine line written with the results.
import { cpus, totalmem } from "node:os";

/** The core `npm run build` wrote (the bench runs from build/bench/). */
export const wasm = new URL("../../dist/hitcore.wasm", import.meta.url);
/** Its SIMD build, which createWorld loads where the engine has SIMD. */
export const simdWasm = new URL("../../dist/hitcore-simd.wasm", import.meta.url);
export const backends = ["wasm", "js"] as const;
/** Time per tinybench task (BENCH_TIME_MS, default 1500). */
export const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1500);

export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`;
}
