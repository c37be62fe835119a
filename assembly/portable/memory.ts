// The JavaScript twin of assembly/memory.ts: the same names over typed views of the memory the js
// backend's kernel binds before each call (bindMemory). tsc compiles the core with this file in
// place of the AssemblyScript twin (tsconfig.portable.json), so both backends run one source.
// Every helper keeps the wasm meaning: i32 results are 32-bit integers, f32 results are rounded
// to f32 (Math.fround), loads and stores are little-endian through the views.

export const SIMD = false;

let f32s: Float32Array = new Float32Array(0);
let f64s: Float64Array = new Float64Array(0);
let i32s: Int32Array = new Int32Array(0);
let u32s: Uint32Array = new Uint32Array(0);
let u16s: Uint16Array = new Uint16Array(0);
let u8s: Uint8Array = new Uint8Array(0);
const bitsF = new Float32Array(1);
const bitsI = new Int32Array(bitsF.buffer);
const bitsD = new Float64Array(1);
const bitsDI = new Int32Array(bitsD.buffer);

/** The views of one memory, built once per buffer by its kernel and installed before each call. */
export interface MemoryViews {
  buffer: ArrayBuffer | null;
  f32: Float32Array; f64: Float64Array; i32: Int32Array; u32: Uint32Array; u16: Uint16Array; u8: Uint8Array;
}

/** Views over `buffer` (a kernel keeps them until its memory grows). */
export function viewsOf(buffer: ArrayBuffer): MemoryViews {
  return {
    buffer, f32: new Float32Array(buffer), f64: new Float64Array(buffer), i32: new Int32Array(buffer),
    u32: new Uint32Array(buffer), u16: new Uint16Array(buffer), u8: new Uint8Array(buffer),
  };
}

/** Makes the core read and write these views until the next call of bindMemory. */
export function bindMemory(v: MemoryViews): void {
  f32s = v.f32; f64s = v.f64; i32s = v.i32; u32s = v.u32; u16s = v.u16; u8s = v.u8;
}

/** Where the facade's regions may start: the js backend has no static data, so past the headers. */
export function heapBase(): number { return 2048; }

export function f32At(p: number): number { return f32s[p >> 2]; }
export function setF32(p: number, v: number): void { f32s[p >> 2] = v; }
export function f64At(p: number): number { return f64s[p >> 3]; }
export function setF64(p: number, v: number): void { f64s[p >> 3] = v; }
export function i32At(p: number): number { return i32s[p >> 2]; }
export function setI32(p: number, v: number): void { i32s[p >> 2] = v; }
export function u32At(p: number): number { return u32s[p >> 2]; }
export function u16At(p: number): number { return u16s[p >> 1]; }
export function setU16(p: number, v: number): void { u16s[p >> 1] = v; }
export function u8At(p: number): number { return u8s[p]; }
export function setU8(p: number, v: number): void { u8s[p] = v; }
export function fill(p: number, v: number, n: number): void { u8s.fill(v, p, p + n); }
export function copy(dst: number, src: number, n: number): void { u8s.copyWithin(dst, src, src + n); }

/** Truncates toward zero, saturating at the i32 range and taking NaN to 0 (wasm's trunc_sat). */
export function toI32(x: number | boolean): number {
  const v = +x;
  return v >= 2147483647 ? 2147483647 : v <= -2147483648 ? -2147483648 : v | 0;
}
export const toF32: (x: number) => number = Math.fround;
export function toU32(x: number): number { return x >>> 0; }
export function bit(b: boolean): number { return b ? 1 : 0; }
export function pick<T>(a: T, b: T, cond: boolean): T { return cond ? a : b; }
export function ctz32(x: number): number { x |= 0; return x === 0 ? 32 : 31 - Math.clz32(x & -x); }
export function popcnt32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}
export const clz32: (x: number) => number = Math.clz32;
export function f32Bits(x: number): number { bitsF[0] = x; return bitsI[0]; }
export function bitsF32(x: number): number { bitsI[0] = x; return bitsF[0]; }
export function f64High(x: number): number { bitsD[0] = x; return bitsDI[1]; }
export function f64FromHigh(hi: number): number { bitsDI[0] = 0; bitsDI[1] = hi; return bitsD[0]; }
export function f64MantissaZero(x: number): boolean { bitsD[0] = x; return bitsDI[0] === 0 && (bitsDI[1] & 0xfffff) === 0; }

// platforms part
/** toI32 for a value strictly inside the i32 range: truncates toward zero (small enough for V8 to always inline). */
export function truncI32(x: number): number { return x | 0; }
