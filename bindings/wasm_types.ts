// The WebAssembly types the facade's public declarations name, declared here by their shape:
// TypeScript declares WebAssembly only in the DOM lib, and the published .d.ts files must compile
// in a Node-only project too (lib ES2022, types node, skipLibCheck false). The real
// WebAssembly.Module, WebAssembly.Memory and BufferSource satisfy them; inside, the facade still
// calls the real WebAssembly API.

/** A compiled core: a WebAssembly.Module (an opaque object). */
export type WasmModule = object;

/** A WebAssembly.Memory, as far as the facade reads and grows it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(delta: number): number;
}

/** The bytes of a core (lib.dom's BufferSource). */
export type WasmBytes = ArrayBuffer | ArrayBufferView;
