// The functions of the core the rects part calls (layout/rects.ts): the wasm core's exports, or
// the js backend's translation of the same core.
import type { WasmMemory } from "./wasm_types.js";

export interface RectsKernel {
  readonly memory: WasmMemory;
  arenaBase(): number;
  /** Builds the quadtree of the given depth over the instances; returns its node count. */
  rectsBuild(depth: number): number;
  /** Instances whose master box overlaps the box, into RH_RESULTS; returns their number. */
  rectsQueryBox(x0: number, y0: number, x1: number, y1: number, search: number): number;
  /** Steps every character one frame; returns the stomps written to RH_STOMPS. */
  rectsStepCharacters(search: number): number;
  /** Casts a point, box or circle; returns 1 on a hit (details in RH_CAST_OUT and the header). */
  rectsCast(mode: number, px: number, py: number, dx: number, dy: number, a: number, b: number, search: number): number;
  /** Moves the projectiles without tunneling; returns how many hit. */
  rectsMoveProjectiles(count: number, search: number): number;
}
