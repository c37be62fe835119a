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

/** What every loading error ends with, after "pass": where the core can come from instead. */
const CORE_FIX = "options.wasm with the URL, path or bytes of hitcore.wasm or hitcore-simd.wasm (a bundler that moves assets gives its URL for the file), or leave it out for the packaged core next to the entry";

/** CORE_NOT_FOUND: nothing came back from `where` (a 404, a missing file, a refused connection). */
export function coreNotFound(where: string, why: string): HitcoreError {
  return new HitcoreError("CORE_NOT_FOUND", `could not read the core from ${where} (${why}). Pass ${CORE_FIX}.`);
}

/** Up to 32 bytes as text, for an error message: printable ASCII kept, anything else as \xNN. */
function preview(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes.subarray(0, 32)) text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
  return `"${text}"`;
}

/**
 * Compiles bytes that should be a core, CORE_NOT_WASM when they are not a WebAssembly module
 * (no "\0asm" magic, as a server's HTML fallback page) or do not compile; `what` says where they
 * came from, `sentAs` what the server said they were.
 */
export async function compileBytes(source: WasmBytes, what: string, sentAs = ""): Promise<WasmModule> {
  const bytes = source instanceof Uint8Array ? source
    : ArrayBuffer.isView(source) ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength) : new Uint8Array(source);
  const served = sentAs ? ` the server sent ${sentAs}, ` : " ";
  if (bytes.length < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new HitcoreError("CORE_NOT_WASM", `${what} is not a WebAssembly module:${served}${bytes.length} bytes starting ${preview(bytes)}. ${sentAs
      ? `A server that answers a missing file with its index page sends that. Serve the .wasm file at that URL with the MIME type application/wasm, or pass ${CORE_FIX}.`
      : `Pass ${CORE_FIX}.`}`);
  }
  try {
    return await WebAssembly.compile(bytes as BufferSource);
  } catch (err) {
    throw new HitcoreError("CORE_NOT_WASM", `${what} does not compile as a hitcore core:${served}${bytes.length} bytes (${String(err)}); the file may be truncated or another module. Serve hitcore's own file there, or pass ${CORE_FIX}.`);
  }
}

/**
 * Fetches and compiles the core at an http(s) URL: streamed while it downloads when the server
 * sends application/wasm, otherwise read and checked. CORE_NOT_FOUND when the request fails or
 * the status is not 2xx, CORE_NOT_WASM when the answer is something else than a core.
 */
export async function fetchCore(url: string): Promise<WasmModule> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw coreNotFound(url, String(err));
  }
  if (!response.ok) throw coreNotFound(url, `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  const type = response.headers.get("content-type") ?? "";
  // Streaming compiles only an application/wasm response; any other type is read and checked,
  // so an HTML page is named as such rather than as a CompileError about its magic word.
  if (type.startsWith("application/wasm")) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (err) {
      throw new HitcoreError("CORE_NOT_WASM", `${url} does not compile as a hitcore core: the server sent application/wasm (${String(err)}); the file may be truncated or another module. Serve hitcore's own file there, or pass ${CORE_FIX}.`);
    }
  }
  return compileBytes(await response.arrayBuffer(), url, type ? `"${type}"` : "no content type");
}

/**
 * The core at a URL, fetched and compiled once per page or worker: a relative URL is resolved as
 * fetch resolves it (against the page, or the worker's script), so an error names the whole URL.
 */
export function fetchCoreOnce(source: URL | string): Promise<WasmModule> {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = base ? new URL(String(source), base).href : String(source);
  return compileOnce(url, () => fetchCore(url));
}

/**
 * Compiles a WasmSource that is already in memory; URLs are the entries' business. Anything but a
 * module or bytes is refused with INVALID_OPTION; bytes that are not a core, CORE_NOT_WASM.
 */
export async function compileSource(source: WasmModule | WasmBytes): Promise<WasmModule> {
  if (source instanceof WebAssembly.Module) return source;
  if (!(source instanceof ArrayBuffer) && !ArrayBuffer.isView(source)) {
    throw new HitcoreError("INVALID_OPTION", `wasm must be a WebAssembly.Module, the bytes of a core, a URL or a path, got ${describe(source)}. Leave it out for the packaged core.`);
  }
  return compileBytes(source, "options.wasm");
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
