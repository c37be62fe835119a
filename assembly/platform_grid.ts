// The platforms part's header access, the moving ball's state, and the static grid over the level
// (cell lists built by the facade at load time, bindings/platform_index.ts). Layout:
// layout/platforms.ts. Mirrored in bindings/baseline/platforms.ts.
//
// Maths runs in f64 on the stored f32 values (as assembly/shapes.ts does): f64 operations are the
// same IEEE operations in wasm and in JS, so the core, the TS baseline and the brute-force reference
// take the same decisions bit for bit, borderline contacts included.
import { PLATFORMS_HEADER } from "../layout/grid.ts";
import { P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_ROWS } from "../layout/platforms.ts";

// @ts-ignore: decorator
@inline export function ph(field: i32): i32 {
  return load<i32>(PLATFORMS_HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function phF(field: i32): f64 {
  return <f64>load<f32>(PLATFORMS_HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function setPh(field: i32, value: i32): void {
  store<i32>(PLATFORMS_HEADER + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setPhF(field: i32, value: f64): void {
  store<f32>(PLATFORMS_HEADER + (field << 2), <f32>value);
}

// The ball being resolved: position and velocity in f64 for the whole fold (wasm has no tuples).
export let ballX: f64 = 0;
export let ballY: f64 = 0;
export let ballVX: f64 = 0;
export let ballVY: f64 = 0;

export function setBall(x: f64, y: f64, vx: f64, vy: f64): void {
  ballX = x; ballY = y; ballVX = vx; ballVY = vy;
}

// Counters of the current call, flushed to S_* at its end.
export let candidates = 0;
export let contacts = 0;

export function resetCounters(): void {
  candidates = 0;
  contacts = 0;
}

export function countCandidate(): void {
  candidates++;
}

export function countContact(): void {
  contacts++;
}

/** Cell index of a point: row * cols + col, or cols * rows (the outside cell) beyond the grid or for NaN. */
export function cellAt(x: f64, y: f64): i32 {
  const cols = ph(P_GRID_COLS), rows = ph(P_GRID_ROWS);
  const inv = phF(P_GRID_INV);
  const tx = (x - phF(P_GRID_OX)) * inv;
  const ty = (y - phF(P_GRID_OY)) * inv;
  // Compared as floats first: NaN and huge values land outside rather than in a saturated cell.
  if (!(tx >= 0 && tx < <f64>cols && ty >= 0 && ty < <f64>rows)) return cols * rows;
  return <i32>ty * cols + <i32>tx;
}
