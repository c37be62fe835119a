// The arguments the fuzz draws, as fast-check arbitraries of small functions that make the value
// when the call runs (ids and handles need the world's state at that moment). Each argument is a
// valid value most of the time and otherwise a hostile one: fast-check's own doubles (NaN, the
// infinities, -0, the extremes and the smallest subnormals, with its bias toward them) or one of
// the values below (wrong types, objects without a prototype, symbols, numbers just past a limit).
import fc from "fast-check";

/** What a call is given for one argument: made when the call runs, from the fuzz's state. */
export type Arg<C> = (ctx: C) => unknown;

/** Values that are wrong for some parameter: each a maker, so no call sees another's object. */
export const HOSTILE: readonly (() => unknown)[] = [
  () => NaN, () => Infinity, () => -Infinity, () => -0, () => 1e30, () => -1e30, () => 1.0000001e30, () => 2e30, () => 1e308,
  () => -1e308, () => 5e-324, () => -5e-324, () => 2 ** 31, () => 2 ** 32, () => 2 ** 53, () => -(2 ** 31) - 1, () => 2 ** 24,
  () => 0.5, () => -1, () => 0, () => "5", () => "", () => "NaN", () => Symbol("hostile"), () => ({}), () => Object.create(null),
  () => undefined, () => null, () => true, () => [], () => [1], () => 10n, () => () => 1, () => new Float32Array(2),
  () => ({ valueOf: () => 3 }), () => new Proxy({}, {}), () => new Date(0), () => ({ length: 3 }), () => ({ length: -1 }),
];

export const hostile = fc.nat(HOSTILE.length - 1).map((i) => (() => HOSTILE[i]()) as Arg<never>);

/** A value from `valid` six times in eight, else fast-check's doubles or a hostile value. */
export function mostly<C>(valid: fc.Arbitrary<Arg<C>>, weight = 6): fc.Arbitrary<Arg<C>> {
  return fc.oneof(
    { arbitrary: valid, weight },
    { arbitrary: fc.double().map((v) => (() => v) as Arg<C>), weight: 1 },
    { arbitrary: hostile as fc.Arbitrary<Arg<C>>, weight: 1 },
  );
}

const constant = <C>(v: number): Arg<C> => () => v;

/** Coordinates in eighths, around a level about 1,000 units wide: exact in f32, so references agree exactly. */
export const coord = <C>() => mostly(fc.integer({ min: -8 * 64, max: 8 * 1100 }).map((n) => constant<C>(n / 8)));
/** Sizes and radii in eighths up to 48. */
export const size = <C>() => mostly(fc.integer({ min: 0, max: 8 * 48 }).map((n) => constant<C>(n / 8)));
/** Motions in eighths, up to 400 either way. */
export const motion = <C>() => mostly(fc.integer({ min: -8 * 400, max: 8 * 400 }).map((n) => constant<C>(n / 8)));
/** Group bits and masks: a few low bits, or all of them. */
export const groups = <C>() => mostly(fc.oneof(fc.integer({ min: 1, max: 7 }), fc.constant(0xffffffff)).map((n) => constant<C>(n)));
/** A whole number in [min, max]. */
export const int = <C>(min: number, max: number) => mostly(fc.integer({ min, max }).map((n) => constant<C>(n)));
/** One of the given numbers. */
export const oneOf = <C>(...values: number[]) => mostly(fc.constantFrom(...values).map((n) => constant<C>(n)));
/** A boolean, or a hostile value. */
export const bool = <C>() => mostly(fc.boolean().map((b) => (() => b) as Arg<C>));
/** A real in [min, max]. */
export const real = <C>(min: number, max: number) => mostly(fc.double({ min, max, noNaN: true }).map((v) => constant<C>(v)));

/** A fickle array's valid numbers, as its first reads answered them (for the fuzz's own bookkeeping). */
export const FIRST_READS = Symbol("first reads");

/** How an array argument is made: valid contents, or one thing wrong with it. */
export type ArrayFault = "none" | "short" | "long" | "odd" | "type" | "element" | "notArray" | "empty" | "frozen" | "fickle";
export interface ArrayPlan { fault: ArrayFault; type: number; at: number; bad: () => unknown }

export const arrayPlan = fc.record({
  fault: fc.oneof(
    { arbitrary: fc.constant("none" as ArrayFault), weight: 6 },
    { arbitrary: fc.constantFrom<ArrayFault>("short", "long", "odd", "type", "element", "notArray", "empty", "frozen", "fickle"), weight: 3 },
  ),
  type: fc.nat(6),
  at: fc.nat(),
  bad: fc.oneof(fc.double().map((v) => () => v), hostile),
});

const TYPES = [
  (a: number[]) => a, (a: number[]) => Float64Array.from(a), (a: number[]) => Float32Array.from(a), (a: number[]) => Int32Array.from(a),
  (a: number[]) => Int8Array.from(a), (a: number[]) => Uint8ClampedArray.from(a), (a: number[]) => new BigInt64Array(a.length),
];

/**
 * An array made from `valid` numbers (whose length is a multiple of `stride`) by the plan: as it is
 * (in a plain array or a Float64Array), or too short, too long, cut to a length that is not a
 * multiple of the stride, of another typed array type, with one hostile element, not an array at all,
 * or behind getters that answer the valid numbers on the first read and a hostile value after it.
 */
export function makeArray(valid: number[], plan: ArrayPlan, stride = 1): unknown {
  const a = valid.slice();
  switch (plan.fault) {
    case "none": return plan.type % 2 === 0 ? a : Float64Array.from(a);
    case "short": return a.slice(0, Math.max(0, a.length - stride));
    case "long": return a.concat(a.slice(0, stride), a.slice(0, stride));
    case "odd": return a.length > 1 ? a.slice(0, a.length - 1 - (plan.at % Math.max(1, stride - 1))) : a.concat([1]);
    case "type": return TYPES[plan.type](a);
    case "element": { const b: unknown[] = a.slice(); if (b.length === 0) b.push(0); b[plan.at % b.length] = plan.bad(); return b; }
    case "notArray": return plan.bad();
    case "empty": return [];
    case "frozen": return Object.freeze(a);
    case "fickle": {
      // Each element answers its valid value on the first read and the bad value after it.
      const seen = new Set<string>();
      return new Proxy(a, {
        get(target, key, receiver) {
          if (key === FIRST_READS) return target.slice();
          if (typeof key !== "string" || !/^[0-9]+$/.test(key)) return Reflect.get(target, key, receiver);
          if (seen.has(key)) return plan.bad();
          seen.add(key);
          return Reflect.get(target, key, receiver);
        },
      });
    }
  }
}
