// The js backend's kernel: the scalar core translated to JavaScript at build time (npm run build:js
// writes dist/hitcore.js with binaryen's wasm2js; scripts/build_js.mjs says why that route). It
// computes what dist/hitcore.wasm computes, bit for bit, with no WebAssembly at all. Each kernel has
// a memory of its own, an object with `buffer` and `grow` like a WebAssembly.Memory, whose buffer is
// replaced when it grows, as a wasm memory's is; all kernels share one instance of the translation,
// pointed at the calling kernel's memory before each call (the core keeps nothing between calls
// outside memory), so V8 optimizes its functions once per page rather than once per world.

import type { WasmMemory } from "./wasm_types.js";

/** The module npm run build:js writes. */
interface JsCore {
  createCore(): { readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number } };
}

/**
 * A kernel of the js backend, typed as the part of the core's exports a facade uses. The module is
 * imported on first use, so a page on the wasm backend never loads it.
 */
export async function jsKernel<K extends { readonly memory: WasmMemory }>(): Promise<K> {
  const core = (await import("#js-core")) as unknown as JsCore;
  return core.createCore() as unknown as K;
}
