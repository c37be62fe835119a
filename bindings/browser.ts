// The browser (and worker) entry: the packaged core is streamed and compiled while it downloads.
import { compileSource, createWorldWith, fetchCoreOnce, type CreateOptions, type WasmSource } from "./create.js";
import type { WasmModule } from "./wasm_types.js";
import type { World } from "./world.js";

export * from "./world.js";
export * from "./primitives.js";
export * from "./rect_level.js";
export * from "./platforms.js";
export * from "./tile_map.js";
export * from "./level_objects.js";
export { WorldWorker, type FrameField, type WorkerCreateOptions, type WorkerFrame, type WorldWorkerOptions } from "./world_worker.js";
export * from "./debug_draw.js";
export { simdSupported, type CoreOptions, type CreateOptions, type WasmSource } from "./create.js";

function load(source: WasmSource | undefined, simd: boolean): Promise<WasmModule> {
  // Each URL written out whole inside new URL(...): bundlers find and copy both files only so.
  if (source === undefined) return fetchCoreOnce(simd ? new URL("../hitcore-simd.wasm", import.meta.url) : new URL("../hitcore.wasm", import.meta.url));
  return source instanceof URL || typeof source === "string" ? fetchCoreOnce(source) : compileSource(source);
}

/** Creates a world. The wasm backend (default) fetches and compiles the core once per URL (the SIMD build where the engine has SIMD, unless `simd: false`); `backend: "js"` needs no wasm. */
export function createWorld(options: CreateOptions = {}): Promise<World> {
  return createWorldWith(options, load);
}

