// createWorld, shared by the node and browser entries: they differ only in how the module is fetched.
import type { Kernel } from "./kernel.js";
import { jsKernel } from "./js_kernel.js";
import { describe, optionsOf } from "./validate.js";
import { wasmKernel } from "./wasm_kernel.js";
import type { WasmBytes, WasmMemory, WasmModule } from "./wasm_types.js";
import { HitcoreError, World, type WorldKernel, type WorldOptions } from "./world.js";

/** Where the compiled core comes from: a compiled module, its bytes, or a URL (browser entry). */
export type WasmSource = WasmModule | WasmBytes | URL | string;

/** Which core the wasm backend runs; every create* entry takes these. */
export interface CoreOptions {
  /** The core to use instead of the packaged one (bundlers that relocate assets, tests). */
  wasm?: WasmSource;
  /**
   * The packaged core is hitcore-simd.wasm (wasm SIMD in the grid's build passes) when the engine
   * validates SIMD, and hitcore.wasm otherwise; `false` always takes hitcore.wasm (to compare the
   * two, or to sidestep an engine's SIMD bug). Both give identical results. Ignored with `wasm`.
   */
  simd?: boolean;
}

export interface CreateOptions extends WorldOptions, CoreOptions {}

// The smallest module that needs SIMD: one function returning i8x16.splat(i32.const 0) as a v128.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // code: i32.const 0, i8x16.splat, end
]);
let simd: boolean | undefined;

/** Whether this engine runs wasm SIMD (so the packaged core is hitcore-simd.wasm); checked once. */
export function simdSupported(): boolean {
  simd ??= WebAssembly.validate(SIMD_PROBE);
  return simd;
}

// Compiled cores by URL, the packaged ones included: each compile starts V8's tier-up over (a new
// module runs its first few hundred milliseconds on baseline code), so every world made from one
// file shares one module.
const compiled = new Map<string, Promise<WasmModule>>();

/**
 * The module at `url`, compiled by `compile` once per process; a failed read or compile is
 * forgotten, so the next call tries again. The entries fetch and compile; this keeps the result.
 */
export function compileOnce(url: string, compile: () => Promise<WasmModule>): Promise<WasmModule> {
  let module = compiled.get(url);
  if (!module) {
    module = compile();
    compiled.set(url, module);
    module.catch(() => compiled.delete(url));
  }
  return module;
}

/**
 * Compiles a WasmSource that is already in memory; URLs are the entries' business. Anything but a
 * module or bytes that compile is refused with INVALID_OPTION.
 */
export async function compileSource(source: WasmModule | WasmBytes): Promise<WasmModule> {
  if (source instanceof WebAssembly.Module) return source;
  if (!(source instanceof ArrayBuffer) && !ArrayBuffer.isView(source)) {
    throw new HitcoreError("INVALID_OPTION", `wasm must be a WebAssembly.Module, the bytes of a core, a URL or a path, got ${describe(source)}. Leave it out for the packaged core.`);
  }
  try {
    return await WebAssembly.compile(source as BufferSource);
  } catch (e) {
    throw new HitcoreError("INVALID_OPTION", `wasm: the bytes are not a WebAssembly module (${describe(e)}). Pass the bytes of hitcore.wasm or hitcore-simd.wasm.`);
  }
}


/**
 * Loads the compiled core for the wasm backend: the node and browser entries each supply one.
 * Without a source it loads the packaged core: hitcore-simd.wasm if `simd`, else hitcore.wasm.
 */
export type CoreLoader = (source: WasmSource | undefined, simd: boolean) => Promise<WasmModule>;

/**
 * A world's kernel on the chosen backend: a fresh instance of the core (wasm), or the translation
 * to JavaScript over a memory of its own (js). Throws INVALID_OPTION for other names,
 * and for a `simd` that is not a boolean.
 */
export async function kernelFor<K extends { readonly memory: WasmMemory }>(
  backend: unknown,
  core: CoreOptions,
  load: CoreLoader,
): Promise<K> {
  if (core.simd !== undefined && typeof core.simd !== "boolean") throw new HitcoreError("INVALID_OPTION", `simd must be true or false, got ${describe(core.simd)}.`);
  if (backend === undefined || backend === "wasm") {
    const module = await load(core.wasm, core.simd !== false && simdSupported());
    try {
      return await wasmKernel<K>(module);
    } catch (e) {
      throw new HitcoreError("INVALID_OPTION", `wasm: the module is not a hitcore core (${describe(e)}). Pass hitcore.wasm or hitcore-simd.wasm of this version.`);
    }
  }
  if (backend === "js") return jsKernel<K>();
  throw new HitcoreError("INVALID_OPTION", `backend must be "wasm" or "js", got ${describe(backend)}.`);
}

/** Creates a world on the chosen backend; `load` supplies the packaged module for the wasm one. */
export async function createWorldWith(given: CreateOptions | undefined, load: CoreLoader): Promise<World> {
  const options = optionsOf("createWorld", given);
  const kernel = await kernelFor<WorldKernel>(options.backend, options, load);
  return new World(kernel, options.backend ?? "wasm", options);
}
