// The interface both backends implement: the core's exports, from its wasm builds or its js build.
// Every call reads its regions from the header (layout/grid.ts); none allocates.
import type { WasmMemory } from "./wasm_types.js";

export interface Kernel {
  readonly memory: WasmMemory;
  /** First byte the facade may use for its regions. */
  arenaBase(): number;
  // The grid queries below run invalidSlots first: a slot holding no usable shape makes them
  // return 0 with S_INVALID set, having written nothing else.
  /** Builds the grid over live slots in [0, count) with (groups & mask) != 0; returns how many it holds. */
  buildGrid(count: number, mask: number, cellSize: number): number;
  /** All overlapping pairs within mask; returns the total (pairs past the capacity are counted, not written). */
  selfPairs(count: number, mask: number, cellSize: number): number;
  /** All overlapping (a in maskA, b in maskB) pairs, a != b; returns the total. */
  crossPairs(count: number, maskA: number, maskB: number, cellSize: number): number;
  /** Each maskA entity stops at the lowest-slot maskB entity it overlaps; returns the number of hits. */
  firstHits(count: number, maskA: number, maskB: number, cellSize: number, exclusive: boolean): number;
  /**
   * How many live slots in [0, count) within mask hold no usable shape; when some do, their number
   * and the first into S_INVALID and S_FIRST_INVALID. Writes nothing else.
   */
  invalidSlots(count: number, mask: number): number;
  /** Entities in mask overlapping the probe slot, except slot `exclude`; returns their number. */
  queryProbe(count: number, mask: number, useGrid: boolean, exclude: number): number;
  /**
   * Slots [0, n) take x and y from the f64s the facade staged in the planes region (x at its start,
   * y 8 * (CAPACITY + PLANE_SLACK) bytes in). Returns -1, or the first slot whose x or y is not a
   * finite number of magnitude at most MAX_COORD, having written nothing.
   */
  setPositions(n: number): number;
  /**
   * Moves the live slots in [0, count) within mask by their velocity against every part of the
   * level (RESPONSE_* at each contact); returns how many hit, or -1 with S_INVALID set, having
   * changed nothing.
   */
  moveBodies(count: number, mask: number, response: number, restitution: number, parts: number): number;
  /**
   * 1 when a live slot in [0, count) within mask holds a value moveBodies (move 1) or overlapLevel
   * (move 0) cannot take, with S_INVALID and S_FIRST_INVALID set as they set them; else 0. Writes nothing else.
   */
  bodiesRefused(count: number, mask: number, move: number): number;
  /** One cast (SWEEP_*) against the PARTS_* of the level; 1 on a hit (W_ONE_* in the world header). */
  castLevel(mode: number, x: number, y: number, dx: number, dy: number, a: number, b: number, parts: number): number;
  /** `count` casts from W_CASTS; returns how many hit, or -1 - k when cast k holds a value it cannot take. */
  castLevelMany(count: number, mode: number, parts: number): number;
  /**
   * What static level geometry each live slot in [0, count) within mask overlaps, into the
   * W_OVERLAP planes; returns how many overlap anything, or -1 with S_INVALID set, having written
   * nothing else.
   */
  overlapLevel(count: number, mask: number): number;
  /**
   * Every controller's contacts with the live bodies in [0, count) within mask (the home grid over
   * mask built first), records into W_CONTACTS; returns how many there are (past W_CONTACT_CAP
   * counted, not written), or -1 with S_INVALID set when a body holds invalid data.
   */
  controllerContacts(count: number, mask: number, pickUp: number, cellSize: number): number;
}
