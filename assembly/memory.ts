// The core's one door to linear memory, and its explicit conversions: the grid reads and writes
// memory, rounds to f32, truncates and counts bits through these helpers, each of which inlines to
// one instruction. Keeping every access here makes the memory contract (layout/) the only thing
// the core assumes about where data lives, and every f32 rounding visible in the source.

/** Whether the vector paths exist: the SIMD build's bodies run only where this is true. */
export const SIMD: bool = ASC_FEATURE_SIMD;

/** First byte past the core's static data: where the facade's regions may start. */
// @ts-ignore: decorator
@inline export function heapBase(): i32 { return i32((__heap_base + 15) & ~15); }

// @ts-ignore: decorator
@inline export function f32At(p: i32): f32 { return load<f32>(p); }
// @ts-ignore: decorator
@inline export function setF32(p: i32, v: f32): void { store<f32>(p, v); }
// @ts-ignore: decorator
@inline export function f64At(p: i32): f64 { return load<f64>(p); }
// @ts-ignore: decorator
@inline export function setF64(p: i32, v: f64): void { store<f64>(p, v); }
// @ts-ignore: decorator
@inline export function i32At(p: i32): i32 { return load<i32>(p); }
// @ts-ignore: decorator
@inline export function setI32(p: i32, v: i32): void { store<i32>(p, v); }
// @ts-ignore: decorator
@inline export function u32At(p: i32): u32 { return load<u32>(p); }
// @ts-ignore: decorator
@inline export function u16At(p: i32): i32 { return load<u16>(p); }
// @ts-ignore: decorator
@inline export function setU16(p: i32, v: i32): void { store<u16>(p, v); }
// @ts-ignore: decorator
@inline export function u8At(p: i32): i32 { return load<u8>(p); }
// @ts-ignore: decorator
@inline export function setU8(p: i32, v: i32): void { store<u8>(p, v); }
/** Sets n bytes from p to the byte v. */
// @ts-ignore: decorator
@inline export function fill(p: i32, v: i32, n: i32): void { memory.fill(p, <u8>v, n); }
/** Copies n bytes from src to dst (the ranges may overlap). */
// @ts-ignore: decorator
@inline export function copy(dst: i32, src: i32, n: i32): void { memory.copy(dst, src, n); }

/** Truncates toward zero (saturating in wasm; callers keep values in range). */
// @ts-ignore: decorator
@inline export function toI32<T>(x: T): i32 { return <i32>x; }
/** Rounds to the nearest f32 (a no-op on an f32): marks where the core rounds. */
// @ts-ignore: decorator
@inline export function toF32<T>(x: T): f32 { return <f32>x; }
/** 1 for true, 0 for false. */
// @ts-ignore: decorator
@inline export function bit(b: bool): i32 { return <i32>b; }
/** `cond ? a : b` with both sides evaluated, as wasm's select (no branch). */
// @ts-ignore: decorator
@inline export function pick<T>(a: T, b: T, cond: bool): T { return select<T>(a, b, cond); }
// @ts-ignore: decorator
@inline export function ctz32(x: i32): i32 { return ctz(x); }
// @ts-ignore: decorator
@inline export function popcnt32(x: i32): i32 { return popcnt(x); }
/** The bits of an f32. */
// @ts-ignore: decorator
@inline export function f32Bits(x: f32): i32 { return reinterpret<i32>(x); }
/** The f32 with these bits. */
// @ts-ignore: decorator
@inline export function bitsF32(x: i32): f32 { return reinterpret<f32>(x); }
/** The high 32 bits of an f64 (sign, exponent and the top of the mantissa). */
// @ts-ignore: decorator
@inline export function f64High(x: f64): i32 { return <i32>(reinterpret<u64>(x) >>> 32); }
/** The f64 whose high 32 bits are hi and low 32 bits are zero. */
// @ts-ignore: decorator
@inline export function f64FromHigh(hi: i32): f64 { return reinterpret<f64>(<u64>hi << 32); }

// Bucket grid.
/** The lesser of two i32s (a select, as AssemblyScript's min). */
// @ts-ignore: decorator
@inline export function minI32(a: i32, b: i32): i32 { return min(a, b); }
/** The greater of two i32s. */
// @ts-ignore: decorator
@inline export function maxI32(a: i32, b: i32): i32 { return max(a, b); }
/** The greater of two f32s, as f32.max: NaN if either is, and +0 above -0. */
// @ts-ignore: decorator
@inline export function maxF32(a: f32, b: f32): f32 { return max(a, b); }
/** Entry i of a constant table (a `const T: StaticArray<i32> = [...]`), unchecked: callers keep i in range. */
// @ts-ignore: decorator
@inline export function tableI32(t: StaticArray<i32>, i: i32): i32 { return unchecked(t[i]); }
// Platforms.
/**
 * toI32 for a value the caller keeps strictly inside the i32 range (a cell or step count): the
 * same truncation toward zero, with no saturation to do.
 */
// @ts-ignore: decorator
@inline export function truncI32(x: f64): i32 { return <i32>x; }
