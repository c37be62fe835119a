// Instantiates the wasm core. @assemblyscript/loader does the instantiation and turns an `abort`
// from the core into a readable Error; the kernel then calls the raw exports, because the loader's
// demangled wrappers spread their arguments into a fresh array on every call.
import { instantiate } from "@assemblyscript/loader";
import type { Kernel } from "./kernel.js";

/** A fresh instance (with its own memory) of the compiled core. */
export async function wasmKernel(module: WebAssembly.Module): Promise<Kernel> {
  const { instance } = await instantiate<Record<string, unknown>>(module, {});
  return instance.exports as unknown as Kernel;
}
