// What the current call visits, flushed to the S_* header fields at its end (Box2D's
// b2TreeStats idea: the stats prove the pruning, not only the speed), and the pairs it emits.
// Per-call state: every call starts it over (beginCall, resetInvalid). The hot loops that count
// per record keep their counts in locals and hand them over once (V8 keeps wasm globals in memory:
// a load and a store per update).
import { S_AABB_TESTS, S_CELLS_VISITED, S_FIRST_INVALID, S_FOUND, S_INVALID, S_NARROW_TESTS } from "../../layout/grid.ts";
import { setHdr } from "../header.ts";
import { setI32 } from "../memory.ts";

let aabbTests = 0;
let narrowTests = 0;
let cellsVisited = 0;
let invalid = 0;
let firstInvalid = -1;
// The groups whose every live slot a pass of this call has tested (noteChecked), since resetInvalid.
let checked = 0;
let found = 0;

/** A query's start: no tests, cells or pairs yet. */
// @ts-ignore: decorator
@inline export function beginCall(): void {
  aabbTests = 0;
  narrowTests = 0;
  cellsVisited = 0;
  found = 0;
}

/** A query's end: its counts into the S_* fields. */
// @ts-ignore: decorator
@inline export function endCall(): void {
  setHdr(S_AABB_TESTS, aabbTests);
  setHdr(S_NARROW_TESTS, narrowTests);
  setHdr(S_CELLS_VISITED, cellsVisited);
  setHdr(S_FOUND, found);
}

/** A build's start: no invalid entity met and no slot tested yet. */
// @ts-ignore: decorator
@inline export function resetInvalid(): void {
  invalid = 0;
  firstInvalid = -1;
  checked = 0;
}

/** A pass has tested every live slot in `mask` (noting those it refused). */
// @ts-ignore: decorator
@inline export function noteChecked(mask: i32): void {
  checked |= mask;
}

/** Whether passes since resetInvalid have tested every live slot in `mask`. */
// @ts-ignore: decorator
@inline export function allChecked(mask: i32): bool {
  return (mask & ~checked) == 0;
}

/** Slot i holds numbers past the facade's rule (shapeOk: NaN, an infinity, a magnitude past MAX_COORD, a negative size), written through a view. */
// @ts-ignore: decorator
@inline export function noteInvalid(i: i32): void {
  if (invalid == 0) firstInvalid = i;
  invalid++;
}

/** The invalid entities met since resetInvalid. */
// @ts-ignore: decorator
@inline export function invalidCount(): i32 {
  return invalid;
}

/** The invalid entities met and the first of them into S_INVALID and S_FIRST_INVALID. */
// @ts-ignore: decorator
@inline export function flushInvalid(): void {
  setHdr(S_INVALID, invalid);
  setHdr(S_FIRST_INVALID, firstInvalid);
}

/** n more box tests. */
// @ts-ignore: decorator
@inline export function countTests(n: i32): void {
  aabbTests += n;
}

/** n more exact shape tests. */
// @ts-ignore: decorator
@inline export function countNarrow(n: i32): void {
  narrowTests += n;
}

/** n more cells visited. */
// @ts-ignore: decorator
@inline export function countCells(n: i32): void {
  cellsVisited += n;
}

/** The exact shape tests of this call so far. */
// @ts-ignore: decorator
@inline export function narrowSoFar(): i32 {
  return narrowTests;
}

/** The exact shape tests of this call so far are n (a loop that counted in a local hands them over). */
// @ts-ignore: decorator
@inline export function setNarrow(n: i32): void {
  narrowTests = n;
}

/** The pairs (or results) this call found so far, those past the buffer's capacity included. */
// @ts-ignore: decorator
@inline export function pairsFound(): i32 {
  return found;
}

/** The pairs this call found so far are n (a loop that counted in a local hands them over). */
// @ts-ignore: decorator
@inline export function setPairsFound(n: i32): void {
  found = n;
}

// Pair counts are i32: past 2^31 - 1 pairs a count turns negative and stays so (countOne
// saturates; the loops that count without it hold theirs once per entity, with heldCount, and add
// far fewer than 2^31 in between), so it never wraps back to a small count: the facade refuses a
// negative total with CAPACITY. The writes compare unsigned, so a negative count writes nothing.

/** n + 1, or n once n is negative (a count that passed 2^31 - 1 stays at its least). */
// @ts-ignore: decorator
@inline export function countOne(n: i32): i32 {
  return n + 1 - (n >>> 31);
}

/** A count n that passed 2^31 - 1 (negative) held at its least, i32.MIN_VALUE; else n. */
// @ts-ignore: decorator
@inline export function heldCount(n: i32): i32 {
  return n < 0 ? i32.MIN_VALUE : n;
}

/** Writes pair (a, b) to the pair buffer at pairp if it has room (cap pairs); counts it either way. */
// @ts-ignore: decorator
@inline export function emitPair(pairp: i32, cap: i32, a: i32, b: i32): void {
  if (<u32>found < <u32>cap) {
    const o = pairp + (found << 3);
    setI32(o, a);
    setI32(o + 4, b);
  }
  found = countOne(found);
}

/** emitPair with the pair count in a local: writes (a, b) as pair `n` if it fits; returns n + 1 (countOne). */
// @ts-ignore: decorator
@inline export function emitAt(pairp: i32, cap: i32, n: i32, a: i32, b: i32): i32 {
  if (<u32>n < <u32>cap) {
    const o = pairp + (n << 3);
    setI32(o, a);
    setI32(o + 4, b);
  }
  return countOne(n);
}

/** Writes slot j to the results buffer at resp (which holds a slot for every entity) and counts it. */
// @ts-ignore: decorator
@inline export function addResult(resp: i32, j: i32): void {
  setI32(resp + (found << 2), j);
  found++;
}
