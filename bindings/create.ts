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

/** Creates a world on the chosen backend; `load` supplies the packaged module for the wasm one. */
export async function createWorldWith(
  options: CreateOptions,
  load: (source: WasmSource | undefined) => Promise<WebAssembly.Module>,
): Promise<World> {
  const backend = options.backend ?? "wasm";
  let kernel: Kernel;
  if (backend === "wasm") {
    kernel = await wasmKernel(await load(options.wasm));
  } else if (backend === "js") {
    kernel = new BaselineKernel(new WebAssembly.Memory({ initial: 1 }));
  } else {
    throw new HitcoreError("INVALID_OPTION", `backend must be "wasm" or "js", got ${String(backend)}.`);
  }
  return new World(kernel, backend, options);
}
