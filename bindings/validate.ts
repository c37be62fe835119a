// What every facade shares for rejecting bad input before it reaches a kernel: the error type and
// the number checks. A rejected call throws before it changes anything.

import { MAX_COORD, MAX_COORD_INPUT } from "../layout/grid.js";

export { MAX_COORD };

/** A rejected call: `code` names the problem, the message says how to fix it. The store is unchanged. */
export class HitcoreError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(`hitcore: ${message}`);
    this.name = "HitcoreError";
    this.code = code;
  }
}

/**
 * A value as an error message shows it: numbers plainly, anything else with its type. Never throws:
 * a symbol, an object without a prototype (no toString) or one whose toString throws is shown by
 * its type and tag.
 */
export function describe(v: unknown): string {
  if (typeof v === "number") return String(v);
  try {
    return `${typeof v} ${String(v)}`;
  } catch {
    return `${typeof v} ${Object.prototype.toString.call(v)}`;
  }
}

// TypedArray.prototype's own length and slice: an instance's own "length" or "slice" property
// cannot stand in for them.
const TYPED = Object.getPrototypeOf(Int8Array.prototype) as { slice(): ArrayLike<number> };
const typedLength = Object.getOwnPropertyDescriptor(TYPED, "length")!.get as (this: unknown) => number;
const typedSlice = TYPED.slice as (this: unknown) => ArrayLike<number>;

/**
 * A copy of the array-like `v` read once (its length, then each element once, up to the first
 * that is not a number), for a call to check and then use the same numbers: getters that answer
 * differently on a second read, or a Proxy, cannot slip a value past the checks. A typed array is
 * copied by its own length; a length that is no array length comes back alone ({ length }), and
 * anything that is no object as it is, for the caller's checks to refuse as before.
 * INVALID_ARGUMENT when reading throws.
 */
export function readOnce<T>(method: string, name: string, v: T): T {
  if (typeof v !== "object" || v === null) return v;
  if (ArrayBuffer.isView(v)) return (v instanceof DataView ? v : typedSlice.call(v)) as T;
  try {
    const n = (v as { length?: unknown }).length;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 0xffffffff) return { length: n } as T;
    const copy: unknown[] = [];
    for (let k = 0; k < n; k++) {
      const e = (v as Record<number, unknown>)[k];
      copy.push(e);
      if (typeof e !== "number") break;
    }
    copy.length = n;
    return copy as T;
  } catch (e) {
    if (e instanceof HitcoreError) throw e;
    throw new HitcoreError("INVALID_ARGUMENT", `${method}: reading ${name} threw ${describe(e)}. Pass a Float64Array, a Float32Array or an array of numbers.`);
  }
}

/**
 * The length of `v`, an array-like of numbers, or INVALID_ARGUMENT naming `name`: a typed array of
 * numbers is taken as it is; any other object needs an integer length and a number in every
 * element (so copying it converts nothing and calls no user code). Strings, numbers, BigInt arrays
 * and objects without a length are refused. With `elements` false only the length is read (a
 * caller that reads and checks each element once as it copies it).
 */
export function numbersLength(method: string, name: string, v: unknown, elements = true): number {
  if (ArrayBuffer.isView(v)) {
    if (v instanceof DataView || v instanceof BigInt64Array || v instanceof BigUint64Array) throw notNumbers(method, name, `got ${Object.prototype.toString.call(v)}`);
    return typedLength.call(v);
  }
  if (typeof v !== "object" || v === null) throw notNumbers(method, name, `got ${describe(v)}`);
  let n: unknown;
  try {
    n = (v as { length?: unknown }).length;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 0xffffffff) throw notNumbers(method, name, `got one of length ${describe(n)}`);
    for (let k = 0; elements && k < n; k++) {
      const e = (v as Record<number, unknown>)[k];
      if (typeof e !== "number") throw notNumbers(method, name, `got ${describe(e)} at index ${k}`);
    }
  } catch (e) {
    if (e instanceof HitcoreError) throw e;
    throw notNumbers(method, name, `reading it threw ${describe(e)}`);
  }
  return n as number;
}

/** numbersLength's refusal (a function of its own: a closure made per call would allocate on setPositions' path). */
export function notNumbers(method: string, name: string, why: string): HitcoreError {
  return new HitcoreError("INVALID_ARGUMENT", `${method}: ${name} must be an array or typed array of numbers, ${why}. Pass a Float64Array, a Float32Array or an array of numbers.`);
}

/**
 * Whether v is a number whose f32 (what the stores hold, and what the core and validate() check) is
 * finite and of magnitude at most MAX_COORD: 1e30 itself rounds up to 1.00000002e30 and is refused,
 * so nothing is accepted that the store would then hold past the limit.
 */
export function coordOk(v: unknown): v is number {
  return typeof v === "number" && Math.abs(v) <= MAX_COORD_INPUT;
}

/** INVALID_BUFFER unless `out` is a typed array of numbers (not a BigInt array) of at least `min` elements: an output buffer. */
export function checkOut(method: string, name: string, out: unknown, min: number, type = "Float64Array"): void {
  if (!ArrayBuffer.isView(out) || out instanceof DataView || out instanceof BigInt64Array || out instanceof BigUint64Array || (out as unknown as ArrayLike<number>).length < min) {
    const got = ArrayBuffer.isView(out) && !(out instanceof DataView) ? `one of length ${(out as unknown as ArrayLike<number>).length}` : describe(out);
    throw new HitcoreError("INVALID_BUFFER", `${method}: ${name} must be a ${type} of at least ${min} numbers, got ${got}. Pass new ${type}(${min}), kept for reuse.`);
  }
}

/** Throws INVALID_NUMBER unless v is a finite number whose f32 has magnitude at most MAX_COORD (coordOk). */
export function checkCoord(method: string, name: string, v: number): void {
  if (!coordOk(v)) {
    throw new HitcoreError("INVALID_NUMBER", `${method}: ${name} must be a finite number of magnitude at most ${MAX_COORD} (as an f32, as stored), got ${describe(v)}. Check the value for NaN or Infinity before passing it.`);
  }
}

/** checkCoord, then NEGATIVE_SIZE for v < 0. */
export function checkSize(method: string, name: string, v: number): void {
  checkCoord(method, name, v);
  if (v < 0) {
    throw new HitcoreError("NEGATIVE_SIZE", `${method}: ${name} must be >= 0, got ${v}. Pass the absolute size; for a rect or box, move x/y to the top-left corner.`);
  }
}

/** The options object of `method`: {} for undefined, INVALID_OPTION for anything but an object. */
export function optionsOf<T extends object>(method: string, options: T | undefined): T {
  if (options === undefined) return {} as T;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new HitcoreError("INVALID_OPTION", `${method}: options must be an object, got ${describe(options)}. Pass {} or leave them out.`);
  }
  return options;
}

/**
 * Writes `values` (field, value pairs) into a part's header: the counts and capacities the core
 * trusts. Each part builds the one list both this and checkHeader read.
 */
export function setHeaderFields(header: Int32Array, values: readonly number[]): void {
  for (let k = 0; k < values.length; k += 2) header[values[k]] = values[k + 1];
}

/**
 * CORRUPT unless each header field holds the value the part's own state gives it (`expected`:
 * field, value pairs, as setHeaderFields writes them). A restored snapshot brings its own header,
 * which validate() checks so (world.restore calls it, and goes back on CORRUPT).
 */
export function checkHeader(part: string, header: Int32Array, expected: readonly number[]): void {
  for (let k = 0; k < expected.length; k += 2) {
    const field = expected[k], want = expected[k + 1];
    if (header[field] !== want) {
      throw new HitcoreError("CORRUPT", `validate: the ${part} header's field ${field} holds ${header[field]}, its state says ${want}`);
    }
  }
}
