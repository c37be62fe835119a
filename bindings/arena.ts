// The one region allocator of the facade. A world's parts (bodies, tile map, rect level,
// platforms) share one memory; each part lays its stores out as an ordered list of regions in a
// block of its own, and every part grows and moves them the same way.
//
//   heap base (kernel.arenaBase(), past the headers and the core's static data)
//   | block of part A | block of part B | ...                        Heap.top: first free byte
//   block = | region 0 | pad | region 1 | pad | ... | region n-1 | pad |   each region 16-byte aligned
//
// A part's header holds each region's byte offset in the field the region names, so the core finds
// its regions by reading the header. A relayout is planned whole before anything changes: every
// offset is computed in doubles (sizes are never wrapped by 32-bit arithmetic) and checked against
// HEAP_LIMIT, and memory is grown once, so a layout that cannot be made throws CAPACITY and leaves
// the old layout, its views and its contents as they were. Only then are the regions that keep
// their data moved, from the last back to the first. The block grows in place when it is the last
// one in the heap, and otherwise moves to the heap's top, so one part's growth never moves another
// part's regions. Capacities only grow and a block never moves down, so no region starts below its
// old offset, and moving from the end never overwrites data not yet moved. The bytes a kept region
// gains are zeroed; regions that do not keep their data are the part's scratch or are rewritten by
// the part after the relayout. A block left behind is not reused: growth doubles capacities, so
// what is left behind adds up to less than what is in use.
//
// Stale views: a relayout that moves or resizes any region detaches the memory's buffer (grown
// memory is a new buffer anyway; otherwise memory.grow(0), which replaces the buffer in V8 and in
// the js backend's memory), so a view a caller kept from before reads length 0 and drops every
// write instead of landing in another region's entities. detachViews is the one way views go stale
// (here and in world.restore, which rewrites every region), and every part rebuilds its views when
// it finds the buffer replaced (or its header view empty).
// Detaching, rather than moving every relayout to fresh bytes, keeps memory from growing at every
// level edit (the platforms relay their block at the first query after each one).

import { HitcoreError } from "./validate.js";
import type { WasmMemory } from "./wasm_types.js";

const PAGE = 65536;

/**
 * The most bytes a world's memory may span (its heap's top): the core computes byte offsets in
 * 32-bit integers, which stay positive and exact below 2^31.
 */
export const HEAP_LIMIT = 2 ** 31;

/** One region: the header field that holds its offset, its size in bytes, and whether its data survives a relayout. */
export interface Region {
  readonly field: number;
  readonly bytes: number;
  readonly keep: boolean;
}

/** Rounds a byte offset up to the next multiple of 16 (the alignment of every region, for v128 loads); exact for any size a double holds. */
export function align16(at: number): number {
  return Math.ceil(at / 16) * 16;
}

/** Whether a plan's end is a heap the core can address (HEAP_LIMIT); NaN and Infinity are not. */
export function fitsHeap(end: number): boolean {
  return end <= HEAP_LIMIT;
}

/**
 * Grows `memory` to hold `end` bytes (by at least `headroom` times its size when it grows); returns
 * whether it grew. CAPACITY, with nothing changed, when `end` is past HEAP_LIMIT or the engine
 * cannot allocate the memory.
 */
export function reserve(memory: WasmMemory, end: number, headroom = 1): boolean {
  const have = memory.buffer.byteLength;
  if (end <= have) return false;
  if (!fitsHeap(end)) throw tooLarge(end);
  const want = Math.min(Math.max(end, headroom * have), HEAP_LIMIT);
  let grown: number;
  try {
    grown = memory.grow(Math.ceil((want - have) / PAGE));
  } catch {
    grown = -1;
  }
  if (grown < 0) throw new HitcoreError("CAPACITY", `the world's memory could not grow to ${end} bytes (the engine refused). Hold fewer entities, or lower the capacities.`);
  return true;
}

/** Detaches every view of `memory`'s buffer (a new buffer object over the same bytes): stale views read length 0 and drop writes. */
export function detachViews(memory: WasmMemory): void {
  memory.grow(0);
}

function tooLarge(end: number): HitcoreError {
  return new HitcoreError("CAPACITY", `the layout needs ${end} bytes of memory, past the ${HEAP_LIMIT} a world may span. Hold fewer entities, or split them over several worlds.`);
}

/** The bytes of one memory that the parts of a world share: past `top`, nothing is in use. */
export class Heap {
  constructor(public top: number) {}
}

/** The regions of one part in a memory it may share with other parts (through one Heap). */
export class Arena {
  /** First byte of the part's block (0 before the first layout). */
  start = 0;
  /** Byte offset of each region, in the order of the last layout. */
  offsets = new Int32Array(0);
  /** Byte size of each region. */
  sizes = new Int32Array(0);
  /** Header field of each region. */
  fields = new Int32Array(0);
  /** First byte past the last region. */
  end = 0;

  /**
   * `heap` is shared by every part of one memory. `headroom` > 1 grows memory by at least that factor of its size, so that a part
   * whose layout is rebuilt often (a level edited piece by piece) does not grow memory every time.
   */
  constructor(private readonly memory: WasmMemory, private readonly heap: Heap, private readonly headroom = 1) {}

  /**
   * Where layout(regions) would put the part's block with the heap's top at `top` (the heap's now,
   * or the end of another plan made first): its start and end, in doubles. Changes nothing.
   */
  plan(regions: readonly Region[], top = this.heap.top): { start: number; end: number } {
    const start = this.end !== 0 && this.end === top ? this.start : align16(top);
    let at = start;
    for (const r of regions) {
      if (!(r.bytes >= 0)) return { start, end: NaN };
      at = align16(at + r.bytes);
    }
    return { start, end: at };
  }

  /**
   * Refuses, changing nothing, a layout of `regions` that would pass HEAP_LIMIT: INVALID_OPTION
   * when `method` makes the part (its options ask for too much), CAPACITY when it grows it. `what`
   * names what asked for the room.
   */
  check(regions: readonly Region[], method: string, making: boolean, what: string): void {
    const end = this.plan(regions).end;
    if (fitsHeap(end)) return;
    throw new HitcoreError(making ? "INVALID_OPTION" : "CAPACITY", `${method}: ${what} would need ${end} bytes of memory, past the ${HEAP_LIMIT} a world may span. ` +
      (making ? "Lower the capacity options: the stores grow on demand." : "Hold fewer at once, or split them over several worlds."));
  }

  /**
   * Lays `regions` out from the base, grows memory if they do not fit, moves the data of the
   * regions that keep it (region k of the old layout is region k of the new one), zeroes what
   * they gain, detaches the old views when a region moved or changed size, and writes each offset
   * into `header()[region.field]`. `header` is called after that, so it returns a view of the
   * current buffer. Returns the new end. CAPACITY, changing nothing, when the layout would pass
   * HEAP_LIMIT or memory cannot grow.
   */
  layout(regions: readonly Region[], header: () => Int32Array): number {
    const n = regions.length, heap = this.heap;
    const { start, end } = this.plan(regions);
    if (!fitsHeap(end)) throw tooLarge(end);
    const grown = reserve(this.memory, end, this.headroom);
    const offsets = new Int32Array(n), sizes = new Int32Array(n);
    let at = start;
    for (let r = 0; r < n; r++) {
      offsets[r] = at;
      sizes[r] = regions[r].bytes;
      at = align16(at + sizes[r]);
    }
    const bytes = new Uint8Array(this.memory.buffer);
    const old = this.offsets, oldSizes = this.sizes;
    let moved = old.length !== 0 && old.length !== n;
    for (let r = Math.min(n, old.length) - 1; r >= 0; r--) {
      if (old[r] !== offsets[r] || oldSizes[r] !== sizes[r]) moved = true;
      if (!regions[r].keep) continue;
      const from = old[r], to = offsets[r], keep = Math.min(oldSizes[r], sizes[r]);
      bytes.copyWithin(to, from, from + keep);
      bytes.fill(0, to + keep, to + sizes[r]);
    }
    if (moved && !grown) detachViews(this.memory);
    this.offsets = offsets;
    this.sizes = sizes;
    this.fields = Int32Array.from(regions, (r) => r.field);
    this.start = start;
    this.end = end;
    heap.top = end;
    const h = header();
    for (let r = 0; r < n; r++) h[regions[r].field] = offsets[r];
    return end;
  }
}

/** An arena's layout as a snapshot holds it. */
export interface Layout {
  offsets: Int32Array;
  sizes: Int32Array;
  fields: Int32Array;
  start: number;
  end: number;
}

/**
 * Whether a layout is whole: regions in order inside [start, end], start at least `base`, end at
 * most `top`, and the header pointing at each (world.restore checks a snapshot so before using it).
 */
export function layoutIsWhole(a: Layout, header: Int32Array, base: number, top: number): boolean {
  const n = a.offsets.length;
  if (a.sizes.length !== n || a.fields.length !== n || a.start < base || a.end > top || a.start % 16 !== 0) return false;
  let at = a.start;
  for (let r = 0; r < n; r++) {
    const o = a.offsets[r], field = a.fields[r];
    if (o !== align16(at) || a.sizes[r] < 0 || field < 0 || field >= header.length || header[field] !== o) return false;
    at = o + a.sizes[r];
  }
  return align16(at) === a.end;
}
