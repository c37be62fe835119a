// The interface both backends implement for the platforms part: the core's exports (assembly/balls.ts),
// compiled to wasm by asc or to JavaScript by tsc (bindings/js_kernel.ts). Every call reads its
// regions from the header at PLATFORMS_HEADER (layout/platforms.ts); none allocates.
import type { WasmMemory } from "./wasm_types.js";

export interface PlatformsKernel {
  readonly memory: WasmMemory;
  /** First byte the facade may use for its regions. */
  arenaBase(): number;
  /** Steps every ball by dt (accelerate, fold surfaces then polyhedra, integrate; sub-stepped); returns the contacts. */
  stepBalls(dt: number): number;
  /** Surfaces whose hit region holds (x, y) for radius r (trapezium, or rounded when exact); ascending ids into results; returns the count. */
  touchSurfaces(x: number, y: number, r: number, exact: boolean): number;
  /** Polyhedra (faces moved out by r) holding (x, y); ascending ids into results; returns the count. */
  insidePolyhedra(x: number, y: number, r: number): number;
  /** Closest hit of a circle of radius r moving from (x0, y0) to (x1, y1); 1 and the C_* fields on a hit, else 0. */
  castSegment(x0: number, y0: number, x1: number, y1: number, r: number, surfaces: boolean, polyhedra: boolean): number;
  /** Closest hit of the box (min corner x, y; size w x h) moving by (dx, dy), exact (Minkowski sums); as castSegment, centre at contact in C_X, C_Y. */
  castBox(x: number, y: number, w: number, h: number, dx: number, dy: number, surfaces: boolean, polyhedra: boolean): number;
}
