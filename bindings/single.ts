// The single-file entry: dist/hitcore.single.js (npm run build:single) is this module with the
// facade and both cores in one ES module, for a page without a bundler (`<script type="module">`,
// a CDN import). The cores travel inside it gzipped and base64-encoded (#inlined-cores, written by
// scripts/build_single.mjs); createWorld inflates the one the engine runs (hitcore-simd.wasm where
// it validates SIMD, unless `simd: false`) and compiles it once per page. A `wasm` option still
// loads that core instead; `backend: "js"` is not in the file (the browser entry has it).
import { scalar, simd as simdCore } from "#inlined-cores";
import { compileBytes, compileOnce, compileSource, createWorldWith, fetchCoreOnce, type CreateOptions, type WasmSource } from "./create.js";
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

/** The bytes of an inlined core: base64 text of its gzip stream. */
async function inflate(base64: string): Promise<Uint8Array> {
  const gz = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function load(source: WasmSource | undefined, simd: boolean): Promise<WasmModule> {
  if (source === undefined) {
    const name = simd ? "hitcore-simd.wasm" : "hitcore.wasm";
    return compileOnce(`inlined:${name}`, async () => compileBytes(await inflate(simd ? simdCore : scalar), `the inlined ${name}`));
  }
  return source instanceof URL || typeof source === "string" ? fetchCoreOnce(source) : compileSource(source);
}

/** Creates a world. The wasm backend (default) compiles the inlined core once per page (the SIMD build where the engine has SIMD, unless `simd: false`). */
export function createWorld(options: CreateOptions = {}): Promise<World> {
  return createWorldWith(options, load);
}
