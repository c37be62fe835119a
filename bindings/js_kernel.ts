// The js backend's kernel: the core's own source compiled to JavaScript (npm run build:js writes it
// to dist/js/), run over a WebAssembly.Memory of the kernel's own with the same layout as the wasm
// core's. The compiled core reads memory through module-level views, so each call first installs
// this kernel's views (rebuilt only when its memory has grown): two js worlds in one page each see
// their own memory, and a call allocates nothing.
import type { WasmMemory } from "./wasm_types.js";

type CoreFunction = (...args: number[]) => number;
interface JsCore {
  bindMemory(views: unknown): void;
  viewsOf(buffer: ArrayBuffer): { buffer: ArrayBuffer };
  [name: string]: unknown;
}

/**
 * A kernel of the js backend: every function the core exports, over a fresh memory of its own.
 * The compiled core is imported on first use, so a page on the wasm backend never loads it.
 */
export async function jsKernel<K extends { readonly memory: WasmMemory }>(): Promise<K> {
  const js = { ...(await import("#js-core/index.js")), ...(await import("#js-core/memory.js")) } as unknown as JsCore;
  const memory = new WebAssembly.Memory({ initial: 1 });
  let views = js.viewsOf(memory.buffer);
  const bind = (): void => {
    if (views.buffer !== memory.buffer) views = js.viewsOf(memory.buffer);
    js.bindMemory(views);
  };
  const kernel: Record<string, unknown> = { memory };
  for (const name of Object.keys(js)) {
    const fn = js[name];
    if (typeof fn === "function" && name !== "bindMemory" && name !== "viewsOf") kernel[name] = bound(fn as CoreFunction, bind);
  }
  return kernel as unknown as K;
}

// One wrapper per arity, so a call passes its arguments straight through (no rest array).
function bound(fn: CoreFunction, bind: () => void): CoreFunction {
  switch (fn.length) {
    case 0: return () => (bind(), fn());
    case 1: return (a) => (bind(), fn(a));
    case 2: return (a, b) => (bind(), fn(a, b));
    case 3: return (a, b, c) => (bind(), fn(a, b, c));
    case 4: return (a, b, c, d) => (bind(), fn(a, b, c, d));
    case 5: return (a, b, c, d, e) => (bind(), fn(a, b, c, d, e));
    case 6: return (a, b, c, d, e, f) => (bind(), fn(a, b, c, d, e, f));
    case 7: return (a, b, c, d, e, f, g) => (bind(), fn(a, b, c, d, e, f, g));
    case 8: return (a, b, c, d, e, f, g, h) => (bind(), fn(a, b, c, d, e, f, g, h));
    default: return (...args) => (bind(), fn(...args));
  }
}
