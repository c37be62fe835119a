// createWorld, shared by the node and browser entries: they differ only in how the module is fetched.
import { BaselineKernel } from "./baseline/bucket_grid.js";
import type { Kernel } from "./kernel.js";
import { wasmKernel } from "./wasm_kernel.js";
import { HitcoreError, World, type WorldOptions } from "./world.js";

/** Where the compiled core comes from: a compiled module, its bytes, or a URL (browser entry). */
export type WasmSource = WebAssembly.Module | BufferSource | URL | string;

export interface CreateOptions extends WorldOptions {
  /** The core to use instead of the packaged hitcore.wasm (bundlers that relocate assets, tests). */
  wasm?: WasmSource;
}


/** Compiles a WasmSource that is already in memory; URLs are the entries' business. */
export async function compileSource(source: WebAssembly.Module | BufferSource): Promise<WebAssembly.Module> {
  return source instanceof WebAssembly.Module ? source : WebAssembly.compile(source);
}

/** Loads the compiled core for the wasm backend: the node and browser entries each supply one. */
export type CoreLoader = (source: WasmSource | undefined) => Promise<WebAssembly.Module>;

/**
 * A kernel for any part of the library on the chosen backend: a fresh instance of the core (wasm)
 * or the part's TS baseline over a memory of its own (js). Throws INVALID_OPTION for other names.
 */
export async function kernelFor<K extends { readonly memory: WebAssembly.Memory }>(
  backend: unknown,
  source: WasmSource | undefined,
  load: CoreLoader,
  baseline: (memory: WebAssembly.Memory) => K,
): Promise<K> {
  if (backend === undefined || backend === "wasm") return wasmKernel<K>(await load(source));
  if (backend === "js") return baseline(new WebAssembly.Memory({ initial: 1 }));
  throw new HitcoreError("INVALID_OPTION", `backend must be "wasm" or "js", got ${String(backend)}.`);
}

/** Creates a world on the chosen backend; `load` supplies the packaged module for the wasm one. */
export async function createWorldWith(options: CreateOptions, load: CoreLoader): Promise<World> {
  const kernel = await kernelFor<Kernel>(options.backend, options.wasm, load, (memory) => new BaselineKernel(memory));
  return new World(kernel, options.backend ?? "wasm", options);
}
