// Instantiates the wasm core and hands its raw exports to the facade as a Kernel.
//
// No helper library sits in between: @assemblyscript/loader was tried here, but its bare module
// specifier cannot load in an unbundled module worker, and its export wrappers spread their
// arguments into a new array on every call. All it added was turning the core's `abort` into an
// Error, which the import below does in a few lines.
import type { Kernel } from "./kernel.js";
import type { WasmMemory, WasmModule } from "./wasm_types.js";

/**
 * A fresh instance (with its own memory) of the compiled core, typed as the part of its exports a
 * facade uses (`Kernel` for the bucket grid; each other part declares its own interface).
 */
export async function wasmKernel<K extends { readonly memory: WasmMemory } = Kernel>(module: WasmModule): Promise<K> {
  let memory: WebAssembly.Memory | null = null;
  const env = {
    // Only an assertion inside the core can call this (release builds are compiled without them).
    abort(message: number, file: number, line: number, column: number): never {
      throw new Error(`hitcore core aborted: ${readString(memory, message)} at ${readString(memory, file)}:${line}:${column}`);
    },
  };
  const instance = await WebAssembly.instantiate(module as WebAssembly.Module, { env });
  memory = instance.exports.memory as WebAssembly.Memory;
  return instance.exports as unknown as K;
}

/** An AssemblyScript string: UTF-16 code units, byte length stored just before the pointer. */
function readString(memory: WebAssembly.Memory | null, pointer: number): string {
  if (!memory || pointer < 4 || pointer > memory.buffer.byteLength) return "(unknown)";
  const bytes = new Uint32Array(memory.buffer, (pointer - 4) & ~3, 1)[0];
  return String.fromCharCode(...new Uint16Array(memory.buffer, pointer, Math.min(bytes >>> 1, 512)));
}
