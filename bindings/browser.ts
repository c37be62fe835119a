// The browser (and worker) entry: the packaged core is streamed and compiled while it downloads.
import { compileOnce, compileSource, createWorldWith, type CreateOptions, type WasmSource } from "./create.js";
import { describe } from "./validate.js";
import { HitcoreError, type World } from "./world.js";

export * from "./world.js";
export * from "./primitives.js";
export * from "./rect_level.js";
export * from "./platforms.js";
export * from "./tile_map.js";
export * from "./level_objects.js";
export { simdSupported, type CoreOptions, type CreateOptions, type WasmSource } from "./create.js";

async function fromUrl(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new HitcoreError("MISSING_FILE", `could not fetch the core from ${url} (HTTP ${response.status}). Pass options.wasm with the URL your bundler gives hitcore.wasm (or hitcore-simd.wasm).`);
  // Servers that do not send application/wasm cannot stream; compile the bytes instead.
  if (response.headers.get("content-type")?.startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response).catch((e: unknown) => {
      throw new HitcoreError("INVALID_OPTION", `wasm: ${url} is not a WebAssembly module (${describe(e)}). Pass the URL of hitcore.wasm or hitcore-simd.wasm.`);
    });
  }
  return compileSource(await response.arrayBuffer()) as Promise<WebAssembly.Module>;
}

function load(source: WasmSource | undefined, simd: boolean): Promise<WebAssembly.Module> {
  if (source === undefined || source instanceof URL || typeof source === "string") {
    // Each URL written out whole inside new URL(...): bundlers find and copy both files only so.
    const url = String(source ?? (simd ? new URL("../hitcore-simd.wasm", import.meta.url) : new URL("../hitcore.wasm", import.meta.url)));
    return compileOnce(url, () => fromUrl(url));
  }
  return compileSource(source) as Promise<WebAssembly.Module>;
}

/** Creates a world. The wasm backend (default) fetches and compiles the core once per URL (the SIMD build where the engine has SIMD, unless `simd: false`); `backend: "js"` needs no wasm. */
export function createWorld(options: CreateOptions = {}): Promise<World> {
  return createWorldWith(options, load);
}

