// The Node entry: the packaged core is read from disk (Node 20's fetch cannot read file: URLs).
import { readFile } from "node:fs/promises";
import { compileOnce, compileSource, createWorldWith, type CreateOptions, type WasmSource } from "./create.js";
import { HitcoreError, type World } from "./world.js";

export * from "./world.js";
export * from "./primitives.js";
export * from "./rect_level.js";
export * from "./platforms.js";
export * from "./tile_map.js";
export * from "./level_objects.js";
export { simdSupported, type CoreOptions, type CreateOptions, type WasmSource } from "./create.js";

function load(source: WasmSource | undefined, simd: boolean): Promise<WebAssembly.Module> {
  if (source === undefined || source instanceof URL || typeof source === "string") {
    let url: URL;
    try {
      url = source === undefined ? new URL(simd ? "../hitcore-simd.wasm" : "../hitcore.wasm", import.meta.url)
        : source instanceof URL ? source : new URL(source, import.meta.url);
    } catch {
      return Promise.reject(new HitcoreError("INVALID_OPTION", `wasm: ${JSON.stringify(source)} is not a path or URL. Pass the path of hitcore.wasm, or leave it out for the packaged core.`));
    }
    return compileOnce(url.href, () => readFile(url).then((bytes) => bytes, (err: NodeJS.ErrnoException) => {
      throw new HitcoreError("MISSING_FILE", `could not read the core from ${url.href} (${err.code ?? err.message}). Pass options.wasm with the path of hitcore.wasm (or hitcore-simd.wasm), or leave it out for the packaged core.`);
    }).then((bytes) => compileSource(bytes) as Promise<WebAssembly.Module>));
  }
  return compileSource(source) as Promise<WebAssembly.Module>;
}

/** Creates a world. The wasm backend (default) compiles the core once per file (the SIMD build where the engine has SIMD, unless `simd: false`); `backend: "js"` needs no wasm. */
export function createWorld(options: CreateOptions = {}): Promise<World> {
  return createWorldWith(options, load);
}

