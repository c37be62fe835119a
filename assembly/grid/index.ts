// The bucket grid of "Basic Collision Detection in Games" (part 2B), built by counting sort over
// flat stores, and the batched queries that run on it: self pairs, cross pairs, first hits and
// probe queries. Memory layout and header fields: layout/grid.ts. asc compiles it to the two wasm
// builds (the SIMD one runs the *Simd bodies, chosen where `if (SIMD)` picks them); the js backend
// is the scalar build translated by wasm2js. All three give the same pairs, in the same order, with
// the same stats.
//
// Why this shape:
// - Each entity lives in one cell, its home: the cell of its box's top-left corner. The cell size
//   comes from the size histogram, so most entities are "small": their box reaches at most one
//   cell past home on each axis. Two small entities can only overlap when their homes are
//   neighbours, so self pairs test each cell against itself and four neighbours (the half
//   stencil), and every pair is met exactly once: no duplicates to filter.
// - The few "large" entities (wider than that) stay out of the cells, in a list; each is tested
//   against the cells its box can reach, and against the other large ones by sort and sweep.
// - A frame is bound by instructions and mispredicted branches in the passes, and by random
//   writes in the counting sort past 10k entities. So boxes stay in locals (V8 keeps wasm globals
//   in memory), tests are bitwise with one branch, the pair walk goes over entries rather than
//   over (mostly empty) cells, and the cell table is padded so a neighbour run is two loads with
//   no edge tests.
// - The grid covers the bounding box of what it holds, with at most CELLS_PER_ENTITY cells per
//   entity. A pile of entities in one cell is sorted by left edge (crowded.ts) and costs no more
//   than a double loop over it.
// - "Small" is decided with the same monotone cellOf() the queries use, never with a float
//   margin, so exact touching and f32 rounding cannot lose a pair.
//
// The files: build.ts (a build's passes in order: select.ts, home.ts, scatter.ts, with shape.ts
// for the cell size; reach.ts for a reach grid), walk.ts and large.ts (selfPairs' pairs),
// crowded.ts (crowded grids: cells sorted by left edge, walked and probed),
// self_pairs.ts (one grid or the split of thin boxes), cross.ts (crossPairs, firstHits),
// reach_probe.ts (probes of a reach grid), probes.ts (a box or a mask against a grid; queryProbe),
// boxes.ts (box and cell arithmetic), simd.ts (the SIMD build's helpers), stats.ts (the counts).
// What a call keeps for the next lives in the header (G_GUESS_*, G_CROWDED, G_PROBE_*, ...), so
// each world keeps its own; module-level variables hold only the current call's state.
import { buildGrid as buildRun } from "./build.ts";
import { checkedAfter, invalidSlots } from "./check.ts";
import { crossPairsChecked, firstHits as firstRun } from "./cross.ts";
import { queryProbe } from "./probes.ts";
import { selfPairs as selfRun } from "./self_pairs.ts";

export { invalidSlots, queryProbe };

// Each query that builds a grid checks the slots it reads (check.ts): a refused call returns 0
// with S_INVALID set. buildGrid and firstHits, which write what later calls read (the probe grid,
// the flags), run the check pass first and write nothing else when refused. selfPairs and
// crossPairs check as their passes read the slots and refuse at their end: what they wrote by
// then is their scratch (the pair queries' grid, H_PAIRS) and header fields, which the facade
// puts back.

/** Builds the grid over live slots in [0, count) with (groups & mask) != 0; returns how many it holds. */
export function buildGrid(count: i32, mask: i32, cellSize: f32): i32 {
  return invalidSlots(count, mask) != 0 ? 0 : buildRun(count, mask, cellSize);
}

/** All overlapping pairs within mask; returns the total (pairs past the capacity are counted, not written). */
export function selfPairs(count: i32, mask: i32, cellSize: f32): i32 {
  return checkedAfter(selfRun(count, mask, cellSize), count, mask);
}

/** All overlapping (a in maskA, b in maskB) pairs, a != b; returns the total. */
export function crossPairs(count: i32, maskA: i32, maskB: i32, cellSize: f32): i32 {
  return crossPairsChecked(count, maskA, maskB, cellSize);
}

/** Each maskA entity stops at the lowest-slot maskB entity it overlaps; returns the number of hits. */
export function firstHits(count: i32, maskA: i32, maskB: i32, cellSize: f32, exclusive: bool): i32 {
  return invalidSlots(count, maskA | maskB) != 0 ? 0 : firstRun(count, maskA, maskB, cellSize, exclusive);
}
