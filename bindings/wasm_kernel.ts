// Instantiates the wasm core. @assemblyscript/loader does the instantiation and turns an `abort`
// from the core into a readable Error; hot data never passes through its copying helpers.
import { instantiate } from "@assemblyscript/loader";
import type { Kernel } from "./kernel.js";

/** A fresh instance (with its own memory) of the compiled core. */
export async function wasmKernel(module: WebAssembly.Module): Promise<Kernel> {
  const { exports } = await instantiate<Record<string, unknown>>(module, {});
  return exports as unknown as Kernel;
}
