// The one region allocator of the facade. A world's parts (bodies, tile map, rect level,
// platforms) share one memory; each part lays its stores out as an ordered list of regions in a
// block of its own, and every part grows and moves them the same way.
//
//   heap base (kernel.arenaBase(), past the headers and the core's static data)
//   | block of part A | block of part B | ...                        Heap.top: first free byte
//   block = | region 0 | pad | region 1 | pad | ... | region n-1 | pad |   each region 16-byte aligned
//
// A part's header holds each region's byte offset in the field the region names, so the core finds
// its regions by reading the header. A relayout computes every offset first, grows memory once,
// then moves the regions that keep their data, from the last back to the first. The block grows in
// place when it is the last one in the heap, and otherwise moves to the heap's top, so one part's
// growth never moves another part's regions (their views stay valid until memory grows). Capacities
// only grow and a block never moves down, so no region starts below its old offset, and moving
// from the end never overwrites data not yet moved. The bytes a kept region gains are zeroed;
// regions that do not keep their data are the part's scratch or are rewritten by the part after the
// relayout. A block left behind is not reused: growth doubles capacities, so what is left behind
// adds up to less than what is in use.

import type { WasmMemory } from "./wasm_types.js";

const PAGE = 65536;

/** One region: the header field that holds its offset, its size in bytes, and whether its data survives a relayout. */
export interface Region {
  readonly field: number;
  readonly bytes: number;
  readonly keep: boolean;
}

/** Rounds a byte offset up to the next multiple of 16 (the alignment of every region, for v128 loads). */
export function align16(at: number): number {
  return (at + 15) & ~15;
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
   * Lays `regions` out from the base, grows memory if they do not fit, moves the data of the
   * regions that keep it (region k of the old layout is region k of the new one), zeroes what
   * they gain, and writes each offset into `header()[region.field]`. `header` is called after
   * any growth, so it returns a view of the current buffer. Returns the new end.
   */
  layout(regions: readonly Region[], header: () => Int32Array): number {
    const n = regions.length, offsets = new Int32Array(n), sizes = new Int32Array(n);
    const heap = this.heap;
    const start = this.end !== 0 && this.end === heap.top ? this.start : align16(heap.top);
    let at = start;
    for (let r = 0; r < n; r++) {
      offsets[r] = at;
      sizes[r] = regions[r].bytes;
      at = align16(at + sizes[r]);
    }
    const have = this.memory.buffer.byteLength;
    if (at > have) this.memory.grow(Math.ceil((Math.max(at, this.headroom * have) - have) / PAGE));
    const bytes = new Uint8Array(this.memory.buffer);
    const old = this.offsets, oldSizes = this.sizes;
    for (let r = Math.min(n, old.length) - 1; r >= 0; r--) {
      if (!regions[r].keep) continue;
      const from = old[r], to = offsets[r], keep = Math.min(oldSizes[r], sizes[r]);
      bytes.copyWithin(to, from, from + keep);
      bytes.fill(0, to + keep, to + sizes[r]);
    }
    this.offsets = offsets;
    this.sizes = sizes;
    this.fields = Int32Array.from(regions, (r) => r.field);
    this.start = start;
    this.end = at;
    heap.top = at;
    const h = header();
    for (let r = 0; r < n; r++) h[regions[r].field] = offsets[r];
    return at;
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
