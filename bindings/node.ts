// The Node entry: the packaged core is read from disk (Node 20's fetch cannot read file: URLs).
import { readFile } from "node:fs/promises";
import { compileBytes, compileOnce, compileSource, coreNotFound, createWorldWith, fetchCore, type CreateOptions, type WasmSource } from "./create.js";
import { HitcoreError, type World } from "./world.js";

export * from "./world.js";
export * from "./primitives.js";
export * from "./rect_level.js";
export * from "./platforms.js";
export * from "./tile_map.js";
export * from "./level_objects.js";
export * from "./debug_draw.js";
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
    // A core on a server (a test's, a CDN's) is fetched as a page would; anything else is a file.
    if (url.protocol === "http:" || url.protocol === "https:") return compileOnce(url.href, () => fetchCore(url.href));
    return compileOnce(url.href, () => readFile(url).then((bytes) => compileBytes(bytes, url.href), (err: NodeJS.ErrnoException) => {
      throw coreNotFound(url.href, err.code ?? err.message);
    }));
  }
  return compileSource(source) as Promise<WebAssembly.Module>;
}

/** Creates a world. The wasm backend (default) compiles the core once per file (the SIMD build where the engine has SIMD, unless `simd: false`); `backend: "js"` needs no wasm. */
export function createWorld(options: CreateOptions = {}): Promise<World> {
  return createWorldWith(options, load);
}

